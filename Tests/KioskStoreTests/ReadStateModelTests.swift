import Foundation
import KioskCore
import KioskModel
import KioskSources
import KioskStore
import Testing

/// SQLite keeps read state as a mark per feed plus per-entry exceptions (`Schema.readMarks`);
/// `PlainModelStore` keeps one flag per entry, the plain model. Random sequences of what a
/// reader does (new entries, read, unread, mark all with a stale or a fresh view, star, retention)
/// must leave both with the same unread lists, counts and answers, step by step.
@Suite struct ReadStateModelTests {
    /// A small deterministic generator (SplitMix64), so a failure replays from its seed.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    private static let feeds: [SourceID] = ["a", "b", "c"]
    /// The owner follows every feed; a second user follows a and b, each with their own state.
    private static let second = UserID(2)
    private static let users: [UserID] = [.owner, second]

    private func entry(_ number: Int) -> Entry {
        Entry(
            id: "urn:\(number)", title: "Entry \(number)",
            published: Date(timeIntervalSince1970: 1_700_000_000 + Double((number * 7_919) % 1_000) * 60))
    }

    /// The reader's view of a store, by entry key (ids differ between the two stores).
    private func view(_ store: any KioskStore, _ user: UserID) async throws
        -> (unread: [String], read: [String], counts: [SourceID: Int])
    {
        let all = try await store.readingList(EntryFilter(limit: 10_000), user: user)
        let unread = try await store.readingList(EntryFilter(unreadOnly: true, limit: 10_000), user: user)
        #expect(Set(unread.map(\.key)) == Set(all.filter { !$0.isRead }.map(\.key)))
        return (unread.map(\.key), all.filter(\.isRead).map(\.key).sorted(), try await store.unreadCounts(user: user))
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func sqliteAgreesWithThePlainModel(seed: UInt64) async throws {
        try await withStore(.sqlite, following: Self.feeds) { sqlite in
            let model = PlainModelStore()
            try await model.follow(Self.feeds)
            try await sqlite.follow(["a", "b"], user: Self.second)
            try await model.follow(["a", "b"], user: Self.second)
            var random = Generator(state: seed)
            var lists: [SourceID: ClosedRange<Int>] = [:]
            var next = 1
            for step in 0..<60 {
                let stores: [any KioskStore] = [sqlite, model]
                let user = Self.users.randomElement(using: &random) ?? .owner
                switch Int.random(in: 0..<11, using: &random) {
                case 0...2:  // a feed moves on: some entries leave, new ones arrive
                    let feed = Self.feeds.randomElement(using: &random) ?? "a"
                    let added = Int.random(in: 0...4, using: &random)
                    let start = (lists[feed]?.lowerBound ?? next) + Int.random(in: 0...2, using: &random)
                    let list = min(start, next)...(next + added)
                    next += added + 1
                    lists[feed] = list
                    for store in stores {
                        try await store.saveSourceState(SourceState(entries: list.map(entry)), for: feed)
                    }
                case 3, 4:  // read or unread some entries
                    let value = Bool.random(using: &random)
                    let keys = try await sqlite.readingList(EntryFilter(limit: 10_000), user: user).map(\.key)
                    let chosen = Set(keys.filter { _ in Int.random(in: 0..<3, using: &random) == 0 })
                    var changed: [[String]] = []
                    for store in stores {
                        let rows = try await store.readingList(EntryFilter(limit: 10_000), user: user).filter { chosen.contains($0.key) }
                        let ids = try await store.setRead(value, ids: rows.map(\.id), user: user)
                        changed.append(rows.filter { ids.contains($0.id) }.map(\.key).sorted())
                    }
                    #expect(changed[0] == changed[1], "step \(step): setRead(\(value))")
                case 5, 6:  // mark all read, with a view that may be stale
                    let scope: [SourceID]? = Bool.random(using: &random) ? nil : [Self.feeds.randomElement(using: &random) ?? "a"]
                    let back = Int.random(in: 0...3, using: &random)
                    var marked: [[String]] = []
                    for store in stores {
                        let byID = try await store.readingList(EntryFilter(limit: 10_000), user: user).sorted { $0.id > $1.id }
                        let upTo = byID.dropFirst(back).first?.id ?? 0
                        let ids = Set(try await store.markAllRead(sources: scope, upTo: upTo, user: user))
                        marked.append(byID.filter { ids.contains($0.id) }.map(\.key).sorted())
                    }
                    #expect(marked[0] == marked[1], "step \(step): markAllRead(\(String(describing: scope)))")
                case 7:  // star something
                    let key = try await sqlite.readingList(EntryFilter(limit: 10_000), user: user).randomElement(using: &random)?.key
                    for store in stores {
                        let ids = try await store.readingList(EntryFilter(limit: 10_000), user: user).filter { $0.key == key }.map(\.id)
                        _ = try await store.setStarred(true, ids: ids, user: user)
                    }
                case 8:  // retention with a small cap: entries go, marks must not swallow later ones
                    let policy = RetentionPolicy(maxAge: .seconds(86_400 * 365), maxPerFeed: Int.random(in: 1...4, using: &random))
                    let removed = [try await sqlite.prune(policy, now: Date()), await model.prune(policy, now: Date())]
                    #expect(removed[0] == removed[1], "step \(step): prune")
                case 9:  // the second user stops following b, or follows it again (all of it unread)
                    let follows = try await sqlite.subscriptions(user: Self.second).contains { $0.id == "b" }
                    for store in stores {
                        if follows {
                            try await store.removeSubscription("b", user: Self.second)
                        } else {
                            try await store.follow(["b"], user: Self.second)
                        }
                    }
                default:  // a feed emptied
                    let feed = Self.feeds.randomElement(using: &random) ?? "a"
                    lists[feed] = nil
                    for store in stores { try await store.saveSourceState(SourceState(entries: []), for: feed) }
                }
                for reader in Self.users {
                    let (left, right) = (try await view(sqlite, reader), try await view(model, reader))
                    #expect(left.unread == right.unread, "step \(step): unread lists of \(reader)")
                    #expect(left.read == right.read, "step \(step): read entries of \(reader)")
                    #expect(left.counts == right.counts, "step \(step): counts of \(reader)")
                }
            }
        }
    }
}
