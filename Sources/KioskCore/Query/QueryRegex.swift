import Foundation

/// A regular expression of a query, compiled once and run under a budget.
///
/// Patterns use ICU syntax (NSRegularExpression) and are case-insensitive. They run on the raw
/// text of a field, not the folded one: folding would rewrite the pattern's own escapes (`\D`
/// would become `\d`), so accents count in a regular expression while they do not in words.
public struct QueryRegex: Sendable, Hashable, CustomStringConvertible {
    /// Longer patterns are refused when parsed: a rule is typed by a person, and a huge pattern
    /// is more likely pasted by mistake or built to be slow.
    public static let maximumLength = 500

    /// The pattern as written between the slashes.
    public let pattern: String
    private let expression: NSRegularExpression

    /// Compiles `pattern`; a refusal is reported at position 1.
    public init(_ pattern: String) throws(QueryError) {
        try self.init(pattern, position: 1)
    }

    /// Compiles `pattern`, reporting a refusal at `position` of the query it came from.
    init(_ pattern: String, position: Int) throws(QueryError) {
        guard !pattern.isEmpty else { throw QueryError(position: position, reason: .emptyRegex) }
        guard pattern.count <= Self.maximumLength else {
            throw QueryError(position: position, reason: .regexTooLong)
        }
        do {
            expression = try NSRegularExpression(pattern: pattern, options: [.caseInsensitive])
        } catch {
            throw QueryError(position: position, reason: .regexDoesNotCompile(Self.explanation(for: pattern)))
        }
        self.pattern = pattern
    }

    public var description: String { "/\(pattern)/" }

    public static func == (lhs: QueryRegex, rhs: QueryRegex) -> Bool { lhs.pattern == rhs.pattern }

    public func hash(into hasher: inout Hasher) { hasher.combine(pattern) }

    /// Why ICU refused `pattern`. Foundation on Linux only says "the value is invalid", so the
    /// standard library's own regex parser, whose messages name the fault, is asked instead.
    private static func explanation(for pattern: String) -> String {
        do {
            _ = try Regex(pattern)
        } catch {
            return String(describing: error)
        }
        return "the regular expression engine does not accept it"
    }

    /// What one bounded search found.
    enum SearchResult: Sendable, Equatable {
        case found
        case notFound
        /// The deadline passed, or the engine gave up (its backtracking stack is bounded too).
        case exceeded
    }

    /// Whether the pattern occurs in the first `limit` Unicode scalars of `text`, giving up at
    /// `deadline`.
    ///
    /// `.reportProgress` makes ICU call back periodically even inside one long match attempt, so
    /// a catastrophic pattern such as `(a+)+$` is stopped at the deadline instead of running for
    /// ever. This works on Linux's Foundation as on Apple's (see QueryRegexTests).
    func search(_ text: String, limit: Int, deadline: ContinuousClock.Instant) -> SearchResult {
        let clock = ContinuousClock()
        guard clock.now < deadline else { return .exceeded }
        let (subject, length) = Self.prefix(of: text, limit: limit)
        var result = SearchResult.notFound
        // Without anchoring bounds `$` does not match where a long text was cut, only at its
        // real end; transparent bounds let `\b` and lookahead see the character after the cut.
        let options: NSRegularExpression.MatchingOptions = [
            .reportProgress, .reportCompletion, .withoutAnchoringBounds, .withTransparentBounds,
        ]
        expression.enumerateMatches(in: subject, options: options, range: NSRange(location: 0, length: length)) {
            match, flags, stop in
            if match != nil {
                result = .found
                stop.pointee = true
            } else if flags.contains(.internalError) {
                result = .exceeded
                stop.pointee = true
            } else if !flags.contains(.completed), clock.now >= deadline {
                // The final call of a search that completed after the deadline keeps its answer.
                result = .exceeded
                stop.pointee = true
            }
        }
        return result
    }

    /// The text to search and the UTF-16 length of the part a match may cover: all of a short
    /// `text`; for a long one, its first `limit` scalars followed by one more, so the cut is
    /// not mistaken for the end of the text.
    private static func prefix(of text: String, limit: Int) -> (String, Int) {
        // A string of at most `limit` UTF-8 bytes has at most `limit` scalars: no need to count.
        guard text.utf8.count > limit else { return (text, text.utf16.count) }
        let scalars = text.unicodeScalars
        guard let cut = scalars.index(scalars.startIndex, offsetBy: max(0, limit), limitedBy: scalars.endIndex),
            cut != scalars.endIndex
        else { return (text, text.utf16.count) }
        let subject = String(Substring(scalars[...cut]))
        return (subject, subject.utf16.count - UTF16.width(scalars[cut]))
    }
}
