import Foundation
import Testing
@testable import KioskCore

/// 2026-11-20 12:00:00 UTC, the "now" of every date test.
private let now = Date(timeIntervalSince1970: 1_795_176_000)
private let hour: TimeInterval = 3_600
private let day: TimeInterval = 86_400

private let entry = QueryDocument(
    title: "Economy: Café prices rise in Zürich",
    author: "Anna Müller",
    url: "https://News.example.com/2026/11/Economy-Cafe?id=42",
    content: "The climate change summit ended. E-mail newsletters, Straße names and ﬁnance follow.",
    feed: "The Verge",
    folders: ["Tech News", "Daily"],
    labels: ["Read later", "Work"],
    isRead: false,
    isStarred: true,
    published: now.addingTimeInterval(-3 * day)
)

/// A budget no test here comes near, so a busy machine cannot turn a match into `.exceeded`;
/// QueryRegexTests tests the budget itself.
private let roomy = QueryBudget(regexInputLimit: 65_536, regexTimeLimit: .seconds(10))

/// Whether `text` parses and matches `document`.
private func matches(_ text: String, _ document: QueryDocument = entry, at instant: Date = now) throws -> Bool {
    try QueryParser.parse(text).matches(document, now: instant, budget: roomy)
}

/// `entry` published at `date`.
private func published(_ date: Date?) -> QueryDocument {
    var document = entry
    document.published = date
    return document
}

@Suite struct QueryEvaluatorTests {
    @Test func theEmptyQueryMatchesEverything() throws {
        #expect(try matches(""))
        #expect(try matches("", QueryDocument()))
    }

    // MARK: Words

    @Test func foldsCaseAndAccents() throws {
        #expect(try matches("cafe"))
        #expect(try matches("CAFÉ"))
        #expect(try matches("zurich author:muller"))
        #expect(try matches("ZÜRICH"))
        #expect(try matches("\"cafe au lait\"", QueryDocument(title: "Cafe\u{301} au lait")))  // a combining accent
        #expect(try matches("istanbul", QueryDocument(title: "İSTANBUL")))
        #expect(try matches("café", QueryDocument(title: "CAFE")))
        #expect(try matches("finance"))  // the "ﬁ" ligature
        #expect(try matches("straße"))
        #expect(try matches("ｃａｆｅ"))  // full-width letters in the query
    }

    @Test func wordsMatchAsPrefixesOfWords() throws {
        #expect(try matches("econ"))
        #expect(try matches("Econ pric"))
        #expect(try !matches("conomy"))
        #expect(try !matches("economyx"))
    }

    @Test func allWordsMustMatch() throws {
        #expect(try matches("economy climate"))
        #expect(try !matches("economy football"))
    }

    /// The content's parts (summary, content, article) are values of their own: a phrase does
    /// not run from one into the next, as the full-text index (which holds them apart) never
    /// finds it; words still match anywhere.
    @Test func aPhraseDoesNotRunFromOnePartOfTheContentIntoTheNext() throws {
        let parts = QueryDocument(content: ["The summit ended", "climate talks went on"].joined(separator: String(QueryDocument.partSeparator)))
        #expect(try !matches("\"ended climate\"", parts))
        #expect(try matches("\"ended\" \"climate talks\"", parts))
        #expect(try matches("ended climate", parts))
    }

    @Test func wordsWithPunctuationMatchTheirPartsInOrder() throws {
        #expect(try matches("e-mail"))
        #expect(try matches("E-MAIL"))
        #expect(try matches("e-mail", QueryDocument(content: "email? no: e mails")))
        #expect(try !matches("mail-e"))
        #expect(try matches("C++", QueryDocument(content: "Learning C++ today")))
        #expect(try matches("+++", QueryDocument(content: "a+++b")))
        #expect(try !matches("+++", QueryDocument(content: "a++b")))
    }

    @Test func phrasesNeedWholeWordsInOrder() throws {
        #expect(try matches("\"climate change\""))
        #expect(try matches("\"CLIMATE, change!\""))
        #expect(try !matches("\"change climate\""))
        #expect(try !matches("\"climate chan\""))  // every word of a phrase is whole, the last too
        #expect(try !matches("\"econ\""))
        #expect(try matches("\"economy\""))
        #expect(try matches("\"prices rise in zurich\""))
    }

    @Test func aPhraseDoesNotSpanFields() throws {
        // The title ends "Zürich" and the author starts "Anna".
        #expect(try !matches("\"zurich anna\""))
    }

    @Test func unfieldedTermsSearchTitleAndContentOnly() throws {
        #expect(try matches("prices"))  // title
        #expect(try matches("summit"))  // content
        #expect(try !matches("anna"))  // author: as the full-text indexes, which hold no authors
        #expect(try !matches("verge"))  // feed
        #expect(try !matches("tech"))  // folder
        #expect(try !matches("later"))  // label
        #expect(try !matches("example"))  // URL
    }

    // MARK: Operators

    @Test func minusExcludes() throws {
        #expect(try !matches("-economy"))
        #expect(try matches("-football"))
        #expect(try !matches("economy -\"climate change\""))
        #expect(try matches("economy -\"change climate\""))
        #expect(try matches("--economy"))
        #expect(try !matches("-(football OR economy)"))
    }

    @Test func orBindsTighterThanAnd() throws {
        let document = QueryDocument(title: "apple")
        // a b OR c means a AND (b OR c): with only "apple", "x apple OR y" must not match.
        #expect(try !matches("pear apple OR cherry", document))
        #expect(try matches("pear OR apple cherry OR apple", document))
        // With the other reading, (pear apple) OR apple, it would.
        #expect(try matches("(pear apple) OR apple", document))
        #expect(try matches("or", QueryDocument(title: "or else")))
    }

    // MARK: Fields

    @Test func titleAuthorAndContentFields() throws {
        #expect(try matches("intitle:cafe"))
        #expect(try !matches("intitle:summit"))
        #expect(try matches("content:summit"))
        #expect(try !matches("content:economy"))
        #expect(try matches("author:muller"))
        #expect(try matches("author:\"anna muller\""))
        #expect(try !matches("author:economy"))
    }

    @Test func inurlMatchesAnyPartOfTheURL() throws {
        #expect(try matches("inurl:example.com/2026"))
        #expect(try matches("inurl:NEWS.EXAMPLE"))
        #expect(try matches("inurl:omy-caf"))  // inside a word
        #expect(try matches("inurl:\"id=42\""))
        #expect(try !matches("inurl:\"/2025/\""))
        #expect(try !matches("inurl:climate"))
    }

    @Test func feedFolderAndLabelMatchTheirNames() throws {
        #expect(try matches("feed:verge"))
        #expect(try matches("feed:\"the verge\""))
        #expect(try !matches("feed:news"))
        #expect(try matches("folder:tech"))
        #expect(try matches("folder:daily"))
        #expect(try matches("folder:\"tech news\""))
        #expect(try !matches("folder:\"news daily\""))  // one folder's name, not two joined
        #expect(try matches("label:work label:later"))
        #expect(try !matches("label:tech"))
    }

    @Test func states() throws {
        #expect(try matches("is:unread"))
        #expect(try !matches("is:read"))
        #expect(try matches("is:starred"))
        var read = entry
        read.isRead = true
        read.isStarred = false
        #expect(try matches("is:read", read))
        #expect(try !matches("is:unread", read))
        #expect(try !matches("is:starred", read))
        #expect(try matches("-is:starred", read))
        #expect(try !matches("is:hidden", read))
        read.isHidden = true
        #expect(try matches("is:hidden is:read", read))
    }

    // MARK: Dates

    @Test func relativeDatesCountBackFromNow() throws {
        #expect(try matches("date:P7D"))
        #expect(try !matches("date:P2D"))
        #expect(try matches("date:P3D", published(now.addingTimeInterval(-3 * day))))
        #expect(try !matches("date:P3D", published(now.addingTimeInterval(-3 * day - 1))))
        #expect(try matches("date:PT12H", published(now.addingTimeInterval(-12 * hour))))
        #expect(try !matches("date:PT12H", published(now.addingTimeInterval(-12 * hour - 1))))
        #expect(try matches("date:P1DT12H", published(now.addingTimeInterval(-36 * hour))))
        #expect(try !matches("date:PT30M", published(now.addingTimeInterval(-31 * 60))))
        #expect(try matches("date:P1W", published(now.addingTimeInterval(-7 * day))))
        #expect(try !matches("date:P1W", published(now.addingTimeInterval(-7 * day - 1))))
        // The same entry, judged a week later.
        #expect(try !matches("date:P7D", entry, at: now.addingTimeInterval(7 * day)))
    }

    @Test func futureDatedEntriesCountAsRecent() throws {
        #expect(try matches("date:P1D", published(now.addingTimeInterval(hour))))
    }

    @Test func monthsAndYearsFollowTheCalendar() throws {
        // 2026-03-31 12:00 UTC: a month earlier is 2026-02-28 12:00 (no 31 February).
        let endOfMarch = Date(timeIntervalSince1970: 1_774_958_400)
        let lastOfFebruary = Date(timeIntervalSince1970: 1_772_280_000)
        #expect(QueryDuration(months: 1).start(before: endOfMarch) == lastOfFebruary)
        #expect(try matches("date:P1M", published(lastOfFebruary), at: endOfMarch))
        #expect(try !matches("date:P1M", published(lastOfFebruary.addingTimeInterval(-1)), at: endOfMarch))
        // 2024-02-29 minus a year is 2023-02-28; minus 14 months is 2022-12-29.
        let leapDay = Date(timeIntervalSince1970: 1_709_164_800)
        #expect(QueryDuration(years: 1).start(before: leapDay) == Date(timeIntervalSince1970: 1_677_542_400))
        #expect(QueryDuration(years: 1, months: 2).start(before: leapDay) == Date(timeIntervalSince1970: 1_672_272_000))
        // Out-of-range parts are clamped rather than trapping in the arithmetic.
        #expect(QueryDuration(days: -5) == QueryDuration())
        #expect(QueryDuration(years: .max).years == 999_999)
        _ = QueryDuration(years: .max, weeks: .max, seconds: .max).start(before: leapDay)
    }

    @Test func absoluteRangesIncludeWholeDaysInUTC() throws {
        let first = Date(timeIntervalSince1970: 1_793_491_200)  // 2026-11-01 00:00:00 UTC
        let afterLast = Date(timeIntervalSince1970: 1_795_219_200)  // 2026-11-21 00:00:00 UTC
        let range = "date:2026-11-01/2026-11-20"
        #expect(try matches(range, published(first)))
        #expect(try !matches(range, published(first.addingTimeInterval(-1))))
        #expect(try matches(range, published(afterLast.addingTimeInterval(-1))))
        #expect(try !matches(range, published(afterLast)))
        #expect(try matches("date:2026-11-01/", published(afterLast.addingTimeInterval(365 * day))))
        #expect(try !matches("date:2026-11-01/", published(first.addingTimeInterval(-1))))
        #expect(try matches("date:/2026-11-20", published(Date(timeIntervalSince1970: 0))))
        #expect(try !matches("date:/2026-11-20", published(afterLast)))
        #expect(try matches("date:2026-11-20", published(afterLast.addingTimeInterval(-day))))
        #expect(try !matches("date:2026-11-20", published(afterLast)))
    }

    @Test func entriesWithoutADateMatchNoDateTerm() throws {
        let undated = published(nil)
        #expect(try !matches("date:P100Y", undated))
        #expect(try !matches("date:/2999-12-31", undated))
        #expect(try matches("-date:P7D", undated))
    }

    // MARK: Regular expressions

    @Test func regularExpressionsRunOnRawTextIgnoringCase() throws {
        let sponsored = QueryDocument(title: "[Sponsored] Buy now", content: "Nothing to see")
        #expect(try matches("intitle:/^\\[sponsored\\]/", sponsored))
        #expect(try !matches("intitle:/^\\[Sponsored\\]/"))
        #expect(try !matches("content:/^\\[Sponsored\\]/", sponsored))
        #expect(try matches("/z.rich/"))  // "ü" is a character of the raw title
        #expect(try !matches("/zurich/"))  // accents count in patterns
        #expect(try matches("/see$/", sponsored))  // unfielded: the content
        #expect(try matches("inurl:/\\?id=\\d+$/"))
        #expect(try matches("folder:/^daily$/"))
        #expect(try !matches("folder:/^tech$/"))
        #expect(try matches("-/football/ economy"))
    }

    // MARK: Sharing folded documents

    @Test func aFoldedDocumentServesManyQueries() throws {
        let folded = FoldedDocument(entry)
        for text in ["cafe", "-economy", "feed:verge folder:daily", "inurl:example", "\"climate change\"", "/z.rich/"] {
            let query = try QueryParser.parse(text)
            #expect(query.evaluate(folded, now: now, budget: roomy) == query.evaluate(entry, now: now, budget: roomy), "\(text)")
        }
    }

    @Test func cheapPartsRunFirst() throws {
        #expect(try QueryParser.parse("is:read").cost == 0)
        #expect(try QueryParser.parse("-(date:P7D OR is:starred)").cost == 0)
        #expect(try QueryParser.parse("econ is:read").cost == 1)
        #expect(try QueryParser.parse("-(x OR /y/)").cost == 2)
        // The regular expression would run out of budget; the state part settles the answer first.
        var document = QueryDocument(content: String(repeating: "a", count: 30))
        document.isRead = true
        let result = try QueryParser.parse("/a*a*a*a*a*a*b/ is:unread").evaluate(document, now: now)
        #expect(result == .noMatch)
    }
}
