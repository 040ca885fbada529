import Foundation
import KioskCore
import KioskModel
import KioskSources
import KioskStore
import Testing

/// Each user sees and changes only entries of the feeds they follow, with their own state, by
/// any path the store offers: in SQLite (the queries) and in memory (the model) alike.
@Suite struct UserIsolationTests {
    private static let other = UserID(2)

    @Test(arguments: StoreKind.allCases)
    func aUserNeitherSeesNorChangesEntriesOfFeedsTheyDoNotFollow(_ kind: StoreKind) async throws {
        try await withStore(kind, following: ["a", "shared"]) { store in
            try await store.follow(["shared"], user: Self.other)
            try await store.saveSourceState(SourceState(entries: (1...3).map { Entry(id: "urn:a\($0)", title: "A \($0)") }), for: "a")
            try await store.saveSourceState(SourceState(entries: (1...2).map { Entry(id: "urn:s\($0)", title: "S \($0)") }), for: "shared")
            let owners = try await store.readingList(EntryFilter(sources: ["a"]), user: .owner)
            let ids = owners.map(\.id)
            #expect(ids.count == 3)

            #expect(try await store.readingList(EntryFilter(sources: ["a"]), user: Self.other).isEmpty)
            #expect(try await store.readingList(EntryFilter(), user: Self.other).count == 2)
            #expect(try await store.storedEntries(ids: ids, user: Self.other).isEmpty)
            #expect(try await store.storedEntry(source: "a", key: owners[0].key, user: Self.other) == nil)
            #expect(try await store.itemRefs(ItemQuery(sources: ["a"]), user: Self.other).isEmpty)
            #expect(try await store.newestEntryID(sources: ["a"], user: Self.other) == 0)
            #expect(try await store.setRead(true, ids: ids, user: Self.other).isEmpty)
            #expect(try await store.setStarred(true, ids: ids, user: Self.other).isEmpty)
            #expect(try await store.markAllRead(sources: ["a"], upTo: .max, user: Self.other).isEmpty)
            #expect(try await store.unreadCounts(user: Self.other) == ["shared": 2])
            #expect(try await store.unreadCounts(user: .owner) == ["a": 3, "shared": 2])
            #expect(try await store.starredCount(user: .owner) == 0)

            // A feed both follow: each has their own state of it.
            let shared = try await store.readingList(EntryFilter(sources: ["shared"]), user: Self.other)
            #expect(try await store.setRead(true, ids: shared.map(\.id), user: Self.other).count == 2)
            #expect(try await store.setStarred(true, ids: [shared[0].id], user: Self.other).count == 1)
            #expect(try await store.unreadCounts(user: Self.other).isEmpty)
            #expect(try await store.unreadCounts(user: .owner)["shared"] == 2)
            #expect(try await store.starredCount(user: .owner) == 0)
            #expect(try await store.readingList(EntryFilter(starredOnly: true), user: .owner).isEmpty)

            // Unfollowing forgets the user's state; the feed stays for the other follower.
            #expect(try await store.removeSubscription("shared", user: Self.other) == false)
            #expect(try await store.starredCount(user: Self.other) == 0)
            #expect(try await store.readingList(EntryFilter(sources: ["shared"]), user: .owner).count == 2)
            // The last follower gone, the feed goes.
            #expect(try await store.removeSubscription("shared", user: .owner) == true)
            #expect(try await store.feeds().map(\.id) == ["a"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func markingAllReadUpToAnyNumberLeavesEntriesStillToComeUnread(_ kind: StoreKind) async throws {
        try await withStore(kind, following: ["a"]) { store in
            try await store.saveSourceState(SourceState(entries: [Entry(id: "urn:1", title: "One")]), for: "a")
            #expect(try await store.markAllRead(sources: ["a"], upTo: .max, user: .owner).count == 1)
            try await store.saveSourceState(
                SourceState(entries: [Entry(id: "urn:2", title: "Two"), Entry(id: "urn:1", title: "One")]), for: "a")
            #expect(try await store.unreadCounts(user: .owner) == ["a": 1])
            let unread = try await store.readingList(EntryFilter(unreadOnly: true), user: .owner)
            #expect(unread.map(\.entry.id) == ["urn:2"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func searchFindsOnlyWhatTheUserFollows(_ kind: StoreKind) async throws {
        try await withStore(kind, following: ["a", "shared"]) { store in
            try await store.follow(["shared"], user: Self.other)
            try await store.saveSourceState(SourceState(entries: [Entry(id: "urn:p", title: "Private harvest report")]), for: "a")
            try await store.saveSourceState(SourceState(entries: [Entry(id: "urn:s", title: "Shared harvest notes")]), for: "shared")
            #expect(try await store.search("harvest", limit: 10, user: .owner).count == 2)
            #expect(try await store.search("harvest", limit: 10, user: Self.other).map(\.entry.id) == ["urn:s"])
            #expect(try await store.search("private", limit: 10, user: Self.other).isEmpty)
        }
    }
}
