/// Reads the durations podcast feeds write: `itunes:duration` as seconds ("1830", "1830.5") or as
/// clock time ("30:30", "1:30:30", "01:30:30.250"). Anything else ("1:2:3:4", "-5", "30 min",
/// "12:75", an empty tag) is no duration rather than a guess.
public enum MediaDuration {
    /// Longer than this is taken for a mistake (a byte count written as a duration).
    static let longest = 7 * 24 * 3600

    public static func seconds(_ text: String) -> Int? {
        let parts = text.trimmingASCIIWhitespace.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var values: [Int] = []
        for (index, part) in parts.enumerated() {
            let isLast = index == parts.count - 1
            // Only the last part may carry a fraction (dropped: players show whole seconds).
            let whole = isLast ? part.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false) : [part]
            guard let digits = whole.first, !digits.isEmpty, digits.count <= 9, digits.allSatisfy(\.isASCIIDigit),
                let value = Int(digits)
            else { return nil }
            if whole.count == 2, !whole[1].allSatisfy(\.isASCIIDigit) { return nil }
            // Minutes and seconds after the first part are clock digits.
            if index > 0, value >= 60 { return nil }
            values.append(value)
        }
        // At most nine digits in each of three parts: no overflow.
        let seconds = values.reduce(0) { $0 * 60 + $1 }
        return seconds <= longest ? seconds : nil
    }

    /// A whole number from a feed (`itunes:episode`, `itunes:season`, `duration="..."`): digits
    /// only, at most nine of them.
    static func count(_ text: String) -> Int? {
        let digits = text.trimmingASCIIWhitespace
        guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy(\.isASCIIDigit) else { return nil }
        return Int(digits)
    }

    /// `itunes:explicit`: "yes", "true" and "explicit" say so; "no", "false" and "clean" say not.
    static func explicit(_ text: String) -> Bool? {
        switch text.trimmingASCIIWhitespace.lowercased() {
        case "yes", "true", "explicit": true
        case "no", "false", "clean": false
        default: nil
        }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
