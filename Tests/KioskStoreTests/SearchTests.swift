import Foundation
import KioskCore
import KioskModel
import KioskSources
import KioskStore
import Testing

/// Full-text search over titles and the plain text of HTML summaries.
@Suite struct SearchTests {
    private func populated(_ kind: StoreKind, _ body: (any KioskStore) async throws -> Void) async throws {
        try await withStore(kind) { store in
            let business = [
                Fixtures.entry("rates", title: "Central bank holds rates", summary: "<p>The <b>decision</b> surprised&nbsp;markets.</p>"),
                Fixtures.entry("oil", title: "Oil prices climb", summary: "Supply <a href=\"https://x\">worries</a> in Europe"),
            ]
            let environment = [
                Fixtures.entry("reef", title: "Coral reef recovers", summary: "<div>Scientists report <i>résilience</i></div>"),
            ]
            try await store.saveSourceState(SourceState(entries: business), for: "business")
            try await store.saveSourceState(SourceState(entries: environment), for: "environment")
            try await body(store)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aWordOfTheHTMLSummaryFindsItsEntry(_ kind: StoreKind) async throws {
        try await populated(kind) { store async throws in
            let hits = try await store.search("surprised", limit: 10, user: nil)
            #expect(hits.map(\.entry.id) == ["rates"])
            #expect(hits.first?.source == "business")
            // Markup is not text: neither a tag name nor an attribute is found.
            #expect(try await store.search("href", limit: 10, user: nil).isEmpty)
            #expect(try await store.search("nbsp", limit: 10, user: nil).isEmpty)
        }
    }

    /// Phrases and `intitle:` narrow in the index where it knows word positions and columns
    /// (SQLite's FTS5); elsewhere by their words. Either way, never fewer than the matches.
    @Test(arguments: StoreKind.allCases)
    func phrasesAndTitleTermsNarrowWhereTheIndexCan(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            try await store.saveSourceState(
                SourceState(entries: [
                    Fixtures.entry("p1", title: "Storm hits the coast", summary: "Ferries stop."),
                    Fixtures.entry("p2", title: "The coast hits back", summary: "After the storm."),
                    Fixtures.entry("p3", title: "Ferries", summary: "A storm hits the harbour, and the coast."),
                ]), for: "wire")
            let phrase = [SearchTerm(words: ["storm", "hits"], isPhrase: true)]
            let inTitle = [SearchTerm(words: ["storm"], inTitle: true), SearchTerm(words: ["coast"])]
            for order in [SearchOrder.relevance, .newest] {
                let byPhrase = Set(try await store.search(phrase, limit: 10, user: nil, order: order).map(\.entry.id))
                let byTitle = Set(try await store.search(inTitle, limit: 10, user: nil, order: order).map(\.entry.id))
                #expect(byPhrase.isSuperset(of: ["p1", "p3"]) && byTitle.contains("p1"))
                if kind == .sqlite {
                    #expect(byPhrase == ["p1", "p3"] && byTitle == ["p1"], "\(order)")
                }
            }
            // Syntax in the words is never syntax to the index.
            let odd = [SearchTerm(words: ["\"storm", "NEAR(", "*"], isPhrase: true, inTitle: true)]
            _ = try await store.search(odd, limit: 10, user: nil, order: .relevance)
        }
    }

    /// A saved search's order: the newest received first, unranked, the article's words included,
    /// only followed feeds, the limit keeping the newest.
    @Test(arguments: StoreKind.allCases)
    func theNewestOrderGivesTheNewestMatchesFirst(_ kind: StoreKind) async throws {
        try await withStore(kind, following: ["wire"]) { store in
            for round in 1...4 {
                // Each save brings one newer entry; "storm" in every title.
                let entries = (1...round).reversed().map { Fixtures.entry("s\($0)", title: "Storm number \($0)") }
                try await store.saveSourceState(SourceState(entries: entries), for: "wire")
            }
            try await store.saveSourceState(SourceState(entries: [Fixtures.entry("x", title: "Storm elsewhere")]), for: "unfollowed")
            try await store.saveSourceState(
                SourceState(entries: [Fixtures.entry("quiet", title: "Calm day")] + (1...4).reversed().map {
                    Fixtures.entry("s\($0)", title: "Storm number \($0)")
                }), for: "wire")
            let quiet = try #require(try await store.readingList(EntryFilter(), user: .owner).first { $0.entry.id == "quiet" })
            let article = ReaderArticle(title: "Calm", html: "<p>A storm after all.</p>", text: "A storm after all.", wordCount: 4)
            try await store.saveArticle(StoredArticle(.found(article), url: nil, fetchedAt: Date()), entry: quiet.id)

            let newest = try await store.search("storm", limit: 10, user: .owner, order: .newest)
            #expect(newest.map(\.entry.id) == ["quiet", "s4", "s3", "s2", "s1"])
            #expect(try await store.search("storm", limit: 2, user: .owner, order: .newest).map(\.entry.id) == ["quiet", "s4"])
            #expect(try await store.search("storm", limit: 10, user: nil, order: .newest).count == 6)
            #expect(try await store.search("hail", limit: 10, user: .owner, order: .newest).isEmpty)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aPrefixFindsWordsItStarts(_ kind: StoreKind) async throws {
        try await populated(kind) { store async throws in
            #expect(try await store.search("decis", limit: 10, user: nil).map(\.entry.id) == ["rates"])
            #expect(try await store.search("CORAL rec", limit: 10, user: nil).map(\.entry.id) == ["reef"])
            #expect(try await store.search("resil", limit: 10, user: nil).map(\.entry.id) == ["reef"])  // diacritics folded
            #expect(try await store.search("ates", limit: 10, user: nil).isEmpty)  // inside a word is no prefix
        }
    }

    @Test(arguments: StoreKind.allCases)
    func everyWordMustMatchAndTheLimitHolds(_ kind: StoreKind) async throws {
        try await populated(kind) { store async throws in
            #expect(try await store.search("oil europe", limit: 10, user: nil).map(\.entry.id) == ["oil"])
            #expect(try await store.search("oil reef", limit: 10, user: nil).isEmpty)
            #expect(try await store.search("c", limit: 10, user: nil).count == 3)  // central, climb, coral
            #expect(try await store.search("c", limit: 2, user: nil).count == 2)
            #expect(try await store.search("c", limit: 0, user: nil).isEmpty)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func anUpdatedEntryIsSearchedAsItIsNowAndOneThatLeftItsFeedIsStillFound(_ kind: StoreKind) async throws {
        try await populated(kind) { store async throws in
            let updated = [Fixtures.entry("rates", title: "Central bank cuts rates", summary: "A cut")]
            try await store.saveSourceState(SourceState(entries: updated), for: "business")
            #expect(try await store.search("cuts", limit: 10, user: nil).map(\.entry.id) == ["rates"])
            #expect(try await store.search("holds", limit: 10, user: nil).isEmpty)
            // Out of the feed, kept for the reader until retention prunes it: still findable.
            #expect(try await store.search("oil", limit: 10, user: nil).map(\.entry.id) == ["oil"])
            _ = try await store.prune(RetentionPolicy(maxAge: .zero, maxPerFeed: 0), now: Date().addingTimeInterval(60))
            #expect(try await store.search("oil", limit: 10, user: nil).isEmpty)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func hostileQueryTextNeverThrows(_ kind: StoreKind) async throws {
        let hostile = [
            "\"", "\"\"", "*", "**oil", "NEAR(", "NEAR(oil reef, 2)", "-", "-oil", "AND", "oil AND", "OR reef",
            "NOT", "title:oil", "^oil", "(oil", "oil)", "{title}: oil", "'", "\\", "\u{0}", "", "   ", "🦀",
            String(repeating: "oil ", count: 1_000),
        ]
        try await populated(kind) { store async throws in
            for text in hostile {
                _ = try await store.search(text, limit: 10, user: nil)
            }
            #expect(try await store.search("\"oil", limit: 10, user: nil).map(\.entry.id) == ["oil"])
            #expect(try await store.search("NEAR(oil", limit: 10, user: nil).isEmpty)
            #expect(try await store.search("", limit: 10, user: nil).isEmpty)
            #expect(try await store.search("*", limit: 10, user: nil).isEmpty)
        }
    }
}
