import Foundation
import KioskCore
import KioskModel
import KioskSources
import KioskStore
import Testing

/// Read and star state, reading lists and retention, against SQLite and the in-memory double.
@Suite struct ReadingStoreTests {
    private func entries(_ ids: ClosedRange<Int>, day: Int = 0) -> [Entry] {
        ids.map { number in
            Entry(
                id: "urn:\(number)", title: "Entry \(number)",
                published: Date(timeIntervalSince1970: 1_700_000_000 + Double(number * 60 + day * 86_400)))
        }
    }

    @Test(arguments: StoreKind.allCases)
    func newEntriesAreUnreadAndListedNewestFirst(_ kind: StoreKind) async throws {
        try await withStore(kind, following: ["a", "b"]) { store in
            try await store.saveSourceState(SourceState(entries: entries(1...3)), for: "a")
            try await store.saveSourceState(SourceState(entries: entries(4...5)), for: "b")
            let all = try await store.readingList(EntryFilter(), user: .owner)
            #expect(all.map(\.entry.id) == ["urn:5", "urn:4", "urn:3", "urn:2", "urn:1"])
            #expect(all.allSatisfy { !$0.isRead && !$0.isStarred })
            #expect(try await store.unreadCounts(user: .owner) == ["a": 3, "b": 2])
            let onlyA = try await store.readingList(EntryFilter(sources: ["a"], limit: 2), user: .owner)
            #expect(onlyA.map(\.entry.id) == ["urn:3", "urn:2"])
            let next = try await store.readingList(EntryFilter(sources: ["a"], limit: 2, after: onlyA.last.map(EntryCursor.init)), user: .owner)
            #expect(next.map(\.entry.id) == ["urn:1"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func readAndStarStateFollowAnEntryThroughEditsAndItsLeavingTheFeed(_ kind: StoreKind) async throws {
        try await withStore(kind, following: ["a", "b"]) { store in
            try await store.saveSourceState(SourceState(entries: entries(1...3)), for: "a")
            let first = try #require(try await store.readingList(EntryFilter(), user: .owner).last)
            #expect(try await store.setRead(true, ids: [first.id], user: .owner) == [first.id])
            #expect(try await store.setRead(true, ids: [first.id], user: .owner).isEmpty)  // no change the second time
            #expect(try await store.setStarred(true, ids: [first.id], user: .owner) == [first.id])

            var edited = entries(1...3)
            edited[0].title = "Entry 1, corrected"
            try await store.saveSourceState(SourceState(entries: edited), for: "a")
            var again = try #require(try await store.storedEntry(source: "a", key: first.key, user: .owner))
            #expect(again.id == first.id && again.isRead && again.isStarred)
            #expect(again.entry.title == "Entry 1, corrected")

            // Gone from the feed: still readable and still starred, no longer on the News list.
            try await store.saveSourceState(SourceState(entries: entries(2...4)), for: "a")
            again = try #require(try await store.storedEntry(source: "a", key: first.key, user: .owner))
            #expect(again.isStarred)
            #expect(try await store.entries(for: "a").map(\.id) == ["urn:2", "urn:3", "urn:4"])
            #expect(try await store.readingList(EntryFilter(starredOnly: true), user: .owner).map(\.id) == [first.id])
            #expect(try await store.starredCount(user: .owner) == 1)
            #expect(try await store.unreadCounts(user: .owner) == ["a": 3])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func markAllReadStopsAtWhatTheUserSawAndCanBeUndone(_ kind: StoreKind) async throws {
        try await withStore(kind, following: ["a", "b"]) { store in
            try await store.saveSourceState(SourceState(entries: entries(1...3)), for: "a")
            try await store.saveSourceState(SourceState(entries: entries(4...4)), for: "b")
            let seen = try await store.newestEntryID(sources: nil, user: .owner)
            #expect(seen == (try await store.readingList(EntryFilter(), user: .owner).map(\.id).max() ?? 0))
            #expect(try await store.newestEntryID(sources: [], user: .owner) == 0)
            try await store.saveSourceState(SourceState(entries: entries(1...3) + entries(9...9)), for: "a")
            let marked = try await store.markAllRead(sources: ["a"], upTo: seen, user: .owner)
            #expect(marked.count == 3)
            #expect(try await store.unreadCounts(user: .owner) == ["a": 1, "b": 1])  // urn:9 came after
            #expect(try await store.setRead(false, ids: marked, user: .owner).count == 3)  // undo
            #expect(try await store.unreadCounts(user: .owner) == ["a": 4, "b": 1])
            _ = try await store.markAllRead(sources: nil, upTo: .max, user: .owner)
            #expect(try await store.unreadCounts(user: .owner).isEmpty)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func theNewestEntryIsTheLastReceivedWhateverItsDate(_ kind: StoreKind) async throws {
        try await withStore(kind, following: ["a", "b"]) { store in
            try await store.saveSourceState(SourceState(entries: entries(5...6)), for: "a")
            try await store.saveSourceState(SourceState(entries: entries(7...7)), for: "b")
            // Received last, dated first: it sorts at the end of the list, yet it is the newest.
            try await store.saveSourceState(SourceState(entries: entries(5...6) + entries(1...1, day: -400)), for: "a")
            let oldDated = try #require(try await store.readingList(EntryFilter(sources: ["a"]), user: .owner).last)
            #expect(oldDated.entry.id == "urn:1")
            #expect(try await store.newestEntryID(sources: ["a"], user: .owner) == oldDated.id)
            #expect(try await store.newestEntryID(sources: nil, user: .owner) == oldDated.id)
            _ = try await store.markAllRead(sources: ["a"], upTo: try await store.newestEntryID(sources: ["a"], user: .owner), user: .owner)
            #expect(try await store.unreadCounts(user: .owner) == ["b": 1])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func retentionKeepsTheFeedAndTheStarsAndDropsTheOldRest(_ kind: StoreKind) async throws {
        try await withStore(kind, following: ["a", "b"]) { store in
            try await store.saveSourceState(SourceState(entries: entries(1...10)), for: "a")
            let starred = try #require(try await store.readingList(EntryFilter(), user: .owner).last)  // urn:1
            _ = try await store.setStarred(true, ids: [starred.id], user: .owner)
            try await store.saveSourceState(SourceState(entries: entries(11...12)), for: "a")
            // Cap of 5 per feed: the newest five stay (two of them in the feed), and the star.
            let removed = try await store.prune(RetentionPolicy(maxAge: .seconds(86_400 * 365), maxPerFeed: 5), now: Date())
            #expect(removed == 6)
            let left = try await store.readingList(EntryFilter(), user: .owner).compactMap(\.entry.id)
            #expect(left == ["urn:12", "urn:11", "urn:10", "urn:9", "urn:8", "urn:1"])
            // Age: everything out of the feed and not starred goes.
            let later = Date().addingTimeInterval(86_400 * 2)
            #expect(try await store.prune(RetentionPolicy(maxAge: .seconds(86_400), maxPerFeed: 1_000), now: later) == 3)
            #expect(try await store.readingList(EntryFilter(), user: .owner).compactMap(\.entry.id) == ["urn:12", "urn:11", "urn:1"])
        }
    }
}
