import Foundation

/// Base64url without padding (RFC 4648 §5), as the Push API and VAPID write keys.
public enum Base64URL {
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Nil when `text` is not base64url (padded or not; standard base64's `+` and `/` taken too).
    public static func decode(_ text: String) -> [UInt8]? {
        var base64 = text.trimmingCharacters(in: .whitespaces)
            .replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            .replacingOccurrences(of: "=", with: "")
        guard base64.count % 4 != 1 else { return nil }
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64).map(Array.init)
    }
}
