import Foundation
import Testing
@testable import KioskCore

private let now = Date(timeIntervalSince1970: 1_795_176_000)

/// A megabyte of "a" then a "b": `(a+)+$` backtracks exponentially on it.
private let megabyteOfA = String(repeating: "a", count: 1_000_000) + "b"

/// The outcome of `text` against `document`. Tests compare outcomes, not documents, so a
/// failure does not print a megabyte.
private func outcome(_ text: String, _ document: QueryDocument, budget: QueryBudget = .standard) throws -> QueryOutcome {
    try QueryParser.parse(text).evaluate(document, now: now, budget: budget)
}

/// How long `body` takes, in seconds.
private func seconds(_ body: () -> Void) -> Double {
    let elapsed = ContinuousClock().measure(body)
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

@Suite struct QueryRegexTests {
    // MARK: Refused when parsed

    @Test func patternsUpTo500CharactersAreAccepted() throws {
        let longest = String(repeating: "a", count: 500)
        #expect(try QueryParser.parse("/\(longest)/") == .term(field: nil, .regex(try QueryRegex(longest))))
        // Characters count, not bytes.
        _ = try QueryRegex(String(repeating: "é", count: 500))
    }

    @Test func longerPatternsAreRefused() {
        let text = "news intitle:/\(String(repeating: "a", count: 501))/"
        #expect(throws: QueryError(position: 14, reason: .regexTooLong)) { try QueryParser.parse(text) }
        #expect(
            QueryError(position: 14, reason: .regexTooLong).description
                == "regular expression at position 14 is longer than 500 characters")
    }

    @Test func patternsThatDoNotCompileSayWhy() {
        #expect(throws: QueryError(position: 6, reason: .regexDoesNotCompile("quantifier '*' must appear after expression"))) {
            try QueryParser.parse("spam /*ads/")
        }
        #expect(throws: QueryError(position: 1, reason: .regexDoesNotCompile("expected ']'"))) {
            try QueryRegex("[abc")
        }
    }

    // MARK: Bounded when run

    @Test func aCatastrophicPatternOnAMegabyteEndsExceeded() throws {
        let query = try QueryParser.parse("content:/(a+)+$/")
        let document = QueryDocument(content: megabyteOfA)
        var result = QueryOutcome.match
        let elapsed = seconds { result = query.evaluate(document, now: now) }
        #expect(result == .exceeded(pattern: "(a+)+$"))
        #expect(elapsed < 2)
        let matched = query.matches(document, now: now)
        #expect(!matched)
    }

    @Test func theCutAtTheInputLimitIsNotTheEndOfTheText() throws {
        // Only the first 64 KiB are searched, and "$" must not match where they end.
        let long = QueryDocument(content: String(repeating: "a", count: 100_000) + "b")
        let roomy = QueryBudget(regexInputLimit: 65_536, regexTimeLimit: .seconds(1))
        let anchored = try outcome("/a$/", long, budget: roomy)
        #expect(anchored == .noMatch)
        let fast = QueryBudget(regexInputLimit: 65_536, regexTimeLimit: .milliseconds(20))
        let catastrophic = try outcome("/(a+)+$/", long, budget: fast)
        #expect(catastrophic == .exceeded(pattern: "(a+)+$"))
        // A word boundary at the cut sees the next character too.
        let boundary = try outcome("/a\\b/", long, budget: roomy)
        #expect(boundary == .noMatch)
        let short = try outcome("/a$/", QueryDocument(content: "baa"))
        #expect(short == .match)
    }

    @Test func theBudgetStopsBacktrackingInsideOneMatchAttempt() throws {
        // Only 30 characters, but the six stars make one attempt take hundreds of milliseconds:
        // capping the input alone would not bound this.
        let query = try QueryParser.parse("/a*a*a*a*a*a*b/")
        let document = QueryDocument(content: String(repeating: "a", count: 30))
        let budget = QueryBudget(regexInputLimit: 65_536, regexTimeLimit: .milliseconds(10))
        var result = QueryOutcome.match
        let elapsed = seconds { result = query.evaluate(document, now: now, budget: budget) }
        #expect(result == .exceeded(pattern: "a*a*a*a*a*a*b"))
        #expect(elapsed < 2)
    }

    @Test func theEnginesOwnLimitCountsAsExceeded() throws {
        // With the whole megabyte allowed in, ICU runs out of backtracking stack before the
        // deadline: that is an unknown answer, not "no match".
        let budget = QueryBudget(regexInputLimit: 2_000_000, regexTimeLimit: .seconds(1))
        let result = try outcome("/(a+)+$/", QueryDocument(content: megabyteOfA), budget: budget)
        #expect(result == .exceeded(pattern: "(a+)+$"))
    }

    @Test func aNegatedExceededPatternIsStillExceeded() throws {
        let document = QueryDocument(title: "aaaa", content: megabyteOfA)
        let negated = try outcome("-content:/(a+)+$/", document)
        #expect(negated == .exceeded(pattern: "(a+)+$"))
        let negatedGroup = try outcome("-(x OR content:/(a+)+$/)", document)
        #expect(negatedGroup == .exceeded(pattern: "(a+)+$"))
        let matched = try QueryParser.parse("-content:/(a+)+$/").matches(document, now: now)
        #expect(!matched)
    }

    @Test func aKnownAnswerElsewhereSettlesTheQuery() throws {
        let document = QueryDocument(title: "apple", content: megabyteOfA)
        // AND with a part that fails is a failure; the regex then need not even run.
        let and = try outcome("content:/(a+)+$/ pear", document)
        #expect(and == .noMatch)
        // OR with a part that matches is a match.
        let or = try outcome("content:/(a+)+$/ OR apple", document)
        #expect(or == .match)
        // Otherwise the answer is unknown.
        let unknownAnd = try outcome("content:/(a+)+$/ apple", document)
        #expect(unknownAnd == .exceeded(pattern: "(a+)+$"))
        let unknownOr = try outcome("content:/(a+)+$/ OR pear", document)
        #expect(unknownOr == .exceeded(pattern: "(a+)+$"))
    }

    @Test func anotherFieldCanStillMatchAfterOneGaveUp() throws {
        // The title (searched first) exhausts ICU's stack, with time to spare for the content.
        let document = QueryDocument(title: megabyteOfA, content: "aaa")
        let budget = QueryBudget(regexInputLimit: 2_000_000, regexTimeLimit: .seconds(1))
        let result = try outcome("/^(a+)+$/", document, budget: budget)
        #expect(result == .match)
    }

    @Test func patternsSeeOnlyTheStartOfALongField() throws {
        let document = QueryDocument(content: String(repeating: "x ", count: 40_000) + "needle")
        let capped = try outcome("/needle/", document)
        #expect(capped == .noMatch)
        let roomy = try outcome("/needle/", document, budget: QueryBudget(regexInputLimit: 100_000, regexTimeLimit: .seconds(1)))
        #expect(roomy == .match)
        // Words are not capped: the whole entry is searched.
        let word = try outcome("needle", document)
        #expect(word == .match)
    }

    @Test func anOrdinaryPatternOnALongEntryFinishesWellInsideTheBudget() throws {
        let query = try QueryParser.parse("/\\bconsectetur\\b/")
        let document = QueryDocument(content: String(repeating: "lorem ipsum dolor sit amet ", count: 40_000))
        let budget = QueryBudget(regexInputLimit: 65_536, regexTimeLimit: .seconds(1))
        var result = QueryOutcome.match
        let elapsed = seconds { result = query.evaluate(document, now: now, budget: budget) }
        #expect(result == .noMatch)
        #expect(elapsed < 0.5)
    }
}
