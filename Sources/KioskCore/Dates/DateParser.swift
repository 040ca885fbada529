import Foundation

/// Placeholder until the fast parser lands: same API, slow Foundation formatters.
public enum DateParser {
    /// Parses RFC 822/1123, ISO 8601/RFC 3339 and W3C-DTF dates; nil when unreadable.
    public static func parse(_ string: String) -> Date? {
        let s = string.trimmingCharacters(in: .whitespacesAndNewlines)
        let iso = ISO8601DateFormatter()
        if let d = iso.date(from: s) { return d }
        iso.formatOptions = [.withFullDate]
        if let d = iso.date(from: s) { return d }
        let rfc = DateFormatter()
        rfc.locale = Locale(identifier: "en_US_POSIX")
        rfc.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return rfc.date(from: s)
    }
}
