import Foundation

// A store cannot evaluate every query in SQL, but its full-text index can narrow the entries to
// those holding the words every match must hold; the query then judges each of those.

extension Query {
    /// What every entry this query matches has in its title or content: the positive words and
    /// phrases joined by AND, outside any OR or NOT, each a term (a phrase's words side by side,
    /// an `intitle:` one in the title only). Empty when the query requires none (`is:starred`,
    /// `-word`, `a OR b`): then every entry is a candidate.
    public var requiredTerms: [SearchTerm] {
        switch self {
        case .and(let parts):
            return parts.flatMap(\.requiredTerms)
        case .term(let field, .word(let word)) where field == nil || field == .title || field == .content:
            return [SearchTerm(words: [word], inTitle: field == .title)]
        case .term(let field, .phrase(let words)) where field == nil || field == .title || field == .content:
            return [SearchTerm(words: words, isPhrase: true, inTitle: field == .title)]
        default:
            return []
        }
    }

    /// The states every match is in (`is:unread`, `is:starred` joined by AND at the top), so a
    /// reading list can be narrowed to them.
    public var requiredStates: Set<QueryState> {
        switch self {
        case .and(let parts): parts.reduce(into: Set()) { $0.formUnion($1.requiredStates) }
        case .state(let state): [state]
        default: []
        }
    }
}
