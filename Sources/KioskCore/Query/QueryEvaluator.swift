import Foundation

extension Query {
    /// Tests the query against `document`. Durations in `date:` count back from `now`.
    ///
    /// An `.exceeded` part is "unknown": AND is `.noMatch` if any part is, OR is `.match` if any
    /// part is, and otherwise the unknown carries up, through NOT too, so running out of budget
    /// never turns into a match. Within AND and OR, state and date parts run first, then words,
    /// then regular expressions, so the costly parts often need not run at all; a field is
    /// folded the first time a word looks at it, and once.
    public func evaluate(_ document: QueryDocument, now: Date, budget: QueryBudget = .standard) -> QueryOutcome {
        var evaluator = QueryEvaluator(document: document, folded: [:], now: now, budget: budget)
        return evaluator.outcome(of: self)
    }

    /// Tests the query against an entry folded beforehand, as when many rules test one entry.
    public func evaluate(_ document: FoldedDocument, now: Date, budget: QueryBudget = .standard) -> QueryOutcome {
        var evaluator = QueryEvaluator(document: document.document, folded: document.fields, now: now, budget: budget)
        return evaluator.outcome(of: self)
    }

    /// Whether the query matches `document`; a query out of budget does not.
    public func matches(_ document: QueryDocument, now: Date, budget: QueryBudget = .standard) -> Bool {
        evaluate(document, now: now, budget: budget) == .match
    }

    /// What testing the query costs, roughly: 0 for state and dates, 1 when it reads words,
    /// 2 when it runs a regular expression.
    var cost: Int {
        switch self {
        case .all, .state, .date: return 0
        case .term(_, .regex): return 2
        case .term: return 1
        case .and(let parts), .or(let parts): return parts.map(\.cost).max() ?? 0
        case .not(let part): return part.cost
        }
    }
}

/// One evaluation of a query against one entry: it holds the fields folded so far and the
/// regular expressions' clock.
struct QueryEvaluator {
    /// The fields a term without a field searches: those the stores' full-text indexes hold, so
    /// a search narrowed by the index and a rule judging every entry agree (`author:` names the
    /// author).
    static let unfielded: [QueryField] = [.title, .content]

    let document: QueryDocument
    let now: Date
    let budget: QueryBudget
    private var folded: [QueryField: [FoldedText]]
    private var folder = QueryTextFolder()
    /// When the regular expressions must stop, set when the first one starts.
    private var deadline: ContinuousClock.Instant?

    init(document: QueryDocument, folded: [QueryField: [FoldedText]], now: Date, budget: QueryBudget) {
        self.document = document
        self.folded = folded
        self.now = now
        self.budget = budget
    }

    mutating func outcome(of query: Query) -> QueryOutcome {
        switch query {
        case .all:
            return .match
        case .and(let parts):
            var unknown: QueryOutcome?
            for part in Self.cheapFirst(parts) {
                let result = outcome(of: part)
                switch result {
                case .noMatch: return .noMatch
                case .match: continue
                case .exceeded: unknown = unknown ?? result
                }
            }
            return unknown ?? .match
        case .or(let parts):
            var unknown: QueryOutcome?
            for part in Self.cheapFirst(parts) {
                let result = outcome(of: part)
                switch result {
                case .match: return .match
                case .noMatch: continue
                case .exceeded: unknown = unknown ?? result
                }
            }
            return unknown ?? .noMatch
        case .not(let part):
            switch outcome(of: part) {
            case .match: return .noMatch
            case .noMatch: return .match
            case .exceeded(let pattern): return .exceeded(pattern: pattern)
            }
        case .term(let field, let pattern):
            return outcome(of: pattern, in: field.map { [$0] } ?? Self.unfielded)
        case .state(.read):
            return document.isRead ? .match : .noMatch
        case .state(.unread):
            return document.isRead ? .noMatch : .match
        case .state(.starred):
            return document.isStarred ? .match : .noMatch
        case .state(.hidden):
            return document.isHidden ? .match : .noMatch
        case .date(let range):
            guard let published = document.published else { return .noMatch }
            return range.contains(published, now: now) ? .match : .noMatch
        }
    }

    /// Whether `pattern` occurs in any value of any of `fields`.
    private mutating func outcome(of pattern: QueryPattern, in fields: [QueryField]) -> QueryOutcome {
        switch pattern {
        case .word(let word):
            let needle = FoldedText(word, folder: &folder)
            for field in fields {
                // URLs are not word text; a word with no letters or digits is looked for as it is.
                let found = values(of: field).contains { text in
                    field == .url || needle.words.isEmpty
                        ? QueryTextMatch.contains(text, needle) : QueryTextMatch.hasWords(text, needle, lastIsPrefix: true)
                }
                if found { return .match }
            }
            return .noMatch
        case .phrase(let words):
            let needle = FoldedText(words.joined(separator: " "), folder: &folder)
            for field in fields where values(of: field).contains(where: { QueryTextMatch.hasWords($0, needle, lastIsPrefix: false) }) {
                return .match
            }
            return .noMatch
        case .regex(let regex):
            return outcome(of: regex, in: fields)
        }
    }

    /// The folded values of `field`, folded now if no term has needed them before.
    private mutating func values(of field: QueryField) -> [FoldedText] {
        if let known = folded[field] { return known }
        let values = document.values(of: field).map { FoldedText($0, folder: &folder) }
        folded[field] = values
        return values
    }

    /// Whether `regex` finds something in the raw values of `fields`, within the budget.
    private mutating func outcome(of regex: QueryRegex, in fields: [QueryField]) -> QueryOutcome {
        let deadline = self.deadline ?? ContinuousClock.now.advanced(by: budget.regexTimeLimit)
        self.deadline = deadline
        var exceeded = false
        for field in fields {
            for value in document.values(of: field) {
                switch regex.search(value, limit: budget.regexInputLimit, deadline: deadline) {
                case .found: return .match
                case .notFound: continue
                // Keep looking: another field may still match, which settles the answer.
                case .exceeded: exceeded = true
                }
            }
        }
        return exceeded ? .exceeded(pattern: regex.pattern) : .noMatch
    }

    /// `parts` cheapest first, in their written order otherwise.
    private static func cheapFirst(_ parts: [Query]) -> [Query] {
        parts.enumerated()
            .map { (cost: $0.element.cost, index: $0.offset, part: $0.element) }
            .sorted { ($0.cost, $0.index) < ($1.cost, $1.index) }
            .map(\.part)
    }
}
