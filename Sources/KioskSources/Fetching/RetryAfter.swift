import Foundation
import KioskCore

/// Reads a `Retry-After` header: delta-seconds (`120`) or an HTTP-date (`Wed, 21 Oct 2015 07:28:00 GMT`).
enum RetryAfter {
    /// Longest wait reported; a hostile or broken server must not park a source for years.
    static let longest: Duration = .seconds(24 * 60 * 60)

    /// The wait the header asks for, clamped to `0...longest`; nil when the value is neither form.
    static func parse(_ value: String, now: Date = Date()) -> Duration? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        if trimmed.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            // Digits only: delta-seconds. Too many digits for Int is simply "very long".
            guard let seconds = Int(trimmed) else { return longest }
            return min(.seconds(seconds), longest)
        }
        guard let date = DateParser.parse(trimmed) else { return nil }
        let seconds = date.timeIntervalSince(now)
        guard seconds.isFinite else { return nil }
        // A date in the past means "now"; fractions come from the clock, not the server, so round up.
        let whole = min(max(seconds.rounded(.up), 0), 24 * 60 * 60)
        return .seconds(Int(whole))
    }
}
