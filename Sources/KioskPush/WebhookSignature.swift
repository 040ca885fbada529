import Crypto
import Foundation

/// How a webhook's receiver knows a POST came from this Kiosk: HMAC-SHA256 of the exact body,
/// keyed with the webhook's secret, sent as `X-Kiosk-Signature: sha256=<hex>` (the form GitHub's
/// `X-Hub-Signature-256` made familiar). Built on swift-crypto's HMAC.
public enum WebhookSignature {
    public static let header = "X-Kiosk-Signature"

    /// The header's value for `body`.
    public static func value(for body: [UInt8], secret: String) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: body, using: SymmetricKey(data: Array(secret.utf8)))
        return "sha256=" + code.map { String(format: "%02x", $0) }.joined()
    }

    /// A new secret: 32 random bytes, base64url.
    public static func newSecret() -> String {
        Base64URL.encode(PushEncryption.randomBytes(32))
    }
}
