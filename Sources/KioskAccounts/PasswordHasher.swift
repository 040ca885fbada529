import HummingbirdBcrypt
import NIOPosix

/// Hashes and checks account passwords. The live one is bcrypt (hummingbird-auth's, a maintained
/// implementation), run on NIO's thread pool: a hash takes a quarter of a second on purpose, and
/// that must not hold a thread of the concurrency pool that serves pages.
public struct PasswordHasher: Sendable {
    public var hash: @Sendable (String) async throws -> String
    public var verify: @Sendable (_ password: String, _ hash: String) async throws -> Bool

    public init(
        hash: @escaping @Sendable (String) async throws -> String,
        verify: @escaping @Sendable (_ password: String, _ hash: String) async throws -> Bool
    ) {
        self.hash = hash
        self.verify = verify
    }

    /// The bcrypt cost accounts are hashed at (log2 rounds): about a quarter of a second on a
    /// server core. Written here once; `AppConfig.passwordCost` and `kiosk user` take it.
    public static let standardCost: UInt8 = 12

    /// bcrypt at `cost` (log2 rounds; tests use the minimum, 4, and must say so).
    public static func bcrypt(cost: UInt8 = standardCost, pool: NIOThreadPool = .singleton) -> PasswordHasher {
        PasswordHasher(
            hash: { password in try await pool.runIfActive { Bcrypt.hash(password, cost: cost) } },
            verify: { password, hash in try await pool.runIfActive { Bcrypt.verify(password, hash: hash) } })
    }
}
