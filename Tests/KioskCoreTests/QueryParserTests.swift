import Foundation
import Testing
@testable import KioskCore

/// A word term without a field.
private func w(_ word: String) -> Query { .term(field: nil, .word(word)) }

/// A phrase term without a field.
private func p(_ words: String...) -> Query { .term(field: nil, .phrase(words)) }

/// A field term with a word.
private func f(_ field: QueryField, _ word: String) -> Query { .term(field: field, .word(word)) }

/// A compiled pattern; the tests only pass valid ones.
private func rx(_ pattern: String) throws -> QueryRegex { try QueryRegex(pattern) }

private func day(_ year: Int, _ month: Int, _ day: Int) throws -> QueryDay {
    try #require(QueryDay(year: year, month: month, day: day))
}

/// The error `text` fails with, or nil when it parses.
private func failure(_ text: String) -> QueryError? {
    do {
        _ = try QueryParser.parse(text)
        return nil
    } catch {
        return error
    }
}

@Suite struct QueryParserTests {
    // MARK: Terms

    @Test func emptyAndBlankQueriesMatchEverything() throws {
        #expect(try QueryParser.parse("") == .all)
        #expect(try QueryParser.parse("  \t\n ") == .all)
    }

    @Test func wordsSideBySideAreAnd() throws {
        #expect(try QueryParser.parse("apple") == w("apple"))
        #expect(try QueryParser.parse("apple  Banana\tcafé") == .and([w("apple"), w("Banana"), w("café")]))
    }

    @Test func phrasesKeepTheirWordsAsTyped() throws {
        #expect(try QueryParser.parse("\"Climate  change\"") == p("Climate", "change"))
        #expect(try QueryParser.parse("\"l'été, enfin!\"") == p("l", "été", "enfin"))
        #expect(try QueryParser.parse("\"a\"\"b\"") == .and([p("a"), p("b")]))
        #expect(try QueryParser.parse("\"(not a group)\"") == p("not", "a", "group"))
    }

    @Test func quotesInsideWordsAreLiteral() throws {
        #expect(try QueryParser.parse("it\"s 5\"") == .and([w("it\"s"), w("5\"")]))
    }

    @Test func colonsThatAreNotFieldsStayInWords() throws {
        #expect(try QueryParser.parse("http://x.org/a") == w("http://x.org/a"))
        #expect(try QueryParser.parse("10:30") == w("10:30"))
        #expect(try QueryParser.parse("Re: news") == .and([w("Re:"), w("news")]))
        #expect(try QueryParser.parse("note: rate: late:") == .and([w("note:"), w("rate:"), w("late:")]))
        #expect(try QueryParser.parse("über:x") == w("über:x"))
        // Too short, or too far from a field's name, to be taken for a misspelt field.
        #expect(try QueryParser.parse("in:x it:x level:x") == .and([w("in:x"), w("it:x"), w("level:x")]))
    }

    @Test func regularExpressions() throws {
        #expect(try QueryParser.parse("/^\\[Sponsored\\]/") == .term(field: nil, .regex(try rx("^\\[Sponsored\\]"))))
        #expect(try QueryParser.parse("/a b (c)/") == .term(field: nil, .regex(try rx("a b (c)"))))
        #expect(try QueryParser.parse("/a\\/b/ x") == .and([.term(field: nil, .regex(try rx("a\\/b"))), w("x")]))
        #expect(try QueryParser.parse("(/x/)") == .term(field: nil, .regex(try rx("x"))))
        #expect(try QueryParser.parse("a/b") == w("a/b"))
    }

    // MARK: Operators

    @Test func minusNegatesEveryKindOfTerm() throws {
        #expect(try QueryParser.parse("-apple") == .not(w("apple")))
        #expect(try QueryParser.parse("-\"a b\"") == .not(p("a", "b")))
        #expect(try QueryParser.parse("-intitle:x") == .not(f(.title, "x")))
        #expect(try QueryParser.parse("-/ads?/") == .not(.term(field: nil, .regex(try rx("ads?")))))
        #expect(try QueryParser.parse("-(a OR b)") == .not(.or([w("a"), w("b")])))
        #expect(try QueryParser.parse("-is:read") == .not(.state(.read)))
        #expect(try QueryParser.parse("--a") == .not(.not(w("a"))))
        #expect(try QueryParser.parse("a-b e-mail") == .and([w("a-b"), w("e-mail")]))
    }

    @Test func orBindsTighterThanAnd() throws {
        #expect(try QueryParser.parse("a OR b") == .or([w("a"), w("b")]))
        #expect(try QueryParser.parse("a OR b OR c") == .or([w("a"), w("b"), w("c")]))
        #expect(try QueryParser.parse("a b OR c") == .and([w("a"), .or([w("b"), w("c")])]))
        #expect(try QueryParser.parse("a OR b c") == .and([.or([w("a"), w("b")]), w("c")]))
        #expect(try QueryParser.parse("(a b) OR c") == .or([.and([w("a"), w("b")]), w("c")]))
        #expect(try QueryParser.parse("-a OR b") == .or([.not(w("a")), w("b")]))
        #expect(try QueryParser.parse("a or b") == .and([w("a"), w("or"), w("b")]))
        #expect(try QueryParser.parse("a Or b") == .and([w("a"), w("Or"), w("b")]))
    }

    @Test func parenthesesGroup() throws {
        #expect(try QueryParser.parse("(a)") == w("a"))
        #expect(try QueryParser.parse("((a))") == w("a"))
        #expect(try QueryParser.parse("(a b) c") == .and([.and([w("a"), w("b")]), w("c")]))
        #expect(try QueryParser.parse("x(a OR b)") == .and([w("x"), .or([w("a"), w("b")])]))
        #expect(try QueryParser.parse("(a OR (b c)) -d") == .and([.or([w("a"), .and([w("b"), w("c")])]), .not(w("d"))]))
    }

    // MARK: Fields

    @Test func everyTextFieldTakesAWordAPhraseOrARegex() throws {
        for field in QueryField.allCases {
            #expect(try QueryParser.parse("\(field.name):Econ") == f(field, "Econ"))
            #expect(try QueryParser.parse("\(field.name):/^x$/") == .term(field: field, .regex(try rx("^x$"))))
            if field != .url {
                #expect(try QueryParser.parse("\(field.name):\"two words\"") == .term(field: field, .phrase(["two", "words"])))
            }
        }
        #expect(try QueryParser.parse("intitle:/^\\[Sponsored\\]/") == .term(field: .title, .regex(try rx("^\\[Sponsored\\]"))))
    }

    @Test func fieldNamesIgnoreCaseAndValuesKeepIt() throws {
        #expect(try QueryParser.parse("InTitle:Apple AUTHOR:x") == .and([f(.title, "Apple"), f(.author, "x")]))
    }

    @Test func inurlTakesQuotedTextLiterally() throws {
        #expect(try QueryParser.parse("inurl:\"/2026/11 (a)\"") == f(.url, "/2026/11 (a)"))
        #expect(try QueryParser.parse("inurl:example.com/news?id=3") == f(.url, "example.com/news?id=3"))
    }

    @Test func fieldWordsEndAtSpacesAndParentheses() throws {
        #expect(try QueryParser.parse("(intitle:a OR feed:b)") == .or([f(.title, "a"), f(.feed, "b")]))
        #expect(try QueryParser.parse("label:-x") == f(.label, "-x"))
    }

    @Test func states() throws {
        #expect(try QueryParser.parse("is:unread") == .state(.unread))
        #expect(try QueryParser.parse("is:read") == .state(.read))
        #expect(try QueryParser.parse("IS:Starred") == .state(.starred))
    }

    @Test func relativeDates() throws {
        #expect(try QueryParser.parse("date:P7D") == .date(.last(QueryDuration(days: 7))))
        #expect(try QueryParser.parse("date:p2w") == .date(.last(QueryDuration(weeks: 2))))
        #expect(try QueryParser.parse("date:P1M") == .date(.last(QueryDuration(months: 1))))
        #expect(try QueryParser.parse("date:P1Y") == .date(.last(QueryDuration(years: 1))))
        #expect(try QueryParser.parse("date:PT12H") == .date(.last(QueryDuration(hours: 12))))
        #expect(try QueryParser.parse("date:PT30M") == .date(.last(QueryDuration(minutes: 30))))
        #expect(try QueryParser.parse("date:P1DT12H") == .date(.last(QueryDuration(days: 1, hours: 12))))
        #expect(
            try QueryParser.parse("date:P1Y2M3W4DT5H6M7S")
                == .date(.last(QueryDuration(years: 1, months: 2, weeks: 3, days: 4, hours: 5, minutes: 6, seconds: 7))))
    }

    @Test func absoluteDates() throws {
        let first = try day(2026, 11, 1)
        let last = try day(2026, 11, 20)
        #expect(try QueryParser.parse("date:2026-11-01/2026-11-20") == .date(.days(from: first, through: last)))
        #expect(try QueryParser.parse("date:2026-11-01/") == .date(.days(from: first, through: nil)))
        #expect(try QueryParser.parse("date:/2026-11-20") == .date(.days(from: nil, through: last)))
        #expect(try QueryParser.parse("date:2026-11-01") == .date(.days(from: first, through: first)))
        #expect(try QueryParser.parse("date:2024-02-29/2024-02-29") == .date(.days(from: try day(2024, 2, 29), through: try day(2024, 2, 29))))
    }

    // MARK: Errors

    @Test(arguments: [
        ("intitle:\"abc", 9, QueryError.Reason.unclosedQuote, "closing quote missing after position 9"),
        ("news \"climate change", 6, .unclosedQuote, "closing quote missing after position 6"),
        ("(a OR b", 1, .unclosedParenthesis, "closing parenthesis missing for “(” at position 1"),
        ("a ((b) c", 3, .unclosedParenthesis, "closing parenthesis missing for “(” at position 3"),
        ("a OR b) c", 7, .unopenedParenthesis, "“)” at position 7 has no opening parenthesis"),
        ("a () b", 3, .emptyParentheses, "nothing between “(” at position 3 and its “)”"),
        ("titel:x", 1, .unknownField(name: "titel", suggestion: "intitle"), "unknown field “titel:” at position 1 (did you mean intitle:?)"),
        ("a Auther:x", 3, .unknownField(name: "Auther", suggestion: "author"), "unknown field “Auther:” at position 3 (did you mean author:?)"),
        ("url:x", 1, .unknownField(name: "url", suggestion: "inurl"), "unknown field “url:” at position 1 (did you mean inurl:?)"),
        ("tag:x", 1, .unknownField(name: "tag", suggestion: "label"), "unknown field “tag:” at position 1 (did you mean label:?)"),
        ("feeds:x", 1, .unknownField(name: "feeds", suggestion: "feed"), "unknown field “feeds:” at position 1 (did you mean feed:?)"),
        ("dat:P7D", 1, .unknownField(name: "dat", suggestion: "date"), "unknown field “dat:” at position 1 (did you mean date:?)"),
        ("intitle: x", 1, .missingValue(field: "intitle"), "intitle: at position 1 needs a word, a “phrase” or a /regular expression/ right after the colon"),
        ("a author:", 3, .missingValue(field: "author"), "author: at position 3 needs a word, a “phrase” or a /regular expression/ right after the colon"),
        ("is:unseen", 1, .invalidState, "is: at position 1 takes unread, read, starred or hidden"),
        ("is:", 1, .invalidState, "is: at position 1 takes unread, read, starred or hidden"),
        ("date:7D", 1, .invalidDate, "date: at position 1 takes P7D, 2026-11-01, 2026-11-01/2026-11-20, 2026-11-01/ or /2026-11-20"),
        ("date:P", 1, .invalidDate, "date: at position 1 takes P7D, 2026-11-01, 2026-11-01/2026-11-20, 2026-11-01/ or /2026-11-20"),
        ("date:PT", 1, .invalidDate, "date: at position 1 takes P7D, 2026-11-01, 2026-11-01/2026-11-20, 2026-11-01/ or /2026-11-20"),
        ("date:P1DT", 1, .invalidDate, "date: at position 1 takes P7D, 2026-11-01, 2026-11-01/2026-11-20, 2026-11-01/ or /2026-11-20"),
        ("date:P7D1Y", 1, .invalidDate, "date: at position 1 takes P7D, 2026-11-01, 2026-11-01/2026-11-20, 2026-11-01/ or /2026-11-20"),
        ("date:P1234567D", 1, .invalidDate, "date: at position 1 takes P7D, 2026-11-01, 2026-11-01/2026-11-20, 2026-11-01/ or /2026-11-20"),
        ("date:/", 1, .invalidDate, "date: at position 1 takes P7D, 2026-11-01, 2026-11-01/2026-11-20, 2026-11-01/ or /2026-11-20"),
        ("date:2026-02-30", 1, .invalidDate, "date: at position 1 takes P7D, 2026-11-01, 2026-11-01/2026-11-20, 2026-11-01/ or /2026-11-20"),
        ("date:2026-1-01/", 1, .invalidDate, "date: at position 1 takes P7D, 2026-11-01, 2026-11-01/2026-11-20, 2026-11-01/ or /2026-11-20"),
        ("date:2026-11-01/x", 1, .invalidDate, "date: at position 1 takes P7D, 2026-11-01, 2026-11-01/2026-11-20, 2026-11-01/ or /2026-11-20"),
        ("x date:2026-11-20/2026-11-01", 3, .reversedDateRange, "date: at position 3 ends before it starts"),
        ("OR a", 1, .danglingOr, "OR at position 1 needs something on both sides"),
        ("a OR", 3, .danglingOr, "OR at position 3 needs something on both sides"),
        ("a OR OR b", 3, .danglingOr, "OR at position 3 needs something on both sides"),
        ("(a OR) b", 4, .danglingOr, "OR at position 4 needs something on both sides"),
        ("a (OR b)", 4, .danglingOr, "OR at position 4 needs something on both sides"),
        ("a b - c", 5, .danglingMinus, "nothing after “-” at position 5"),
        ("abc -", 5, .danglingMinus, "nothing after “-” at position 5"),
        ("(a -)", 4, .danglingMinus, "nothing after “-” at position 4"),
        ("-OR a", 1, .danglingMinus, "nothing after “-” at position 1"),
        ("a \"\"", 3, .emptyPhrase, "the phrase at position 3 has no letters or digits"),
        ("\"...\"", 1, .emptyPhrase, "the phrase at position 1 has no letters or digits"),
        ("inurl:\"\"", 7, .emptyPhrase, "the phrase at position 7 has no letters or digits"),
        ("a //", 3, .emptyRegex, "regular expression at position 3 is empty"),
        ("a /abc", 3, .unclosedRegex, "closing “/” missing for the regular expression at position 3"),
        ("/abc\\/", 1, .unclosedRegex, "closing “/” missing for the regular expression at position 1"),
        ("/usr/bin", 1, .textAfterRegex, "regular expression at position 1 needs a space after its closing “/”"),
        ("x /a(b/", 3, .regexDoesNotCompile("expected ')'"), "regular expression at position 3 does not compile: expected ')'"),
    ])
    func errorsSayWhatAndWhere(text: String, position: Int, reason: QueryError.Reason, message: String) {
        let error = failure(text)
        #expect(error?.position == position, "\(text)")
        #expect(error?.reason == reason, "\(text)")
        #expect(error?.description == message, "\(text)")
    }

    @Test func positionsCountCharactersNotBytes() {
        // "é" is two UTF-8 bytes and "👍🏽" eight, but one character each.
        #expect(failure("café 👍🏽 \"x")?.position == 8)
    }

    @Test func theFirstFaultInTheTextIsReported() {
        #expect(failure(") \"abc")?.reason == .unopenedParenthesis)
        #expect(failure("\"abc )")?.reason == .unclosedQuote)
    }

    @Test func deepNestingIsRefusedNotOverflowed() {
        let deep = String(repeating: "(", count: 10_000) + "a" + String(repeating: ")", count: 10_000)
        #expect(failure(deep)?.reason == .nestedTooDeeply)
        #expect(failure(String(repeating: "-", count: 10_000) + "a")?.reason == .nestedTooDeeply)
        let fine = String(repeating: "(", count: 50) + "a" + String(repeating: ")", count: 50)
        #expect(failure(fine) == nil)
    }

    // MARK: Writing back

    @Test(arguments: [
        "",
        "apple",
        "a b c",
        "a b OR c",
        "(a b) OR c",
        "a OR (b OR c)",
        "a (b c)",
        "-a -\"b c\" -(d OR e) --f",
        "-(a b)",
        "\"climate change\" intitle:\"cop 30\"",
        "intitle:/^\\[Sponsored\\]/ -author:bot",
        "/a\\/b/",
        "inurl:\"/2026/\" inurl:example.com inurl:\"a b\"",
        "feed:Verge folder:Tech label:later content:econ",
        "is:unread is:read is:starred",
        "date:P7D date:P1DT12H date:PT30M",
        "date:2026-11-01/2026-11-20 date:2026-11-01/ date:/2026-11-20 date:2026-11-01",
        "http://x.org 10:30 it\"s",
    ])
    func canonicalTextParsesBackToTheSameQuery(text: String) throws {
        let query = try QueryParser.parse(text)
        #expect(query.description == text)
        #expect(try QueryParser.parse(query.description) == query)
    }

    @Test func descriptionNormalizesSpelling() throws {
        #expect(try QueryParser.parse("  a   OR\tb ").description == "a OR b")
        #expect(try QueryParser.parse("INTITLE:X Is:STARRED date:p7d").description == "intitle:X is:starred date:P7D")
        #expect(try QueryParser.parse("((a)) (b OR c)").description == "a b OR c")
        #expect(try QueryParser.parse("\"  a,b \"").description == "\"a b\"")
        #expect(try QueryParser.parse("date:2026-11-01/2026-11-01").description == "date:2026-11-01")
    }

    @Test func programmaticPatternsAreEscapedWhenWritten() throws {
        let query = Query.term(field: nil, .regex(try rx("a/b")))
        #expect(query.description == "/a\\/b/")
        #expect(try QueryParser.parse(query.description) == .term(field: nil, .regex(try rx("a\\/b"))))
    }
}
