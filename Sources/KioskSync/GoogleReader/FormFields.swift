import Foundation

/// The fields of a query string or an `application/x-www-form-urlencoded` body, repeated keys
/// kept in order (`i=1&i=2`, `a=...&a=...`). Clients encode unevenly (NetNewsWire leaves `T`,
/// `s` and spaces as they are), so decoding forgives: `+` is a space, a bad escape is kept.
struct FormFields: Sendable {
    private(set) var pairs: [(String, String)] = []

    init(_ text: String) {
        for part in text.split(separator: "&", omittingEmptySubsequences: true) {
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = Self.decode(pieces[0])
            let value = pieces.count > 1 ? Self.decode(pieces[1]) : ""
            pairs.append((key, value))
        }
    }

    /// The query's fields, then the body's.
    init(query: String?, body: String) {
        self.init(query ?? "")
        pairs += FormFields(body).pairs
    }

    func first(_ key: String) -> String? { pairs.first { $0.0 == key }?.1 }

    func all(_ key: String) -> [String] { pairs.filter { $0.0 == key }.map(\.1) }

    private static func decode(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
