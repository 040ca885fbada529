import Foundation
import KioskCore
import KioskModel
import KioskStore
import Testing

/// Episodes' transcripts on both stores: listed while wanted, claimed once, kept and found by
/// search (in relevance and newest order), a failure tried again only after its time, and gone
/// with the entry.
@Suite struct TranscriptStoreTests {
    private let podcast = SourceID("podcast")

    private func episode(_ id: String, transcript: String? = "transcripts/\(UUID().uuidString).vtt") -> Entry {
        Entry(
            id: id, title: "Episode \(id)", link: "https://podcast.example/\(id)", summary: "Show notes.",
            enclosures: [Enclosure(url: "https://podcast.example/\(id).mp3", type: "audio/mpeg", length: 1_000)],
            episode: transcript.map { Episode(transcripts: [MediaLink(url: $0, type: "text/vtt", rel: "captions")]) })
    }

    private func at(_ seconds: Double) -> Date { Date(timeIntervalSince1970: seconds) }

    @Test(arguments: StoreKind.allCases)
    func aTranscriptIsClaimedOnceKeptAndFoundBySearch(_ kind: StoreKind) async throws {
        try await withStore(kind, following: [podcast]) { store in
            try await store.saveSourceState(
                SourceState(entries: [episode("1"), episode("2", transcript: nil), episode("3")]), for: podcast)
            let wanted = try await store.entriesWithoutTranscripts(of: podcast, retryBefore: at(0), limit: 10)
            // Only episodes listing a transcript, newest first, with the feed's address for
            // relative links.
            #expect(wanted.map(\.transcripts.count) == [1, 1])
            #expect(wanted.allSatisfy { $0.source == podcast && $0.feedURL == "https://podcast.example/feed.xml" })
            #expect(try await store.entriesWithoutTranscripts(of: nil, retryBefore: at(0), limit: 10) == wanted)
            #expect(try await store.entriesWithoutTranscripts(of: "other", retryBefore: at(0), limit: 10).isEmpty)
            #expect(try await store.entriesWithoutTranscripts(of: podcast, retryBefore: at(0), limit: 1).count == 1)
            let first = wanted[1].entry  // episode 1
            let third = wanted[0].entry

            // Claimed once: the second claim (another replica's) is refused, and it is no longer wanted.
            #expect(try await store.claimTranscript(entry: first, now: at(1_000), retryBefore: at(0)))
            #expect(try await store.claimTranscript(entry: first, now: at(1_001), retryBefore: at(0)) == false)
            #expect(try await store.transcript(entry: first) == StoredTranscript(.failed(TranscriptColumns.fetching), fetchedAt: at(1_000)))
            #expect(try await store.transcript(entry: third) == nil)
            #expect(try await store.entriesWithoutTranscripts(of: podcast, retryBefore: at(0), limit: 10).map(\.entry) == [third])
            #expect(try await store.claimTranscript(entry: 999_999, now: at(1_000), retryBefore: at(0)) == false)

            try await store.saveTranscript(
                StoredTranscript(.text("Welcome aboard the zeppelin, said the narrator."), fetchedAt: at(1_002)), entry: first)
            #expect(try await store.transcriptTexts(entries: [first, third]) == [first: "Welcome aboard the zeppelin, said the narrator."])
            #expect(try await store.transcript(entry: first)?.text == "Welcome aboard the zeppelin, said the narrator.")
            // Search finds it by a word said only in the transcript, in both orders.
            for order in [SearchOrder.relevance, .newest] {
                let hits = try await store.search("zeppelin", limit: 10, user: .owner, order: order)
                #expect(hits.map(\.entry.title) == ["Episode 1"])
                #expect(try await store.search("narrat", limit: 10, user: nil, order: order).map(\.id) == [first])
            }
            // A kept transcript is never claimed again, however old.
            #expect(try await store.claimTranscript(entry: first, now: at(900_000), retryBefore: at(800_000)) == false)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aFailureIsTriedAgainOnlyAfterItsTime(_ kind: StoreKind) async throws {
        try await withStore(kind, following: [podcast]) { store in
            try await store.saveSourceState(SourceState(entries: [episode("1")]), for: podcast)
            let id = try #require(try await store.entriesWithoutTranscripts(of: podcast, retryBefore: at(0), limit: 10).first?.entry)
            #expect(try await store.claimTranscript(entry: id, now: at(1_000), retryBefore: at(0)))
            try await store.saveTranscript(StoredTranscript(.failed("the transcript could not be fetched"), fetchedAt: at(1_000)), entry: id)
            #expect(try await store.transcriptTexts(entries: [id]).isEmpty)
            #expect(try await store.entriesWithoutTranscripts(of: podcast, retryBefore: at(1_000), limit: 10).isEmpty)
            #expect(try await store.claimTranscript(entry: id, now: at(1_500), retryBefore: at(1_000)) == false)
            // A day later it is wanted again, and claimed once.
            #expect(try await store.entriesWithoutTranscripts(of: podcast, retryBefore: at(2_000), limit: 10).map(\.entry) == [id])
            #expect(try await store.claimTranscript(entry: id, now: at(90_000), retryBefore: at(2_000)))
            #expect(try await store.claimTranscript(entry: id, now: at(90_001), retryBefore: at(2_000)) == false)
            // A claim whose fetch never ended is a failure too, tried again after its time.
            #expect(try await store.entriesWithoutTranscripts(of: podcast, retryBefore: at(95_000), limit: 10).map(\.entry) == [id])
        }
    }

    /// 140,000 distinct words of two 4-byte characters: 1.1 MB of words, more than a PostgreSQL
    /// `tsvector` can find its way through. The text is kept whole, and its first megabyte of
    /// words found.
    @Test(arguments: StoreKind.allCases)
    func aTranscriptOfManyDistinctWordsIsKeptAndFound(_ kind: StoreKind) async throws {
        try await withStore(kind, following: [podcast]) { store in
            try await store.saveSourceState(SourceState(entries: [episode("1")]), for: podcast)
            let id = try #require(try await store.entriesWithoutTranscripts(of: podcast, retryBefore: at(0), limit: 10).first?.entry)
            var words = ["zeppelin"]
            for number in 0..<140_000 {
                let first = try #require(Unicode.Scalar(0x20000 + number / 400))
                let second = try #require(Unicode.Scalar(0x21000 + number % 400))
                words.append(String(Character(first)) + String(Character(second)))
            }
            let text = words.joined(separator: " ")
            try await store.saveTranscript(StoredTranscript(.text(text), fetchedAt: at(1_000)), entry: id)
            #expect(try await store.transcriptTexts(entries: [id])[id] == text)
            for word in ["zeppelin", words[60_000], words[120_000]] {
                #expect(try await store.search(word, limit: 10, user: .owner, order: .relevance).map(\.id) == [id])
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aTranscriptGoesWithItsEntry(_ kind: StoreKind) async throws {
        try await withStore(kind, following: [podcast]) { store in
            try await store.saveSourceState(SourceState(entries: [episode("1")]), for: podcast)
            let id = try #require(try await store.entriesWithoutTranscripts(of: podcast, retryBefore: at(0), limit: 10).first?.entry)
            try await store.saveTranscript(StoredTranscript(.text("zeppelin"), fetchedAt: at(1_000)), entry: id)
            #expect(try await store.removeSubscription(podcast, user: .owner))
            #expect(try await store.transcriptTexts(entries: [id]).isEmpty)
            #expect(try await store.search("zeppelin", limit: 10, user: nil, order: .relevance).isEmpty)
            // Saving for an entry that is gone keeps nothing.
            try await store.saveTranscript(StoredTranscript(.text("zeppelin"), fetchedAt: at(1_000)), entry: id)
            #expect(try await store.transcriptTexts(entries: [id]).isEmpty)
        }
    }
}
