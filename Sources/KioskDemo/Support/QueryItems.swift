import Foundation

/// The decoded query of a request, as HTML forms and browsers encode it (`+` is a space).
struct QueryItems: Sendable {
    private var values: [String: String] = [:]

    init(_ query: String?) {
        guard let query else { return }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let rawName = parts.first else { continue }
            let name = Self.decode(rawName)
            // The first occurrence wins, as most servers do.
            if values[name] == nil {
                values[name] = parts.count > 1 ? Self.decode(parts[1]) : ""
            }
        }
    }

    subscript(name: String) -> String? { values[name] }

    /// The value as an integer, nil when missing or not a number.
    func integer(_ name: String) -> Int? {
        values[name].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }

    private static func decode(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
