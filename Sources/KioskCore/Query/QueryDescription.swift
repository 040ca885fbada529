/// Queries written back as text, in one canonical spelling: single spaces, upper-case `OR`,
/// lower-case field names, parentheses only where the grammar needs them. A parsed query
/// written this way parses back to an equal query.
extension Query: CustomStringConvertible {
    public var description: String {
        switch self {
        case .all:
            return ""
        case .and(let parts):
            // OR binds tighter than AND, so an OR inside an AND needs no parentheses.
            return parts.map { $0.written(groupingAnd: true, groupingOr: false) }.joined(separator: " ")
        case .or(let parts):
            return parts.map { $0.written(groupingAnd: true, groupingOr: true) }.joined(separator: " OR ")
        case .not(let part):
            return "-" + part.written(groupingAnd: true, groupingOr: true)
        case .term(let field, let pattern):
            guard let field else { return pattern.written(quotingWords: false) }
            return field.name + ":" + pattern.written(quotingWords: field == .url)
        case .state(let state):
            return "is:" + state.rawValue
        case .date(let range):
            return "date:" + range.description
        }
    }

    /// The query as an operand, in parentheses when it is a group that would otherwise read
    /// differently. Nested groups of the same kind keep their parentheses too, so the tree
    /// survives a round trip unchanged.
    private func written(groupingAnd: Bool, groupingOr: Bool) -> String {
        switch self {
        case .and where groupingAnd, .or where groupingOr:
            return "(" + description + ")"
        default:
            return description
        }
    }
}

extension QueryPattern: CustomStringConvertible {
    public var description: String { written(quotingWords: false) }

    /// The pattern as a term's value. `inurl:` reads a quoted value as a literal word, so its
    /// words are quoted when they would otherwise read as something else (`inurl:"/2026/"`).
    func written(quotingWords: Bool) -> String {
        switch self {
        case .word(let word):
            let needsQuotes = word.first == "\"" || word.first == "/" || word.contains { $0.isWhitespace || $0 == "(" || $0 == ")" }
            return quotingWords && needsQuotes ? "\"" + word + "\"" : word
        case .phrase(let words):
            return "\"" + words.joined(separator: " ") + "\""
        case .regex(let regex):
            return "/" + Self.escapingSlashes(regex.pattern) + "/"
        }
    }

    /// `pattern` with each unescaped slash escaped, so it cannot end the regular expression early.
    private static func escapingSlashes(_ pattern: String) -> String {
        var result = ""
        var escaped = false
        for character in pattern {
            if character == "/" && !escaped { result.append("\\") }
            result.append(character)
            escaped = character == "\\" && !escaped
        }
        return result
    }
}
