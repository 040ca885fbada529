/// Why a query does not parse, and where: what a person needs to fix it.
public struct QueryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The 1-based position, in characters, of the part of the query at fault.
    public var position: Int
    public var reason: Reason

    public init(position: Int, reason: Reason) {
        self.position = position
        self.reason = reason
    }

    public enum Reason: Sendable, Hashable {
        /// A `"` opened a phrase that never closes.
        case unclosedQuote
        /// A `/` opened a regular expression that never closes.
        case unclosedRegex
        /// A `(` without its `)`.
        case unclosedParenthesis
        /// A `)` without its `(`.
        case unopenedParenthesis
        /// `()` with nothing inside.
        case emptyParentheses
        /// Parentheses and `-` nested deeper than `QueryParser.maximumDepth`.
        case nestedTooDeeply
        /// `OR` first, last, or next to another `OR`.
        case danglingOr
        /// `-` with no term after it.
        case danglingMinus
        /// `""`, or a phrase with no letters or digits.
        case emptyPhrase
        /// `name:` where the name looks like a misspelt field; `suggestion` is the field's prefix.
        case unknownField(name: String, suggestion: String)
        /// A field prefix with nothing right after the colon.
        case missingValue(field: String)
        /// `is:` with something other than unread, read, starred or hidden.
        case invalidState
        /// `date:` with something that is not a duration or a range of days.
        case invalidDate
        /// `date:` whose range ends before it starts.
        case reversedDateRange
        /// `//`.
        case emptyRegex
        /// A pattern longer than `QueryRegex.maximumLength`.
        case regexTooLong
        /// A pattern the regular expression engine rejects, with its explanation.
        case regexDoesNotCompile(String)
        /// Text straight after a regular expression's closing slash.
        case textAfterRegex
    }

    public var description: String {
        let at = "at position \(position)"
        switch reason {
        case .unclosedQuote:
            return "closing quote missing after position \(position)"
        case .unclosedRegex:
            return "closing “/” missing for the regular expression \(at)"
        case .unclosedParenthesis:
            return "closing parenthesis missing for “(” \(at)"
        case .unopenedParenthesis:
            return "“)” \(at) has no opening parenthesis"
        case .emptyParentheses:
            return "nothing between “(” \(at) and its “)”"
        case .nestedTooDeeply:
            return "parentheses and “-” nest more than \(QueryParser.maximumDepth) deep \(at)"
        case .danglingOr:
            return "OR \(at) needs something on both sides"
        case .danglingMinus:
            return "nothing after “-” \(at)"
        case .emptyPhrase:
            return "the phrase \(at) has no letters or digits"
        case .unknownField(let name, let suggestion):
            return "unknown field “\(name):” \(at) (did you mean \(suggestion):?)"
        case .missingValue(let field):
            return "\(field): \(at) needs a word, a “phrase” or a /regular expression/ right after the colon"
        case .invalidState:
            return "is: \(at) takes unread, read, starred or hidden"
        case .invalidDate:
            return "date: \(at) takes P7D, 2026-11-01, 2026-11-01/2026-11-20, 2026-11-01/ or /2026-11-20"
        case .reversedDateRange:
            return "date: \(at) ends before it starts"
        case .emptyRegex:
            return "regular expression \(at) is empty"
        case .regexTooLong:
            return "regular expression \(at) is longer than \(QueryRegex.maximumLength) characters"
        case .regexDoesNotCompile(let why):
            return "regular expression \(at) does not compile: \(why)"
        case .textAfterRegex:
            return "regular expression \(at) needs a space after its closing “/”"
        }
    }
}
