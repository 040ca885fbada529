import Foundation
import KioskCore
import KioskModel
import KioskStore
import Testing

/// A rule's hide on both stores: the entry is kept, read, and out of every list, count and
/// sync page but Hidden, until shown again; an account removed takes its hidden entries,
/// labels, rules and saved searches with it.
@Suite struct HiddenEntryTests {
    private let feed = SourceID("weather")

    private func entry(_ id: String, _ title: String) -> Entry {
        Entry(id: id, title: title, link: "https://weather.example/\(id)", summary: "Nothing much.")
    }

    @Test(arguments: StoreKind.allCases)
    func aHiddenEntryIsOutOfEveryListCountAndSyncPageButHidden(_ kind: StoreKind) async throws {
        try await withStore(kind, following: [feed]) { store in
            try await store.addRule(
                RuleDraft(name: "Ads", query: "intitle:sponsored", actions: [.star, .hide], label: "Ads"), user: .owner,
                now: Date())
            try await store.saveSourceState(
                SourceState(entries: [entry("1", "Sponsored: umbrellas"), entry("2", "Rain at noon")]), for: feed)
            let shown = try await store.readingList(EntryFilter(), user: .owner)
            #expect(shown.map(\.entry.title) == ["Rain at noon"])
            let hidden = try await store.readingList(EntryFilter(hidden: true), user: .owner)
            #expect(hidden.map(\.entry.title) == ["Sponsored: umbrellas"])
            let ad = try #require(hidden.first)
            #expect(ad.isHidden && ad.isRead && ad.isStarred)
            #expect(try await store.unreadCounts(user: .owner) == [feed: 1])
            #expect(try await store.starredCount(user: .owner) == 0)
            #expect(try await store.labelCounts(user: .owner).isEmpty)
            #expect(try await store.readingList(EntryFilter(starredOnly: true), user: .owner).isEmpty)
            #expect(try await store.itemRefs(ItemQuery(), user: .owner).count == 1)
            var starred = ItemQuery()
            starred.starredOnly = true
            #expect(try await store.itemRefs(starred, user: .owner).isEmpty)
            // Opened by its address or id, it says it is hidden.
            #expect(try await store.storedEntries(ids: [ad.id], user: .owner).first?.isHidden == true)

            // Shown again: back in its lists (still read, still starred).
            #expect(try await store.setHidden(false, ids: [ad.id], user: .owner) == [ad.id])
            #expect(try await store.readingList(EntryFilter(), user: .owner).count == 2)
            #expect(try await store.starredCount(user: .owner) == 1)
            #expect(try await store.itemRefs(ItemQuery(), user: .owner).count == 2)
            // Hidden by hand: read too, and unread counts drop.
            let rain = try #require(shown.first)
            #expect(try await store.setHidden(true, ids: [rain.id], user: .owner) == [rain.id])
            #expect(try await store.unreadCounts(user: .owner).isEmpty)
            #expect(try await store.setHidden(true, ids: [rain.id], user: .owner).isEmpty)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func anAccountRemovedTakesItsOwnThingsWithIt(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let account = try await store.addAccount(name: "gone", passwordHash: "x", isAdmin: false)
            try await store.follow([feed], user: account.id)
            try await store.saveSourceState(SourceState(entries: [entry("1", "One")]), for: feed)
            let ids = try await store.readingList(EntryFilter(), user: account.id).map(\.id)
            _ = try await store.setLabel("Mine", true, ids: ids, user: account.id)
            _ = try await store.setHidden(true, ids: ids, user: account.id)
            try await store.addRule(RuleDraft(name: "R", query: "x", actions: [.star]), user: account.id, now: Date())
            _ = try await store.saveSearch(name: "S", query: "x", user: account.id, now: Date())
            try await store.removeAccount(account.id)
            #expect(try await store.labelCounts(user: account.id).isEmpty)
            #expect(try await store.rules(user: account.id).isEmpty)
            #expect(try await store.savedSearches(user: account.id).isEmpty)
            #expect(try await store.readingList(EntryFilter(hidden: true), user: account.id).isEmpty)
        }
    }
}
