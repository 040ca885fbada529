/// Why bytes could not be turned into a feed. Every failure of the parser is one of these.
/// Codable so a store can keep a source's last error exactly.
public enum FeedError: Error, Sendable, Hashable, Codable {
    /// The document is readable but is not RSS, Atom or JSON Feed (e.g. an HTML page).
    case notAFeed(String)
    /// The input is larger than `ParserLimits.maxBytes`.
    case tooLarge(limit: Int)
    /// Elements nest deeper than `ParserLimits.maxDepth`.
    case tooDeep(limit: Int)
    /// The document is broken beyond what a liberal reader recovers from.
    case malformed(String, line: Int, column: Int)
    /// The input is empty or only white space.
    case empty
}

extension FeedError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .notAFeed(let what): "not a feed: \(what)"
        case .tooLarge(let limit): "too large: more than \(limit) bytes"
        case .tooDeep(let limit): "too deeply nested: more than \(limit) levels"
        case .malformed(let why, let line, let column): "malformed at \(line):\(column): \(why)"
        case .empty: "empty document"
        }
    }
}
