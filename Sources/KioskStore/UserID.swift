/// A user of this Kiosk: the number the store gave their account.
public struct UserID: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    public let rawValue: Int64

    public init(_ rawValue: Int64) {
        self.rawValue = rawValue
    }

    /// The single local owner: who Kiosk serves on loopback before any account exists. The first
    /// account added is given this number, and so what the owner had read and starred.
    public static let owner = UserID(1)

    public static func < (lhs: UserID, rhs: UserID) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { "user \(rawValue)" }
}
