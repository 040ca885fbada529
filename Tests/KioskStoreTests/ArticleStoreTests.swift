import Foundation
import KioskCore
import KioskModel
import KioskSources
import KioskStore
import Testing

/// Articles kept with their entries (reader view), on both stores: found or failed, searchable,
/// removed with the entry.
@Suite struct ArticleStoreTests {
    static let article = ReaderArticle(
        title: "The whole story", byline: "Ada Lovelace", published: Date(timeIntervalSince1970: 1_750_000_000),
        siteName: "Example", language: "en", image: "https://example.com/lead.jpg", excerpt: "It begins.",
        html: "<p>It begins with an analytical engine.</p>", text: "It begins with an analytical engine.", wordCount: 6)

    private func entryID(_ store: any KioskStore, _ source: SourceID) async throws -> Int64 {
        try #require(try await store.readingList(EntryFilter(sources: [source]), user: .owner).first?.id)
    }

    @Test(arguments: StoreKind.allCases)
    func anArticleOrItsFailureRoundTrips(_ kind: StoreKind) async throws {
        try await withStore(kind, following: ["a"]) { store in
            try await store.saveSourceState(SourceState(entries: [Entry(id: "1", title: "Short")]), for: "a")
            let id = try await entryID(store, "a")
            #expect(try await store.article(entry: id) == nil)

            let found = StoredArticle(.found(Self.article), url: "https://example.com/story", fetchedAt: Date(timeIntervalSince1970: 1_760_000_000))
            try await store.saveArticle(found, entry: id)
            #expect(try await store.article(entry: id) == found)

            let failed = StoredArticle(.failed("the site refused (HTTP 403)"), fetchedAt: Date(timeIntervalSince1970: 1_760_000_100))
            try await store.saveArticle(failed, entry: id)
            #expect(try await store.article(entry: id) == failed)

            // Any moment reads back equal, whatever its fraction of a second (a Date
            // through a double column used to come back one bit off now and then).
            for step in 0..<200 {
                let moment = Date(timeIntervalSinceReferenceDate: 786_000_000 + Double(step) * 0.123_456_789_1)
                let kept = StoredArticle(.failed("no answer"), fetchedAt: moment)
                try await store.saveArticle(kept, entry: id)
                #expect(try await store.article(entry: id) == kept)
            }

            // An entry that does not exist keeps nothing.
            try await store.saveArticle(found, entry: id + 1000)
            #expect(try await store.article(entry: id + 1000) == nil)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func oneClaimOnAPageAtATimeUntilItIsKeptOrTheClaimRunsOut(_ kind: StoreKind) async throws {
        try await withStore(kind, following: ["a"]) { store in
            try await store.saveSourceState(SourceState(entries: [Entry(id: "1", title: "Short")]), for: "a")
            let id = try await entryID(store, "a")
            let start = Date(timeIntervalSince1970: 1_760_000_000)
            let until = start.addingTimeInterval(20)
            #expect(try await store.claimArticleFetch(entry: id, until: until, now: start))
            // Another replica, while the claim holds: no.
            #expect(try await !store.claimArticleFetch(entry: id, until: until.addingTimeInterval(5), now: start.addingTimeInterval(5)))
            // The claim ran out (its replica died): the next may.
            #expect(try await store.claimArticleFetch(entry: id, until: until.addingTimeInterval(30), now: until.addingTimeInterval(1)))
            // Keeping the article ends the claim at once.
            try await store.saveArticle(StoredArticle(.failed("no answer"), fetchedAt: start), entry: id)
            #expect(try await store.claimArticleFetch(entry: id, until: until, now: start))
            // No entry, no claim.
            #expect(try await !store.claimArticleFetch(entry: id + 1000, until: until, now: start))
        }
    }

    @Test(arguments: StoreKind.allCases)
    func searchFindsAnArticlesWordsAndTheArticleGoesWithItsEntry(_ kind: StoreKind) async throws {
        try await withStore(kind, following: ["a"]) { store in
            try await store.saveSourceState(
                SourceState(entries: [Entry(id: "1", title: "Short", summary: "Two sentences.")]), for: "a")
            let id = try await entryID(store, "a")
            #expect(try await store.search("analytical", limit: 10, user: .owner).isEmpty)

            try await store.saveArticle(StoredArticle(.found(Self.article), fetchedAt: Date()), entry: id)
            let hits = try await store.search("analyt engine", limit: 10, user: .owner)
            #expect(hits.map(\.entry.id) == ["1"])
            // Found in both the summary and the article: listed once.
            #expect(try await store.search("begins", limit: 10, user: .owner).count <= 1)
            #expect(try await store.search("sentences", limit: 10, user: .owner).map(\.entry.id) == ["1"])

            // The feed re-saving the entry keeps its article.
            try await store.saveSourceState(
                SourceState(entries: [Entry(id: "1", title: "Short, edited", summary: "Two sentences.")]), for: "a")
            #expect(try await store.article(entry: id)?.article == Self.article)

            // The entry gone (the source forgotten), its article is gone and no longer found.
            try await store.saveSourceState(SourceState(), for: "a")
            #expect(try await store.article(entry: id) == nil)
            #expect(try await store.search("analytical", limit: 10, user: .owner).isEmpty)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func feedsReadAsFullArticlesAndTheirEntriesStillWithoutOne(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let url = try #require(URL(string: "https://a.example/feed.xml"))
            let other = try #require(URL(string: "https://b.example/feed.xml"))
            try await store.saveSubscriptions(
                [Subscription(id: "a", url: url, interval: .seconds(600), fullArticles: true), Subscription(id: "b", url: other)],
                user: .owner)
            #expect(try await store.subscriptions(user: .owner).map(\.fullArticles) == [true, false])
            // With its interval, over which its new pages are fetched.
            #expect(try await store.fullArticleFeeds() == [FullArticleFeed(id: "a", interval: .seconds(600))])

            try await store.saveSourceState(
                SourceState(entries: [
                    Entry(id: "3", title: "Three", link: "https://a.example/3", published: Date(timeIntervalSince1970: 3_000)),
                    Entry(id: "2", title: "Two", link: "https://a.example/2", published: Date(timeIntervalSince1970: 2_000)),
                    Entry(id: "1", title: "One", published: Date(timeIntervalSince1970: 1_000)),
                ]), for: "a")
            let wanted = try await store.entriesWithoutArticles(of: "a", limit: 10)
            #expect(wanted.map(\.link) == ["https://a.example/3", "https://a.example/2", nil])
            #expect(try await store.entriesWithoutArticles(of: "a", limit: 1).count == 1)

            // A kept article, found or failed, takes the entry off the list.
            let newest = try #require(wanted.first)
            try await store.saveArticle(StoredArticle(.failed("the page is gone (HTTP 404)"), fetchedAt: Date()), entry: newest.entry)
            #expect(try await store.entriesWithoutArticles(of: "a", limit: 10).map(\.link) == ["https://a.example/2", nil])

            // Turned off by its only reader: no feed is read as full articles.
            try await store.saveSubscriptions([Subscription(id: "a", url: url, fullArticles: false)], user: .owner)
            #expect(try await store.fullArticleFeeds().isEmpty)
        }
    }
}
