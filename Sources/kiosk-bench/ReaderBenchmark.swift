import ArgumentParser
import AsyncHTTPClient
import Foundation
import Hummingbird
import KioskCore
import KioskModel
import KioskReader
import KioskSQLite
import KioskSources
import KioskStore
import KioskWeb
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import Synchronization

/// `kiosk-bench reader`: the reader's goals (issue "Your own reader"), on SQLite in a temporary
/// directory: importing a 1,000-feed OPML, unread counts for 1,000 feeds over 1,000,000 entries,
/// marking 100,000 entries read (and undoing it), the reader page with 1,000 feeds against
/// `/healthz` over loopback HTTP, and the database's size after 30 simulated days with retention.
struct ReaderBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reader",
        abstract: "Reader: OPML import, unread counts, mark-all-read, reader page/s, database size over 30 days."
    )

    @Option(help: "Feeds subscribed.") var feeds = 1_000
    @Option(help: "Entries per feed for the counts and mark-all-read cases.") var entriesPerFeed = 1_000
    @Option(help: "Seconds of HTTP load per route.") var seconds = 10
    @Option(help: "Concurrent HTTP requests.") var connections = 16
    @Option(help: "Simulated days for the database-size case (0 skips it).") var days = 30

    func run() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-bench-reader-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let logger = Logger(label: "kiosk.bench") { _ in SwiftLogNoOpLogHandler() }
        print("kiosk-bench reader: \(feeds) feeds, SQLite (WAL) in \(directory.path)")
        print("  \(ProcessInfo.processInfo.activeProcessorCount) cores, load average \(SSEProcess.loadAverage() ?? "?")")
        print("")

        let store = try SQLiteStore(path: directory.appendingPathComponent("reader.sqlite"))
        let reader = Reader(
            store: store, scheduler: IdleScheduler(),
            finder: FeedFinder(fetcher: NoFetcher(), policy: AddressPolicy()), policy: AddressPolicy())
        try await reader.start(builtIn: [], configured: [])

        // 1. OPML import.
        let opml = Array(Self.opml(feeds: feeds).utf8)
        let clock = ContinuousClock()
        var start = clock.now
        let report = try await reader.importOPML(opml, user: .owner)
        let importTime = clock.now - start
        print("OPML import: \(report.added.count) feeds in 50 folders, \(opml.count / 1024) KiB: \(Self.ms(importTime)) ms (parse, check, save)")

        // 2. 1,000,000 entries, then unread counts.
        let subscriptions = try await reader.subscriptions(user: .owner)
        start = clock.now
        for (index, subscription) in subscriptions.enumerated() {
            let entries = (0..<entriesPerFeed).map { Self.entry(feed: index, number: $0) }
            try await store.saveSourceState(SourceState(entries: entries), for: subscription.id)
        }
        let total = subscriptions.count * entriesPerFeed
        let fillTime = clock.now - start
        print("filled \(total) entries in \(String(format: "%.1f", (fillTime / .seconds(1)))) s (\(Int(Double(total) / (fillTime / .seconds(1)))) entries/s, first saves)")
        var countTimes: [Duration] = []
        var unread = 0
        for _ in 0..<5 {
            start = clock.now
            unread = try await store.unreadCounts(user: .owner).values.reduce(0, +)
            countTimes.append(clock.now - start)
        }
        print("unread counts, \(subscriptions.count) feeds over \(total) entries (\(unread) unread): median \(Self.ms(Self.median(countTimes))) ms, best \(Self.ms(countTimes.min() ?? .zero)) ms (goal ≤ 50 ms)")

        // 3. Mark all read: 100 feeds of 1,000 = 100,000 entries; then undo.
        let folder = "Folder 0"
        let inFolder = try await reader.sources(in: .folder(folder), user: .owner)?.count ?? 0
        let markFeeds = Array(subscriptions.prefix(max(1, 100_000 / max(entriesPerFeed, 1))).map(\.id))
        start = clock.now
        let marked = try await store.markAllRead(sources: markFeeds, upTo: .max, user: .owner)
        let markTime = clock.now - start
        print("mark all read: \(marked.count) entries of \(markFeeds.count) feeds: \(Self.ms(markTime)) ms (goal ≤ 100 ms)")
        start = clock.now
        let undone = try await store.setRead(false, ids: marked, user: .owner)
        print("undo (mark them unread again): \(undone.count) entries: \(Self.ms(clock.now - start)) ms")
        _ = inFolder

        // 4. The reader page with 1,000 feeds, against /healthz, over loopback HTTP.
        try await pages(store: store, directory: directory, logger: logger)

        // 5. 30 days of 1,000 feeds with retention.
        try store.close()
        if days > 0 { try await simulateDays(directory: directory) }
    }

    // MARK: - Pages

    private func pages(store: SQLiteStore, directory: URL, logger: Logger) async throws {
        // A reader of its own over the same store, as a restarted server would have.
        let bench = try await BenchApp.assemble(store: store, directory: directory, logger: logger)
        let serverTask = try await bench.start(logger: logger)
        defer { serverTask.cancel() }
        let client = bench.client
        let base = bench.base
        let page = try await client.execute(HTTPClientRequest(url: base + "/reader"), timeout: .seconds(30))
        let bytes = try await page.body.collect(upTo: 64 << 20).readableBytes
        print("")
        print("reader page (/reader, \(feeds) feeds, \(bytes / 1024) KiB) against /healthz, \(connections) connections, \(seconds) s each, client in this process:")
        for path in ["/healthz", "/reader", "/reader/all"] {
            let (requests, failures) = try await load(client: client, url: base + path)
            print("  \(path.padding(toLength: 12, withPad: " ", startingAt: 0)) \(Int(Double(requests) / Double(seconds))) requests/s\(failures > 0 ? ", \(failures) failed" : "")")
        }
        serverTask.cancel()
        _ = await serverTask.result
        try await client.shutdown()
    }

    private func load(client: HTTPClient, url: String) async throws -> (Int, Int) {
        let deadline = ContinuousClock.now + .seconds(seconds)
        return await withTaskGroup(of: (Int, Int).self) { group in
            for _ in 0..<connections {
                group.addTask {
                    var done = 0
                    var failed = 0
                    while ContinuousClock.now < deadline {
                        do {
                            let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
                            _ = try await response.body.collect(upTo: 64 << 20)
                            if response.status == .ok { done += 1 } else { failed += 1 }
                        } catch {
                            failed += 1
                        }
                    }
                    return (done, failed)
                }
            }
            var totals = (0, 0)
            for await (done, failed) in group {
                totals.0 += done
                totals.1 += failed
            }
            return totals
        }
    }

    // MARK: - Days

    /// Each simulated day every feed publishes `perDay` entries (its feed keeps the newest 50),
    /// the engine saves each feed's list once, and retention runs once (the default policy:
    /// 60 days, 1,000 per feed, so nothing is old enough to go within 30 days, and a
    /// 14-day policy beside it for comparison).
    private func simulateDays(directory: URL) async throws {
        print("")
        print("\(days) simulated days, \(feeds) feeds, 20 new entries per feed per day, feeds list their newest 50:")
        for (label, policy) in [("default (60 days, 1,000/feed)", RetentionPolicy(maxAge: .seconds(60 * 86_400), maxPerFeed: 1_000)), ("14 days, 500/feed", RetentionPolicy(maxAge: .seconds(14 * 86_400), maxPerFeed: 500))] {
            let day = Mutex(Date(timeIntervalSince1970: 1_767_225_600))  // 2026-01-01
            let file = directory.appendingPathComponent("days-\(UUID()).sqlite")
            let store = try SQLiteStore(path: file, now: { day.withLock { $0 } })
            let perDay = 20
            // The owner follows every feed (the reading list counts what is kept).
            try await store.saveSubscriptions(
                (0..<feeds).compactMap { feed in
                    URL(string: "https://feed\(feed).example/feed.xml").map { Subscription(id: SourceID("f\(feed)"), url: $0) }
                }, user: .owner)
            let clock = ContinuousClock()
            let start = clock.now
            for number in 0..<days {
                for feed in 0..<feeds {
                    let newest = (number + 1) * perDay
                    let entries = (max(0, newest - 50)..<newest).reversed().map { Self.entry(feed: feed, number: $0, day: number) }
                    try await store.saveSourceState(SourceState(entries: entries), for: SourceID("f\(feed)"))
                }
                _ = try await store.prune(policy, now: day.withLock { $0 })
                day.withLock { $0 = $0.addingTimeInterval(86_400) }
            }
            let kept = try await store.readingList(EntryFilter(limit: 10_000_000), user: .owner).count
            try store.close()
            let size = Self.fileSize(file) + Self.fileSize(URL(fileURLWithPath: file.path + "-wal"))
            print("  retention \(label): \(kept) entries kept, database \(size / 1_048_576) MB (\(String(format: "%.0f", (clock.now - start) / .seconds(1))) s to simulate)")
        }
    }

    // MARK: - Data

    static func opml(feeds: Int) -> String {
        var body = ""
        for folder in 0..<50 {
            body += "<outline text=\"Folder \(folder)\">\n"
            for feed in stride(from: folder, to: feeds, by: 50) {
                body += "  <outline type=\"rss\" text=\"Feed \(feed)\" xmlUrl=\"https://feeds\(feed % 97).example.com/feed/\(feed).xml\" htmlUrl=\"https://feeds\(feed % 97).example.com/\"/>\n"
            }
            body += "</outline>\n"
        }
        return "<?xml version=\"1.0\"?><opml version=\"2.0\"><head><title>bench</title></head><body>\n\(body)</body></opml>"
    }

    static func entry(feed: Int, number: Int, day: Int = 0) -> Entry {
        Entry(
            id: "urn:f\(feed):\(number)", title: "Entry \(number) of feed \(feed): a headline of ordinary length",
            link: "https://example.com/\(feed)/\(number)",
            published: Date(timeIntervalSince1970: 1_700_000_000 + Double(number * 3_600 + day * 86_400)),
            summary: "<p>A short summary of entry \(number), with <b>some</b> markup, as feeds have.</p>")
    }

    private static func fileSize(_ url: URL) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    private static func ms(_ duration: Duration) -> String { String(format: "%.1f", duration / .milliseconds(1)) }

    private static func median(_ values: [Duration]) -> Duration {
        let sorted = values.sorted()
        return sorted.isEmpty ? .zero : sorted[sorted.count / 2]
    }
}

/// The finder of a benchmark's reader never fetches.
struct NoFetcher: Fetching {
    func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResult {
        throw .network("the benchmark fetches nothing")
    }
}
