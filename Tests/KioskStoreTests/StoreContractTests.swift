import Foundation
import KioskCore
import KioskModel
import KioskSources
import KioskStore
import Testing

/// The promises every `KioskStore` keeps, checked against SQLite and PostgreSQL.
@Suite struct StoreContractTests {
    @Test(arguments: StoreKind.allCases)
    func sourceStatesRoundTrip(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let full = Fixtures.fullState()
            let fresh = SourceState(validators: Validators(etag: "\"only-etag\"", request: "0123456789abcdef"))
            let empty = SourceState(entries: [], validators: Validators(lastModified: "yesterday"))
            try await store.saveSourceState(full, for: "full")
            try await store.saveSourceState(fresh, for: "fresh")
            try await store.saveSourceState(empty, for: "empty")

            let loaded = try await store.loadSourceStates()
            #expect(Set(loaded.keys) == ["full", "fresh", "empty"])
            #expect(sameState(loaded["full"], full))
            #expect(loaded["full"]?.entries?.map(\.id) == ["a", "b", "c"])
            #expect(loaded["full"]?.lastError?.description == "HTTP 503: down for maintenance")
            #expect(loaded["fresh"]?.entries == nil)  // never fetched is not "fetched, empty"
            #expect(sameState(loaded["fresh"], fresh))
            #expect(loaded["empty"]?.entries == [])
            #expect(try await store.entries(for: "full") == full.entries)
            #expect(try await store.entries(for: "unknown") == [])
        }
    }

    /// A podcast's episode keeps its files, Media RSS formats and episode facts through either
    /// store, and retention's reading of the row (`storedEntry`) sees them too.
    @Test(arguments: StoreKind.allCases)
    func episodesKeepTheirMediaAndFacts(_ kind: StoreKind) async throws {
        let episode = Entry(
            id: "ep-1", title: "Episode 1", published: Date(timeIntervalSince1970: 1_700_000_000),
            enclosures: [Enclosure(url: "https://pod.example/ep1.mp3", type: "audio/mpeg", length: 1234, duration: 1830)],
            media: [Enclosure(url: "https://pod.example/ep1.webm", type: "video/webm", medium: "video")],
            episode: Episode(
                duration: 1830, number: 1, season: 2, explicit: false,
                chapters: MediaLink(url: "https://pod.example/ep1.json", type: "application/json+chapters"),
                transcripts: [MediaLink(url: "https://pod.example/ep1.vtt", type: "text/vtt", language: "en", rel: "captions")]))
        try await withStore(kind) { store in
            try await store.saveSourceState(SourceState(entries: [episode, Fixtures.entry("plain")]), for: "pod")
            #expect(try await store.entries(for: "pod") == [episode, Fixtures.entry("plain")])
            let loaded = try await store.loadSourceStates()
            #expect(loaded["pod"]?.entries?.first == episode)
            #expect(loaded["pod"]?.entries?.last?.episode == nil)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func everyKindOfSourceErrorRoundTrips(_ kind: StoreKind) async throws {
        let errors: [SourceError] = [
            .fetch(.timeout), .fetch(.status(code: 404, message: nil, retryAfter: nil)),
            .fetch(.tooLarge(limit: 10)), .fetch(.tooManyRedirects), .fetch(.network("reset")),
            .fetch(.invalidURL("ftp://x")), .parse(.notAFeed("an HTML page")), .parse(.tooLarge(limit: 5)),
            .parse(.tooDeep(limit: 3)), .parse(.malformed("bad", line: 3, column: 4)), .parse(.empty),
            .unreadable("no JSON"), .superseded, .notConfigured("NewsAPI key"),
        ]
        try await withStore(kind) { store in
            for (index, error) in errors.enumerated() {
                try await store.saveSourceState(SourceState(failures: 1, lastError: error), for: SourceID("s\(index)"))
            }
            let loaded = try await store.loadSourceStates()
            for (index, error) in errors.enumerated() {
                #expect(loaded[SourceID("s\(index)")]?.lastError == error)
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func entriesAreDeduplicatedByIdentityAndUpdatedInPlace(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            try await store.saveSourceState(SourceState(entries: Fixtures.entries(["a", "b", "c"])), for: "news")
            // b's title changed, c left, d arrived on top, and the feed repeats a.
            let next = [Fixtures.entry("d"), Fixtures.entry("a"), Fixtures.entry("b", title: "B, corrected"), Fixtures.entry("a")]
            try await store.saveSourceState(SourceState(entries: next), for: "news")
            let stored = try await store.entries(for: "news")
            #expect(stored.map(\.id) == ["d", "a", "b"])
            #expect(stored.map(\.title) == ["Title d", "Title a", "B, corrected"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func anEntryIsKnownByItsIdThenLinkThenItsText(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let list = [
                Entry(id: nil, title: "first", link: "https://example.com/1"),
                Entry(id: nil, title: "first, again", link: "https://example.com/1"),
                Entry(id: nil, title: "no link"),
                Entry(id: nil, title: "no link"),
                Entry(id: nil, title: "no link", summary: "the same title, other text"),
                Entry(summary: "nothing to know it by"),
            ]
            try await store.saveSourceState(SourceState(entries: list), for: "news")
            // KioskCore's EntryIdentity: guid, else link, else a hash of title and summary.
            #expect(try await store.entries(for: "news").map(\.title) == ["first", "no link", "no link", nil])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func savingASourceLeavesTheOthersAlone(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            try await store.saveSourceState(SourceState(entries: Fixtures.entries(["a"])), for: "one")
            try await store.saveSourceState(SourceState(entries: Fixtures.entries(["a", "b"])), for: "two")
            try await store.saveSourceState(SourceState(entries: []), for: "one")
            #expect(try await store.entries(for: "one") == [])
            #expect(try await store.entries(for: "two").map(\.id) == ["a", "b"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func theDeviceIDIsMadeOnceAndStaysTheSame(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let first = try await store.deviceID()
            #expect(try await store.deviceID() == first)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func theLastOpenedHeadlineIsRemembered(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            #expect(try await store.lastOpened(user: .owner) == nil)
            let first = OpenedHeadline(title: "One", path: "/news/business/1", openedAt: Date(timeIntervalSince1970: 1_000))
            let second = OpenedHeadline(title: "Two «ü»", path: "/news/business/2", openedAt: Date())
            try await store.setLastOpened(first, user: .owner)
            try await store.setLastOpened(second, user: .owner)
            #expect(try await store.lastOpened(user: .owner) == second)
        }
    }
}
