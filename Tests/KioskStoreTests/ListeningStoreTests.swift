import Foundation
import KioskCore
import KioskModel
import KioskStore
import Testing

/// Each user's place in an episode on both stores: kept per account and entry, replaced by the
/// next save, refused for a feed the user does not follow, listed while in progress (latest
/// first), and gone with the feed or the account.
@Suite struct ListeningStoreTests {
    private let podcast = SourceID("podcast")

    private func episode(_ id: String) -> Entry {
        Entry(
            id: id, title: "Episode \(id)", link: "https://podcast.example/\(id)", summary: "Notes.",
            enclosures: [Enclosure(url: "https://podcast.example/\(id).mp3", type: "audio/mpeg", length: 1_000)])
    }

    private func position(
        _ entryID: Int64, at seconds: Double, playing: Bool = false, finished: Bool = false, device: String = "iPhone",
        savedAt: Double
    ) -> PlaybackPosition {
        PlaybackPosition(
            entryID: entryID, seconds: seconds, duration: 1_800, isPlaying: playing, isFinished: finished,
            device: device, savedAt: Date(timeIntervalSince1970: savedAt))
    }

    @Test(arguments: StoreKind.allCases)
    func aPositionIsKeptReplacedAndListedWhileInProgress(_ kind: StoreKind) async throws {
        try await withStore(kind, following: [podcast]) { store in
            try await store.saveSourceState(SourceState(entries: [episode("1"), episode("2"), episode("3")]), for: podcast)
            let ids = try await store.readingList(EntryFilter(), user: .owner).map(\.id)
            try #require(ids.count == 3)
            #expect(try await store.positions(ids: ids, user: .owner).isEmpty)

            #expect(try await store.savePosition(position(ids[0], at: 61.5, playing: true, savedAt: 100), user: .owner))
            #expect(try await store.savePosition(position(ids[1], at: 10, savedAt: 200), user: .owner))
            // The next save replaces the one before, from whichever device.
            #expect(
                try await store.savePosition(position(ids[0], at: 1_390.25, device: "Firefox on Linux", savedAt: 300), user: .owner))
            let saved = try await store.positions(ids: ids, user: .owner)
            #expect(saved.count == 2)
            let first = try #require(saved[ids[0]])
            #expect(first.seconds == 1_390.25 && first.duration == 1_800 && !first.isPlaying && !first.isFinished)
            #expect(first.device == "Firefox on Linux" && first.savedAt == Date(timeIntervalSince1970: 300))
            #expect(first.remaining == 409.75)
            #expect(try await store.positionsInProgress(limit: 10, user: .owner).map(\.entryID) == [ids[0], ids[1]])
            #expect(try await store.positionsInProgress(limit: 1, user: .owner).map(\.entryID) == [ids[0]])

            // A place sent late (taken before the one kept) leaves the newer one alone.
            #expect(try await store.savePosition(position(ids[0], at: 5, savedAt: 250), user: .owner))
            #expect(try await store.positions(ids: [ids[0]], user: .owner)[ids[0]]?.seconds == 1_390.25)

            // Finished: still known (a second device opens it at its end), no longer in progress.
            #expect(try await store.savePosition(position(ids[1], at: 1_790, finished: true, savedAt: 400), user: .owner))
            #expect(try await store.positionsInProgress(limit: 10, user: .owner).map(\.entryID) == [ids[0]])
            #expect(try await store.positions(ids: [ids[1]], user: .owner)[ids[1]]?.isFinished == true)

            // Another account sees none of it, and cannot save where it does not follow.
            // (The first account made is the owner's.)
            _ = try await store.addAccount(name: "owner", passwordHash: "x", isAdmin: true)
            let other = try await store.addAccount(name: "other", passwordHash: "x", isAdmin: false)
            #expect(try await store.positions(ids: ids, user: other.id).isEmpty)
            #expect(try await store.savePosition(position(ids[2], at: 5, savedAt: 500), user: other.id) == false)
            #expect(try await store.positions(ids: ids, user: other.id).isEmpty)
            // Nor for an entry that does not exist.
            #expect(try await store.savePosition(position(999_999, at: 5, savedAt: 500), user: .owner) == false)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func positionsGoWithTheFeedAndTheAccount(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let account = try await store.addAccount(name: "listener", passwordHash: "x", isAdmin: false)
            try await store.follow([podcast], user: account.id)
            try await store.saveSourceState(SourceState(entries: [episode("1")]), for: podcast)
            let id = try #require(try await store.readingList(EntryFilter(), user: account.id).first?.id)
            #expect(try await store.savePosition(position(id, at: 30, savedAt: 100), user: account.id))
            #expect(try await store.removeSubscription(podcast, user: account.id))
            #expect(try await store.positions(ids: [id], user: account.id).isEmpty)

            try await store.follow([podcast], user: account.id)
            try await store.saveSourceState(SourceState(entries: [episode("1")]), for: podcast)
            let again = try #require(try await store.readingList(EntryFilter(), user: account.id).first?.id)
            #expect(try await store.savePosition(position(again, at: 30, savedAt: 100), user: account.id))
            _ = try await store.removeAccount(account.id)
            #expect(try await store.positionsInProgress(limit: 10, user: account.id).isEmpty)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func theFilesFilterKeepsEntriesWithSomethingAttached(_ kind: StoreKind) async throws {
        try await withStore(kind, following: [podcast]) { store in
            let plain = Entry(id: "text", title: "Just text", link: "https://podcast.example/text", summary: "Words.")
            try await store.saveSourceState(SourceState(entries: [episode("1"), plain]), for: podcast)
            let files = try await store.readingList(EntryFilter(withFiles: true), user: .owner)
            #expect(files.map(\.entry.title) == ["Episode 1"])
            #expect(try await store.hasFiles(amongLatest: 10, user: .owner))
            #expect(try await store.hasFiles(amongLatest: 0, user: .owner) == false)
            // Only the latest entries are looked at: the episode is the older of the two.
            #expect(try await store.hasFiles(amongLatest: 1, user: .owner) == false)
            let other = try await store.addAccount(name: "first", passwordHash: "x", isAdmin: true)
            #expect(other.id == .owner)
            let stranger = try await store.addAccount(name: "stranger", passwordHash: "x", isAdmin: false)
            #expect(try await store.hasFiles(amongLatest: 10, user: stranger.id) == false)
            #expect(try await store.readingList(EntryFilter(), user: .owner).count == 2)
        }
    }
}
