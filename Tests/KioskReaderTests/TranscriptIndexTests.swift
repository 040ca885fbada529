import Foundation
import KioskCore
import KioskModel
import KioskReader
import KioskSQLite
import KioskSources
import KioskStore
import KioskTesting
import Testing

/// Episodes' transcripts read for search: once each, relative links resolved against the feed,
/// failures kept as sentences, and a changed feed's new episodes read without being asked.
@Suite struct TranscriptIndexTests {
    private static let feedURL = "https://podcast.example/shows/feed.xml"

    private static let vtt = """
        WEBVTT

        00:00:00.000 --> 00:00:02.000
        Welcome aboard the <v Narrator>zeppelin</v>.

        00:00:02.000 --> 00:00:04.000
        We cross the Atlantic tonight.
        """

    private static func episode(_ id: String, transcript: MediaLink?) -> Entry {
        Entry(
            id: id, title: "Episode \(id)", link: "https://podcast.example/\(id)", summary: "Show notes.",
            enclosures: [Enclosure(url: "https://podcast.example/\(id).mp3", type: "audio/mpeg", length: 1_000)],
            episode: transcript.map { Episode(transcripts: [$0]) })
    }

    private static func store(_ entries: [Entry]) async throws -> SQLiteStore {
        let store = try SQLiteStore.inMemoryDatabase()
        let url = try #require(URL(string: feedURL))
        try await store.saveSubscriptions([Subscription(id: "podcast", url: url)], user: .owner)
        try await store.saveSourceState(SourceState(entries: entries), for: "podcast")
        return store
    }

    private static func id(of title: String, in store: SQLiteStore) async throws -> Int64 {
        try #require(try await store.readingList(EntryFilter(), user: .owner).first { $0.entry.title == title }?.id)
    }

    @Test func eachEpisodesTranscriptIsReadOnceAndFoundBySearch() async throws {
        let store = try await Self.store([
            Self.episode("1", transcript: MediaLink(url: "../files/1.vtt", type: "text/vtt")),
            Self.episode("2", transcript: MediaLink(url: "https://elsewhere.example/missing.vtt", type: "text/vtt")),
            Self.episode("3", transcript: MediaLink(url: "https://podcast.example/3.html", type: "text/html")),
            Self.episode("4", transcript: nil),
        ])
        let web = CannedWeb(pages: ["https://podcast.example/files/1.vtt": (Self.vtt, "text/vtt")])
        let index = TranscriptIndex(store: store, files: EpisodeFiles(fetcher: web), hub: nil, perPass: 2)
        #expect(await index.index(of: nil) == 3)  // in pages of two
        #expect(await index.index(of: nil) == 0)  // each once

        let first = try await Self.id(of: "Episode 1", in: store)
        let second = try await Self.id(of: "Episode 2", in: store)
        let third = try await Self.id(of: "Episode 3", in: store)
        // The cues' words, the voice's tags read for their words.
        #expect(
            try await store.transcriptTexts(entries: [first, second, third])
                == [first: "Welcome aboard the zeppelin. We cross the Atlantic tonight."])
        let found = try await EntrySearch(store: store).entries(
            matching: try QueryParser.parse("zeppelin atlantic"), user: .owner, subscriptions: try await store.subscriptions(user: .owner))
        #expect(found.map(\.entry.title) == ["Episode 1"])
        // A query's exclusions read the transcript too.
        let excluded = try await EntrySearch(store: store).entries(
            matching: try QueryParser.parse("episode -zeppelin"), user: .owner, subscriptions: try await store.subscriptions(user: .owner))
        #expect(Set(excluded.map(\.entry.title)) == ["Episode 2", "Episode 3", "Episode 4"])
    }

    @Test func aChangedFeedsNewEpisodeIsReadWithoutBeingAsked() async throws {
        let store = try await Self.store([])
        let web = CannedWeb(pages: ["https://podcast.example/shows/1.vtt": (Self.vtt, "text/vtt")])
        let hub = EventHub()
        let index = TranscriptIndex(store: store, files: EpisodeFiles(fetcher: web), hub: hub)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await index.run() }
            // Listening (its first pass, over every feed, may still run), then an episode arrives.
            let deadline = ContinuousClock.now + .seconds(30)
            while await !hub.isListening(TranscriptIndex.hubName), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            let episode = Self.episode("1", transcript: MediaLink(url: "1.vtt", type: "text/vtt"))
            try await store.saveSourceState(SourceState(entries: [episode]), for: "podcast")
            await hub.publish(.changed("podcast", [episode]))
            let id = try await Self.id(of: "Episode 1", in: store)
            while try await store.transcriptTexts(entries: [id]).isEmpty, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(try await store.transcriptTexts(entries: [id])[id]?.contains("Atlantic") == true)
            group.cancelAll()
        }
    }
}
