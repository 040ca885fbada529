import Foundation
import KioskCore
import KioskModel
import KioskSources
import KioskStore
import Testing

/// The subscriptions' promises, against SQLite and the in-memory double alike.
@Suite struct SubscriptionStoreTests {
    private func feed(_ path: String, folder: String? = nil, title: String? = nil) throws -> Subscription {
        let url = try #require(URL(string: "https://example.com/\(path)"))
        return Subscription(
            id: Subscription.id(for: url), url: url, title: title, feedTitle: "Feed \(path)",
            siteURL: "https://example.com/", folder: folder, interval: .seconds(900),
            addedAt: Date(timeIntervalSince1970: 1_700_000_000))
    }

    @Test(arguments: StoreKind.allCases)
    func subscriptionsRoundTripInTheOrderAdded(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            #expect(try await store.subscriptions(user: .owner).isEmpty)
            let first = try feed("a.xml", folder: "Tech")
            let second = try feed("b.xml", title: "My name for B")
            try await store.saveSubscriptions([first], user: .owner)
            try await store.saveSubscriptions([second], user: .owner)
            #expect(try await store.subscriptions(user: .owner) == [first, second])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func everyChangeOfAUsersSubscriptionsChangesItsVersion(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let other = UserID(7)
            let start = try await store.subscriptionsVersion(user: .owner)
            let first = try feed("a.xml", folder: "Tech")
            try await store.saveSubscriptions([first], user: .owner)
            let saved = try await store.subscriptionsVersion(user: .owner)
            #expect(saved != start)
            // Reading changes nothing; a write that changes nothing is still a new version.
            _ = try await store.subscriptions(user: .owner)
            #expect(try await store.subscriptionsVersion(user: .owner) == saved)
            try await store.touchSubscriptions(user: .owner)
            #expect(try await store.subscriptionsVersion(user: .owner) != saved)
            #expect(try await store.subscriptions(user: .owner) == [first])
            let touched = try await store.subscriptionsVersion(user: .owner)
            // Removed and added back: the same list as before, another version.
            try await store.removeSubscription(first.id, user: .owner)
            try await store.saveSubscriptions([first], user: .owner)
            let readded = try await store.subscriptionsVersion(user: .owner)
            #expect(try await store.subscriptions(user: .owner) == [first])
            #expect(readded != saved && readded != touched)
            // Another user's changes are theirs; a feed forgotten for everyone changes its followers'.
            try await store.saveSubscriptions([first], user: other)
            #expect(try await store.subscriptionsVersion(user: .owner) == readded)
            let othersBefore = try await store.subscriptionsVersion(user: other)
            try await store.removeFeed(first.id)
            #expect(try await store.subscriptionsVersion(user: .owner) != readded)
            #expect(try await store.subscriptionsVersion(user: other) != othersBefore)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func eachFeedsHealthIsReadWithoutItsEntries(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let fine = try feed("fine.xml")
            let failing = try feed("failing.xml")
            let never = try feed("never.xml")
            try await store.saveSubscriptions([fine, failing, never], user: .owner)
            let success = Date(timeIntervalSince1970: 1_760_000_000)
            try await store.saveSourceState(SourceState(entries: [Entry(id: "1", title: "One")], lastSuccess: success), for: fine.id)
            try await store.saveSourceState(
                SourceState(failures: 1, lastError: .unreadable("not a feed"), lastFailure: success), for: failing.id)
            let health = try await store.feedHealth()
            #expect(health[fine.id]?.lastSuccess == success)
            #expect(health[fine.id]?.isFailing == false)
            #expect(health[failing.id]?.isFailing == true)
            #expect(health[failing.id]?.lastError == "unreadable answer: not a feed")
            #expect(health[never.id]?.isUnchecked ?? true)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func anotherUsersSaveNeverRewritesASharedFeed(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let original = try feed("a.xml")
            try await store.saveSubscriptions([original], user: .owner)
            var forged = original
            forged.feedTitle = "Verify your bank"
            forged.siteURL = "https://evil.example/"
            forged.interval = .seconds(1)
            try await store.saveSubscriptions([forged], user: UserID(2))
            let owners = try #require(try await store.subscriptions(user: .owner).first)
            #expect(owners.feedTitle == original.feedTitle && owners.siteURL == original.siteURL)
            #expect(owners.interval == original.interval)
            // An id that another address already has is refused (a crafted hash collision).
            var collision = original
            collision.url = try #require(URL(string: "https://evil.example/feed.xml"))
            await #expect(throws: StoreError.self) { try await store.saveSubscriptions([collision], user: UserID(2)) }
            #expect(try await store.feeds().first?.url == original.url)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func savingAgainRenamesAndMovesInPlace(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            var first = try feed("a.xml")
            try await store.saveSubscriptions([first, try feed("b.xml")], user: .owner)
            first.title = "Renamed"
            first.folder = "Later"
            first.interval = .seconds(60)
            try await store.saveSubscriptions([first], user: .owner)
            var stored = try await store.subscriptions(user: .owner)
            #expect(stored.count == 2)
            #expect(stored.first?.displayName == "Renamed" && stored.first?.folder == "Later")
            // The interval is the feed's, shared: a user's save leaves it; saving the feed sets it.
            #expect(stored.first?.interval == Subscription.defaultInterval)
            try await store.saveFeeds([first])
            stored = try await store.subscriptions(user: .owner)
            #expect(stored.first == first)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aBatchWithADuplicateAddressSavesNothing(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let existing = try feed("a.xml")
            try await store.saveSubscriptions([existing], user: .owner)
            var clash = try feed("c.xml")
            clash.url = existing.url  // another id, the same address
            await #expect(throws: (any Error).self) {
                try await store.saveSubscriptions([try feed("b.xml"), clash], user: .owner)
            }
            #expect(try await store.subscriptions(user: .owner) == [existing])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func unsubscribingForgetsTheFeedsEntriesAndValidators(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let kept = try feed("a.xml")
            let gone = try feed("b.xml")
            try await store.saveSubscriptions([kept, gone], user: .owner)
            for id in [kept.id, gone.id] {
                try await store.saveSourceState(
                    SourceState(entries: [Entry(id: "1", title: "One")], validators: Validators(etag: "\"e\"")),
                    for: id)
            }
            try await store.removeSubscription(gone.id, user: .owner)
            #expect(try await store.subscriptions(user: .owner) == [kept])
            #expect(try await store.entries(for: gone.id).isEmpty)
            let states = try await store.loadSourceStates()
            #expect(states[gone.id] == nil)
            #expect(states[kept.id]?.entries?.count == 1)
        }
    }

    @Test func aUsersFeedIsKnownByItsAddress() throws {
        let url = try #require(URL(string: "https://example.com/feed.xml"))
        #expect(Subscription.id(for: url) == Subscription.id(for: url))
        #expect(Subscription.id(for: url).rawValue.hasPrefix("feed-"))
        let untitled = Subscription(id: "x", url: url)
        #expect(untitled.displayName == "example.com")
        #expect(Subscription(id: "x", url: url, title: "  ", feedTitle: "Own").displayName == "Own")
    }
}
