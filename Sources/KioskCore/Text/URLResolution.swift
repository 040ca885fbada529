import Foundation

/// Resolves references against a base (`xml:base`, the feed's own address), as RFC 3986 says.
package enum URLResolution {
    /// `reference` made absolute against `base`; unchanged when there is no usable base or the
    /// reference is already absolute.
    package static func resolve(_ reference: String, against base: String?) -> String {
        let trimmed = reference.trimmingASCIIWhitespace
        guard let base, !base.isEmpty, !hasScheme(trimmed) else { return trimmed }
        guard let baseURL = URL(string: base),
            let resolved = URL(string: trimmed.isEmpty ? base : trimmed, relativeTo: baseURL)
        else { return trimmed }
        return resolved.absoluteString
    }

    /// Whether the string starts with `scheme:` (RFC 3986: a letter, then letters, digits, `+-.`).
    static func hasScheme(_ s: String) -> Bool {
        var sawLetter = false
        for c in s.utf8 {
            if c == 0x3A { return sawLetter }
            let isLetter = (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A
            let isOther = (c >= 0x30 && c <= 0x39) || c == 0x2B || c == 0x2D || c == 0x2E
            if !(isLetter || (sawLetter && isOther)) { return false }
            sawLetter = true
        }
        return false
    }
}
