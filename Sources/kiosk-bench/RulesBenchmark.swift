import ArgumentParser
import Foundation
import KioskCore
import KioskModel
import KioskReader
import KioskSQLite
import KioskStore

/// `kiosk-bench rules`: the rules' goals (issue "Rules, labels and alerts"), on SQLite in a
/// temporary directory: 100 rules judging 10,000 new entries (the judging alone, then the stores'
/// saves with and without the rules, whose difference is what rules cost on arrival), and the
/// saved searches' unread counts over a large store.
struct RulesBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "Rules: 100 rules over 10,000 new entries; saved-search counts over many entries."
    )

    @Option(help: "Rules of the one user.") var rules = 100
    @Option(help: "Feeds the new entries arrive in.") var feeds = 100
    @Option(help: "New entries per feed.") var entriesPerFeed = 100
    @Option(help: "Entries in the store for the saved-search counts (0 skips them).") var searchEntries = 1_000_000

    func run() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-bench-rules-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let total = feeds * entriesPerFeed
        print("kiosk-bench rules: \(rules) rules, \(feeds) feeds × \(entriesPerFeed) new entries = \(total), SQLite (WAL) in \(directory.path)")
        print("")
        let drafts = Self.drafts(count: rules, feeds: feeds)
        let lists = (0..<feeds).map { feed in (0..<entriesPerFeed).map { Self.entry(feed: feed, number: $0) } }

        // 1. The judging alone (what both stores run in the inserting transaction).
        let follower = RuleFollower(
            user: .owner, feedName: "Feed 0", folder: "Folder 0",
            rules: drafts.enumerated().map { Rule(id: Int64($0.offset + 1), draft: $0.element, position: $0.offset, createdAt: Date()) })
        let now = Date(timeIntervalSince1970: 1_700_100_000)
        let arrivals = lists.enumerated().map { feed, list in
            list.enumerated().map { (id: Int64(feed * entriesPerFeed + $0.offset + 1), entry: $0.element) }
        }
        let judged = Measure.repeated(3) {
            var starred = 0
            var read = 0
            for (feed, list) in arrivals.enumerated() {
                let verdicts = ArrivalRules.judge(
                    list, of: SourceID("f\(feed)"), followers: [follower], receivedAt: now, now: now)
                starred += verdicts[.owner]?.starred.count ?? 0
                read += verdicts[.owner]?.read.count ?? 0
            }
            return (starred, read)
        }
        print("judging \(total) new entries by \(rules) rules (one user): best \(Self.ms(judged.timing.best)) ms, median \(Self.ms(judged.timing.median)) ms (goal ≤ 1,000 ms); \(judged.result.0) starred, \(judged.result.1) marked read")

        // 2. The stores' saves of those entries, without rules and with them.
        let plain = try await saves(lists, rules: [], in: directory.appendingPathComponent("plain.sqlite"))
        let ruled = try await saves(lists, rules: drafts, in: directory.appendingPathComponent("ruled.sqlite"))
        print("saving them, \(feeds) saves: without rules \(Self.ms(plain)) ms, with \(rules) rules \(Self.ms(ruled)) ms: rules cost \(Self.ms(ruled - plain)) ms on arrival")

        // 3. Saved-search counts over a large store.
        if searchEntries > 0 { try await searchCounts(in: directory.appendingPathComponent("search.sqlite")) }
    }

    /// Saves every list once into a fresh store whose owner follows the feeds and has `rules`.
    private func saves(_ lists: [[Entry]], rules: [RuleDraft], in file: URL) async throws -> Duration {
        let store = try SQLiteStore(path: file)
        defer { try? store.close() }
        try await store.saveSubscriptions(Self.subscriptions(feeds), user: .owner)
        for draft in rules { _ = try await store.addRule(draft, user: .owner, now: Date()) }
        let clock = ContinuousClock()
        let start = clock.now
        for (feed, list) in lists.enumerated() {
            try await store.saveSourceState(SourceState(entries: list), for: SourceID("f\(feed)"))
        }
        return clock.now - start
    }

    private func searchCounts(in file: URL) async throws {
        let store = try SQLiteStore(path: file)
        defer { try? store.close() }
        let searchFeeds = max(1, searchEntries / 1_000)
        let subscriptions = Self.subscriptions(searchFeeds)
        try await store.saveSubscriptions(subscriptions, user: .owner)
        let clock = ContinuousClock()
        let start = clock.now
        for feed in 0..<searchFeeds {
            let list = (0..<1_000).map { Self.entry(feed: feed, number: $0) }
            try await store.saveSourceState(SourceState(entries: list), for: SourceID("f\(feed)"))
        }
        print("")
        print("filled \(searchFeeds * 1_000) entries for the saved searches in \(String(format: "%.1f", (clock.now - start) / .seconds(1))) s")
        let searches = SavedSearches(store: store)
        let queries = [
            ("words", "storm coast"), ("a field", "intitle:markets"), ("a phrase", "\"oil prices\""),
            ("words and a regex", "storm intitle:/^Entry 1\\d/"), ("no words (the newest 5,000 judged)", "is:unread -storm"),
        ]
        for (_, query) in queries {
            _ = try await searches.save(query, user: .owner)
        }
        let all = try await store.savedSearches(user: .owner)
        for (index, (label, _)) in queries.enumerated() {
            guard index < all.count else { break }
            let search = all[index]
            let timing = try await Self.timed(5) {
                _ = try await searches.entries(
                    of: search, user: .owner, subscriptions: subscriptions, unreadOnly: true, limit: SavedSearches.countCap)
            }
            print("  count of \(label) (\(search.query)): median \(Self.ms(timing.median)) ms, best \(Self.ms(timing.best)) ms (goal ≤ 50 ms)")
        }
        let every = try await Self.timed(5) { _ = try await searches.unreadCounts(user: .owner, subscriptions: subscriptions) }
        print("  all \(all.count) saved searches' counts together: median \(Self.ms(every.median)) ms")
    }

    private static func timed(_ runs: Int, _ body: () async throws -> Void) async throws -> Measure.Timing {
        let clock = ContinuousClock()
        var samples: [Duration] = []
        for _ in 0..<runs {
            let start = clock.now
            try await body()
            samples.append(clock.now - start)
        }
        return Measure.Timing(samples: samples)
    }

    /// `count` rules of every kind a user writes: words, phrases, exclusions, OR, fields, states,
    /// dates and (one in ten) a regular expression, over every scope, marking read or starring.
    static func drafts(count: Int, feeds: Int) -> [RuleDraft] {
        let words = ["storm", "markets", "oil", "election", "court", "bank", "flood", "quake", "music", "film"]
        return (0..<count).map { index in
            let word = words[index % words.count]
            let other = words[(index + 3) % words.count]
            let query: String
            switch index % 10 {
            case 0: query = "intitle:/^(Breaking|Update)[: ]/ \(word)"
            case 1: query = "\"\(word) prices\" -\(other)"
            case 2: query = "intitle:\(word) OR intitle:\(other)"
            case 3: query = "author:reporter\(index) \(word)"
            case 4: query = "inurl:example.com/\(index % feeds)/ -is:starred"
            case 5: query = "(\(word) OR \(other)) date:P7D"
            case 6: query = "feed:\"Feed \(index % feeds)\" \(word)"
            case 7: query = "content:\(word)* -\"\(other) report\""
            case 8: query = "folder:\"Folder \(index % 10)\" is:unread \(word)"
            default: query = "\(word) \(other)"
            }
            let scope: RuleScope =
                switch index % 3 {
                case 0: .all
                case 1: .folder("Folder \(index % 10)")
                default: .feed(SourceID("f\(index % feeds)"))
                }
            return RuleDraft(name: "Rule \(index)", query: query, scope: scope, actions: index.isMultiple(of: 2) ? [.star] : [.markRead])
        }
    }

    static func subscriptions(_ count: Int) -> [Subscription] {
        (0..<count).compactMap { feed in
            URL(string: "https://example.com/\(feed)/feed.xml").map {
                Subscription(id: SourceID("f\(feed)"), url: $0, feedTitle: "Feed \(feed)", folder: "Folder \(feed % 10)")
            }
        }
    }

    /// Entry `number` of feed `feed`: an ordinary headline and summary, some with the rules' words.
    static func entry(feed: Int, number: Int) -> Entry {
        let topics = ["storm", "markets", "oil prices", "election", "court", "bank", "flood", "quake", "music", "film", "garden"]
        let topic = topics[(feed * 7 + number) % topics.count]
        return Entry(
            id: "urn:f\(feed):\(number)", title: "Entry \(number) of feed \(feed): \(topic) news of ordinary length",
            link: "https://example.com/\(feed)/\(number)",
            published: Date(timeIntervalSince1970: 1_700_000_000 + Double(number * 60)),
            authors: [Author(name: "Reporter \(number % 50)")],
            summary: "<p>A short summary of entry \(number) about \(topic), with <b>some</b> markup, as feeds have.</p>")
    }

    private static func ms(_ duration: Duration) -> String { String(format: "%.1f", duration / .milliseconds(1)) }
}
