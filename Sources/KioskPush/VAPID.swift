import Crypto
import Foundation
import JWTKit

/// Kiosk's application server key pair (VAPID, RFC 8292): made once, kept with the data, its
/// public half handed to browsers as `applicationServerKey`, its private half signing a JWT on
/// each push (through jwt-kit's ES256).
public struct VAPIDKey: Sendable {
    public let privateKey: P256.Signing.PrivateKey

    public init(privateKey: P256.Signing.PrivateKey = P256.Signing.PrivateKey()) {
        self.privateKey = privateKey
    }

    /// A key kept as PEM; nil when `pem` is not a P-256 private key.
    public init?(pem: String) {
        guard let key = try? P256.Signing.PrivateKey(pemRepresentation: pem) else { return nil }
        self.init(privateKey: key)
    }

    /// How the key is kept.
    public var pem: String { privateKey.pemRepresentation }

    /// The public key, uncompressed and base64url: the browser's `applicationServerKey` and
    /// the `k=` of each push.
    public var publicKey: String { Base64URL.encode(privateKey.publicKey.x963Representation) }

    /// What a VAPID JWT claims: the push service's origin, until when, and who to contact.
    struct Claims: JWTPayload {
        var aud: String
        var exp: ExpirationClaim
        var sub: String

        func verify(using algorithm: some JWTAlgorithm) async throws {
            try exp.verifyNotExpired()
        }
    }

    /// The `Authorization` header of a push to `endpoint`: `vapid t=<JWT>,k=<public key>`,
    /// the JWT for the endpoint's origin, valid `lifetime` (at most 24 hours) from `now`.
    public func authorization(
        for endpoint: URL, subject: String, now: Date = Date(), lifetime: TimeInterval = 12 * 3_600
    ) async throws -> String {
        guard let scheme = endpoint.scheme, let host = endpoint.host else {
            throw PushError.invalidSubscription("its endpoint has no origin")
        }
        let origin = "\(scheme)://\(host)" + (endpoint.port.map { ":\($0)" } ?? "")
        let keys = await JWTKeyCollection().add(ecdsa: try ES256PrivateKey(backing: privateKey))
        let token = try await keys.sign(
            Claims(aud: origin, exp: ExpirationClaim(value: now.addingTimeInterval(min(lifetime, 86_400))), sub: subject))
        // No space after the comma: RFC 8292 allows one, and py-vapid (the tests' other side) does not.
        return "vapid t=\(token),k=\(publicKey)"
    }
}
