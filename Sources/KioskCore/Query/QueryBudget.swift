/// How much work the regular expressions of one query may do on one entry.
///
/// A pattern such as `(a+)+$` backtracks exponentially; a rule runs on every new entry, so
/// its cost must stay bounded whatever the entry holds.
public struct QueryBudget: Sendable, Hashable {
    /// Regular expressions see at most this many characters (Unicode scalars) of each field.
    public var regexInputLimit: Int
    /// The time all regular expressions of one evaluation may take together. The clock starts
    /// with the first regular expression, so folding a long entry does not use it up.
    public var regexTimeLimit: Duration

    public init(regexInputLimit: Int, regexTimeLimit: Duration) {
        self.regexInputLimit = regexInputLimit
        self.regexTimeLimit = regexTimeLimit
    }

    /// 64 KiB of text and 50 ms: an ordinary pattern reads 64 KiB in about a millisecond, so
    /// only a pathological one comes near the limit.
    public static let standard = QueryBudget(regexInputLimit: 65_536, regexTimeLimit: .milliseconds(50))
}

/// The result of testing a query against an entry.
public enum QueryOutcome: Sendable, Hashable {
    case match
    case noMatch
    /// A regular expression ran out of its budget before the answer was known; the caller
    /// should treat the entry as not matching and flag the query (for a rule, the rule).
    case exceeded(pattern: String)
}
