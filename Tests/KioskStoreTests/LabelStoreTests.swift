import Foundation
import KioskCore
import KioskModel
import KioskStore
import Testing

/// Labels on both stores: each user's own, a reading list with counts, put on by a rule on
/// arrival, kept through retention like a star.
@Suite struct LabelStoreTests {
    private let feed = SourceID("weather")

    private func entry(_ id: String, _ title: String) -> Entry {
        Entry(id: id, title: title, link: "https://weather.example/\(id)", summary: "Nothing much.")
    }

    @Test(arguments: StoreKind.allCases)
    func labelsAreEachUsersOwnReadingListsWithCounts(_ kind: StoreKind) async throws {
        try await withStore(kind, following: [feed]) { store in
            try await store.follow([feed], user: UserID(2))
            try await store.saveSourceState(
                SourceState(entries: [entry("1", "One"), entry("2", "Two"), entry("3", "Three")]), for: feed)
            let ids = try await store.readingList(EntryFilter(), user: .owner).map(\.id).sorted()
            let odd = "Later / \"maybe\" é"
            #expect(try await store.setLabel(odd, true, ids: ids, user: .owner).sorted() == ids)
            // Again: nothing changes.
            #expect(try await store.setLabel(odd, true, ids: ids, user: .owner).isEmpty)
            #expect(try await store.setLabel("Work", true, ids: [ids[0]], user: .owner) == [ids[0]])
            #expect(try await store.setLabel("Theirs", true, ids: [ids[1]], user: UserID(2)) == [ids[1]])
            // An entry of a feed the user does not follow is not theirs to label.
            #expect(try await store.setLabel("Nope", true, ids: [ids[0]], user: UserID(3)).isEmpty)

            _ = try await store.setRead(true, ids: [ids[1]], user: .owner)
            #expect(
                try await store.labelCounts(user: .owner) == [
                    LabelCount(name: odd, unread: 2, total: 3), LabelCount(name: "Work", unread: 1, total: 1),
                ])
            #expect(try await store.labelCounts(user: UserID(2)) == [LabelCount(name: "Theirs", unread: 1, total: 1)])
            #expect(try await store.labelCounts(user: UserID(3)).isEmpty)

            let work = try await store.readingList(EntryFilter(label: "Work"), user: .owner)
            #expect(work.map(\.id) == [ids[0]])
            #expect(try await store.readingList(EntryFilter(unreadOnly: true, label: odd), user: .owner).count == 2)
            #expect(try await store.readingList(EntryFilter(label: "Theirs"), user: .owner).isEmpty)
            var query = ItemQuery()
            query.label = odd
            #expect(try await store.itemRefs(query, user: .owner).map(\.id) == ids.reversed())
            query.unreadOnly = true
            #expect(try await store.itemRefs(query, user: .owner).count == 2)

            let labels = try await store.entryLabels(ids: ids, user: .owner)
            #expect(labels[ids[0]] == [odd, "Work"])
            #expect(labels[ids[1]] == [odd])
            #expect(try await store.entryLabels(ids: ids, user: UserID(2)) == [ids[1]: ["Theirs"]])

            #expect(try await store.setLabel("Work", false, ids: ids, user: .owner) == [ids[0]])
            #expect(try await store.labelCounts(user: .owner).map(\.name) == [odd])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aRuleLabelsNewEntriesOnArrivalAndLaterRulesSeeTheLabel(_ kind: StoreKind) async throws {
        try await withStore(kind, following: [feed]) { store in
            try await store.addRule(
                RuleDraft(name: "Storms", query: "intitle:storm", actions: [], label: "Alerts"), user: .owner, now: Date())
            try await store.addRule(
                RuleDraft(name: "Alerts are starred", query: "label:alerts", actions: [.star]), user: .owner, now: Date())
            try await store.saveSourceState(
                SourceState(entries: [entry("1", "Storm warning"), entry("2", "Sunny")]), for: feed)
            let alerts = try await store.readingList(EntryFilter(label: "Alerts"), user: .owner)
            #expect(alerts.map { $0.entry.title } == ["Storm warning"])
            #expect(alerts.first?.isStarred == true && alerts.first?.isRead == false)
            #expect(try await store.labelCounts(user: .owner) == [LabelCount(name: "Alerts", unread: 1, total: 1)])
            let rules = try await store.rules(user: .owner)
            #expect(rules.first?.draft.label == "Alerts" && rules.first?.draft.acts == true)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aLabelledEntryIsKeptLikeAStarredOne(_ kind: StoreKind) async throws {
        try await withStore(kind, following: [feed]) { store in
            try await store.saveSourceState(SourceState(entries: [entry("1", "Old"), entry("2", "Older")]), for: feed)
            let ids = try await store.readingList(EntryFilter(), user: .owner).map(\.id)
            _ = try await store.setLabel("Keep", true, ids: [ids[0]], user: .owner)
            // Both leave the feed, and retention keeps nothing but what is starred or labelled.
            try await store.saveSourceState(SourceState(entries: [entry("3", "New")]), for: feed)
            try await store.prune(RetentionPolicy(maxAge: .seconds(0), maxPerFeed: 0), now: Date().addingTimeInterval(60))
            let left = try await store.readingList(EntryFilter(), user: .owner).map(\.id)
            #expect(left.contains(ids[0]) && !left.contains(ids[1]))
        }
    }
}
