import Foundation

// A store cannot evaluate every query in SQL, but its full-text index can narrow the entries to
// those holding the words every match must hold; the query then judges each of those.

extension Query {
    /// Words that every entry this query matches has in its title or content (as prefixes): the
    /// positive words and phrases joined by AND, outside any OR or NOT. Empty when the query
    /// requires none (`is:starred`, `-word`, `a OR b`): then every entry is a candidate.
    public var requiredWords: [String] {
        switch self {
        case .and(let parts):
            return parts.flatMap(\.requiredWords)
        case .term(let field, .word(let word)) where field == nil || field == .title || field == .content:
            return [word]
        case .term(let field, .phrase(let words)) where field == nil || field == .title || field == .content:
            return words
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
