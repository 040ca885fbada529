import Foundation
import KioskCore
import KioskModel
import KioskStore
import Testing

/// Rules on both stores: each user's own, in their order, and run on every new entry in the
/// transaction that stores it, so the entry is never seen unread (or unstarred) before.
@Suite struct RuleStoreTests {
    private let feed = SourceID("weather")
    private let other = SourceID("sport")

    private func entry(_ id: String, _ title: String, summary: String = "Nothing much.") -> Entry {
        Entry(id: id, title: title, link: "https://weather.example/\(id)", summary: summary)
    }

    /// The cap on rules is counted in the write that adds one: ten requests at once for the
    /// last three places add three.
    @Test(arguments: StoreKind.allCases)
    func theCapHoldsUnderRequestsAtOnce(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            for index in 0..<7 {
                _ = try await store.addRule(RuleDraft(name: "r\(index)", query: "w\(index)", actions: [.markRead]), user: .owner, now: Date())
            }
            let added = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<10 {
                    group.addTask {
                        try await store.addRule(
                            RuleDraft(name: "x\(index)", query: "x\(index)", actions: [.markRead]), user: .owner, now: Date(), most: 10
                        ) != nil
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(added == 3)
            #expect(try await store.rules(user: .owner).count == 10)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func rulesAreEachUsersOwnInTheirOrder(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            let first = try await store.addRule(
                RuleDraft(name: "Storms", query: "intitle:storm", actions: [.star]), user: .owner, now: now)
            let odd = "\"quotes\" 'and' \\back\\slashes; DROP TABLE x; -- é 🌧"
            let second = try await store.addRule(
                RuleDraft(name: odd, query: odd, scope: .folder("News / Weather"), actions: [.markRead, .star], isPaused: true),
                user: .owner, now: now)
            let third = try await store.addRule(
                RuleDraft(name: "Sport", query: "is:unread", scope: .feed(other), actions: [.markRead]), user: .owner, now: now)
            let theirs = try await store.addRule(
                RuleDraft(name: "Theirs", query: "x", actions: [.markRead]), user: UserID(2), now: now)

            var mine = try await store.rules(user: .owner)
            #expect(mine.map(\.id) == [first.id, second.id, third.id])
            #expect(mine.map(\.draft) == [first.draft, second.draft, third.draft])
            #expect(mine[1].draft.scope == .folder("News / Weather") && mine[1].draft.isPaused)
            #expect(mine[2].draft.scope == .feed(other))
            #expect(mine.first?.createdAt == now && mine.first?.flag == nil)
            #expect(try await store.rules(user: UserID(2)).map(\.id) == [theirs.id])

            try await store.moveRule(third.id, earlier: true, user: .owner)
            #expect(try await store.rules(user: .owner).map(\.id) == [first.id, third.id, second.id])
            try await store.moveRule(first.id, earlier: true, user: .owner)  // first already
            #expect(try await store.rules(user: .owner).map(\.id) == [first.id, third.id, second.id])

            var changed = first.draft
            changed.query = "intitle:storm OR intitle:gale"
            changed.actions = [.star, .markRead]
            #expect(try await store.updateRule(first.id, to: changed, user: .owner))
            mine = try await store.rules(user: .owner)
            #expect(mine.first?.draft == changed)
            // Another user's rule is not mine to change or delete.
            #expect(try await store.updateRule(theirs.id, to: changed, user: .owner) == false)
            #expect(try await store.deleteRule(theirs.id, user: .owner) == false)
            #expect(try await store.deleteRule(second.id, user: .owner))
            #expect(try await store.rules(user: .owner).map(\.id) == [first.id, third.id])
            #expect(try await store.rules(user: UserID(2)).first?.draft.name == "Theirs")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func newEntriesAreJudgedOnArrivalByEachFollowersRules(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let url = try #require(URL(string: "https://weather.example/feed"))
            try await store.saveSubscriptions(
                [Subscription(id: feed, url: url, title: "Weather", folder: "Outside")], user: .owner)
            try await store.saveSubscriptions([Subscription(id: feed, url: url)], user: UserID(2))
            let stars = try await store.addRule(
                RuleDraft(name: "Storms", query: "intitle:storm", actions: [.star]), user: .owner, now: Date())
            let sponsored = try await store.addRule(
                RuleDraft(name: "Ads", query: "intitle:/^\\[Sponsored\\]/", scope: .folder("Outside"), actions: [.markRead]),
                user: .owner, now: Date())
            // Sees what the rules before it did.
            let starredRead = try await store.addRule(
                RuleDraft(name: "Starred are read", query: "is:starred feed:weather", actions: [.markRead]),
                user: .owner, now: Date())
            let paused = try await store.addRule(
                RuleDraft(name: "Paused", query: "sunny", actions: [.star], isPaused: true), user: .owner, now: Date())
            let elsewhere = try await store.addRule(
                RuleDraft(name: "Other feed", query: "sunny", scope: .feed(other), actions: [.star]), user: .owner, now: Date())

            try await store.saveSourceState(
                SourceState(entries: [
                    entry("1", "Storm warning for the coast"), entry("2", "[Sponsored] Umbrellas"),
                    entry("3", "Sunny all week"),
                ]), for: feed)

            let mine = try await store.readingList(EntryFilter(), user: .owner)
            let byTitle = Dictionary(uniqueKeysWithValues: mine.map { ($0.entry.title ?? "", $0) })
            #expect(byTitle["Storm warning for the coast"]?.isStarred == true)
            #expect(byTitle["Storm warning for the coast"]?.isRead == true)
            #expect(byTitle["[Sponsored] Umbrellas"]?.isRead == true)
            #expect(byTitle["[Sponsored] Umbrellas"]?.isStarred == false)
            #expect(byTitle["Sunny all week"]?.isRead == false && byTitle["Sunny all week"]?.isStarred == false)
            #expect(try await store.unreadCounts(user: .owner) == [feed: 1])
            #expect(try await store.starredCount(user: .owner) == 1)
            // Another follower without rules has every entry unread.
            #expect(try await store.unreadCounts(user: UserID(2)) == [feed: 3])
            #expect(try await store.starredCount(user: UserID(2)) == 0)

            let week = Date().addingTimeInterval(-7 * 86_400)
            #expect(try await store.ruleMatches(user: .owner, since: week) == [stars.id: 1, sponsored.id: 1, starredRead.id: 1])
            _ = (paused, elsewhere)

            // Only new entries are judged: the same list again, plus one, counts one more.
            try await store.saveSourceState(
                SourceState(entries: [
                    entry("4", "Another storm"), entry("1", "Storm warning for the coast"),
                    entry("2", "[Sponsored] Umbrellas"), entry("3", "Sunny all week"),
                ]), for: feed)
            #expect(try await store.ruleMatches(user: .owner, since: week) == [stars.id: 2, sponsored.id: 1, starredRead.id: 2])
            #expect(try await store.starredCount(user: .owner) == 2)
            #expect(try await store.unreadCounts(user: .owner) == [feed: 1])
            #expect(try await store.unreadCounts(user: UserID(2)) == [feed: 4])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aPatternOutOfItsBudgetFlagsTheRuleAndMatchesNothing(_ kind: StoreKind) async throws {
        try await withStore(kind, following: [feed]) { store in
            let rule = try await store.addRule(
                RuleDraft(name: "Slow", query: "content:/(a+)+$/", actions: [.markRead]), user: .owner, now: Date())
            let text = String(repeating: "a", count: 40_000) + "!"
            try await store.saveSourceState(SourceState(entries: [entry("1", "Long", summary: text)]), for: feed)
            #expect(try await store.unreadCounts(user: .owner) == [feed: 1])
            let flag = try #require(try await store.rules(user: .owner).first?.flag)
            #expect(flag.contains("(a+)+$") && flag.contains("took too long"))
            // Changing the rule clears its flag.
            #expect(try await store.updateRule(rule.id, to: RuleDraft(name: "Fast", query: "long", actions: [.markRead]), user: .owner))
            #expect(try await store.rules(user: .owner).first?.flag == nil)
        }
    }

    /// New entries a rule acts on, saved while the same user marks entries of that feed read: on
    /// PostgreSQL the rules' writes took the user's lock after the save had locked the feed's
    /// count, and a mark read holding the lock while waiting for that row deadlocked with them.
    @Test func rulesActingWhileTheUserReadsTheSameFeedNeverDeadlock() async throws {
        try await withStore(.postgres, following: [feed]) { store in
            _ = try await store.addRule(RuleDraft(name: "All", query: "storm", actions: [.star, .markRead]), user: .owner, now: Date())
            var entries: [Entry] = []
            for round in 1...30 {
                entries.insert(entry("r\(round)", "Storm \(round)"), at: 0)
                let list = entries
                let ids = try await store.readingList(EntryFilter(sources: [feed], limit: 100), user: .owner).map(\.id)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { try await store.saveSourceState(SourceState(entries: list), for: self.feed) }
                    group.addTask { _ = try await store.setRead(round.isMultiple(of: 2), ids: ids, user: .owner) }
                    try await group.waitForAll()
                }
            }
            #expect(try await store.starredCount(user: .owner) == 30)
        }
    }

    /// A pattern out of its budget on one entry is not run on the rest of the batch: one budget
    /// per save, not one per entry, inside the transaction every other write waits for.
    @Test func aRuleOutOfBudgetIsNotRunAgainOnTheRestOfTheBatch() {
        let slow = Rule(
            id: 7, draft: RuleDraft(name: "Slow", query: "content:/(a+)+$/", actions: [.markRead]), position: 1, createdAt: Date())
        let stars = Rule(id: 8, draft: RuleDraft(name: "Long", query: "long", actions: [.star]), position: 2, createdAt: Date())
        let text = String(repeating: "a", count: 40_000) + "!"
        let entries = (1...5).map { (id: Int64($0), entry: entry("\($0)", "Long \($0)", summary: text)) }
        let verdicts = ArrivalRules.judge(
            entries, of: feed, followers: [RuleFollower(user: .owner, feedName: "Weather", folder: nil, rules: [slow, stars])],
            receivedAt: Date(), now: Date())
        let verdict = verdicts[.owner]
        #expect(verdict?.flags[7] == "(a+)+$")
        #expect(verdict?.skipped == 4)
        #expect(verdict?.read.isEmpty == true)
        // The other rules still judge every entry.
        #expect(verdict?.starred == [1, 2, 3, 4, 5])
    }
}
