/// A parsed search query: the one language behind search, saved searches and rules.
///
/// `QueryParser.parse(_:)` builds it; `evaluate(_:now:budget:)` tests it against an entry;
/// `description` writes it back in canonical form, which parses to an equal query.
public indirect enum Query: Sendable, Hashable {
    /// The empty query: matches every entry.
    case all
    /// Every part matches (terms written side by side).
    case and([Query])
    /// At least one part matches (terms joined by `OR`).
    case or([Query])
    /// The part does not match (`-` before a term or group).
    case not(Query)
    /// Text in one field, or in the title, content and author when `field` is nil.
    case term(field: QueryField?, QueryPattern)
    /// Read or starred state (`is:`).
    case state(QueryState)
    /// Publication date (`date:`).
    case date(QueryDateRange)
}

/// The text fields a term can be limited to, each named by its prefix in a query.
public enum QueryField: String, Sendable, Hashable, CaseIterable {
    case title = "intitle"
    case author
    case url = "inurl"
    case content
    case feed
    case folder
    case label

    /// The prefix as written in a query, without the colon.
    public var name: String { rawValue }
}

/// What a text term looks for.
public enum QueryPattern: Sendable, Hashable {
    /// A word as typed; it matches words of the field that start with it.
    case word(String)
    /// The words of a quoted phrase as typed; they match only as whole words, in this order.
    case phrase([String])
    /// A regular expression, run on the raw text of the field.
    case regex(QueryRegex)
}

/// The states `is:` names.
public enum QueryState: String, Sendable, Hashable, CaseIterable {
    case unread
    case read
    case starred
    /// Hidden by a rule: out of every list, found only by asking for it.
    case hidden
}
