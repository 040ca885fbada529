import Foundation

/// What a browser's `PushManager.subscribe()` hands over: where to send, and the keys the
/// payload is encrypted for (`getKey("p256dh")`, `getKey("auth")`).
public struct PushSubscription: Sendable, Hashable, Codable {
    /// The push service's address for this device (https, a public host).
    public var endpoint: URL
    /// The device's P-256 public key, uncompressed (65 bytes).
    public var p256dh: [UInt8]
    /// The device's authentication secret (16 bytes).
    public var auth: [UInt8]

    /// A subscription from the browser's JSON (`endpoint`, `keys.p256dh`, `keys.auth`, base64url);
    /// a field missing or of the wrong size is refused with a sentence.
    public init(endpoint text: String, p256dh: String, auth: String) throws(PushError) {
        guard let endpoint = Self.endpointURL(text) else { throw .invalidSubscription("its endpoint is not a web address") }
        guard let key = Base64URL.decode(p256dh), key.count == 65, key.first == 0x04 else {
            throw .invalidSubscription("its p256dh key is not an uncompressed P-256 point")
        }
        guard let secret = Base64URL.decode(auth), secret.count == 16 else {
            throw .invalidSubscription("its auth secret is not 16 bytes")
        }
        self.init(endpoint: endpoint, p256dh: key, auth: secret)
    }

    /// `text` as an address Kiosk may POST notifications to (a push service's, or a webhook's):
    /// http or https, with a host, at most 2,048 bytes; nil otherwise.
    public static func endpointURL(_ text: String) -> URL? {
        guard text.utf8.count <= 2_048, let url = URL(string: text), url.scheme == "https" || url.scheme == "http",
            url.host?.isEmpty == false
        else { return nil }
        return url
    }

    public init(endpoint: URL, p256dh: [UInt8], auth: [UInt8]) {
        self.endpoint = endpoint
        self.p256dh = p256dh
        self.auth = auth
    }
}

/// Why a push could not be prepared or sent, in words for the user.
public enum PushError: Error, Sendable, Hashable, CustomStringConvertible {
    case invalidSubscription(String)
    /// The payload does not fit one record.
    case tooLarge(Int)
    case crypto(String)

    public var description: String {
        switch self {
        case .invalidSubscription(let why): "That device cannot receive notifications: \(why)."
        case .tooLarge(let bytes): "A notification of \(bytes) bytes is too large to send."
        case .crypto(let why): "The notification could not be encrypted: \(why)."
        }
    }
}
