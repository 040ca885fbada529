/// Reads query text into a `Query`.
///
/// Grammar, loosest binding first:
///
///     query    = { either }                 terms side by side: all must match
///     either   = negated { "OR" negated }   OR binds tighter than the implicit AND
///     negated  = "-" negated | primary
///     primary  = term | "(" query ")"
///
/// So `a b OR c` means `a (b OR c)`, as in Google and FreshRSS: a searcher adds alternatives
/// for one word. `OR` is the operator only in upper case and standing alone; `or` is a word.
public enum QueryParser {
    /// Parentheses and `-` nest at most this deep, which keeps parsing, evaluating and
    /// printing a query well inside the stack however the text was made.
    public static let maximumDepth = 100

    /// The query `text` means; empty or blank text is `.all`.
    public static func parse(_ text: String) throws(QueryError) -> Query {
        var parser = Parser(lexer: QueryLexer(text))
        let parts = try parser.sequence(depth: 0, openedAt: nil)
        return conjunction(parts) ?? .all
    }

    /// The AND of `parts`, the part itself when there is one, nil when there is none.
    private static func conjunction(_ parts: [Query]) -> Query? {
        switch parts.count {
        case 0: return nil
        case 1: return parts[0]
        default: return .and(parts)
        }
    }

    /// Recursive descent over the tokens, reading them one at a time so the first fault in
    /// the text is the one reported.
    private struct Parser {
        var lexer: QueryLexer
        var peeked: QueryToken?
        var hasPeeked = false

        init(lexer: QueryLexer) {
            self.lexer = lexer
        }

        mutating func peek() throws(QueryError) -> QueryToken? {
            if !hasPeeked {
                peeked = try lexer.next()
                hasPeeked = true
            }
            return peeked
        }

        mutating func take() throws(QueryError) -> QueryToken? {
            let token = try peek()
            hasPeeked = false
            return token
        }

        /// Terms up to the end, or up to the `)` matching the `(` at `openedAt` (left unread).
        mutating func sequence(depth: Int, openedAt: Int?) throws(QueryError) -> [Query] {
            var parts: [Query] = []
            while true {
                guard let token = try peek() else {
                    if let openedAt { throw QueryError(position: openedAt, reason: .unclosedParenthesis) }
                    return parts
                }
                switch token.kind {
                case .close:
                    guard openedAt != nil else { throw QueryError(position: token.position, reason: .unopenedParenthesis) }
                    return parts
                case .or:
                    throw QueryError(position: token.position, reason: .danglingOr)
                case .open, .minus, .term:
                    _ = try take()
                    parts.append(try either(token, depth: depth))
                }
            }
        }

        /// Terms joined by OR, the first being `first` (already read).
        mutating func either(_ first: QueryToken, depth: Int) throws(QueryError) -> Query {
            var parts = [try negated(first, depth: depth)]
            while let token = try peek(), token.kind == .or {
                _ = try take()
                guard let next = try take(), next.kind != .or, next.kind != .close else {
                    throw QueryError(position: token.position, reason: .danglingOr)
                }
                parts.append(try negated(next, depth: depth))
            }
            return parts.count == 1 ? parts[0] : .or(parts)
        }

        /// The term, group or negation that starts with `token` (already read).
        mutating func negated(_ token: QueryToken, depth: Int) throws(QueryError) -> Query {
            switch token.kind {
            case .term(let term):
                return term
            case .minus:
                guard depth < QueryParser.maximumDepth else {
                    throw QueryError(position: token.position, reason: .nestedTooDeeply)
                }
                guard let next = try take(), next.kind != .or, next.kind != .close else {
                    throw QueryError(position: token.position, reason: .danglingMinus)
                }
                return .not(try negated(next, depth: depth + 1))
            case .open:
                guard depth < QueryParser.maximumDepth else {
                    throw QueryError(position: token.position, reason: .nestedTooDeeply)
                }
                let parts = try sequence(depth: depth + 1, openedAt: token.position)
                _ = try take()
                guard let group = QueryParser.conjunction(parts) else {
                    throw QueryError(position: token.position, reason: .emptyParentheses)
                }
                return group
            case .close:
                throw QueryError(position: token.position, reason: .unopenedParenthesis)
            case .or:
                throw QueryError(position: token.position, reason: .danglingOr)
            }
        }
    }
}
