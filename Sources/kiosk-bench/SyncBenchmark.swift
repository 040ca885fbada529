import ArgumentParser
import AsyncHTTPClient
import Foundation
import Hummingbird
import KioskAccounts
import KioskCore
import KioskModel
import KioskPostgres
import KioskReader
import KioskSQLite
import KioskSources
import KioskStore
import KioskTesting
import KioskWeb
import Logging
import NIOCore
import NIOHTTP1
import PostgresNIO
import ServiceLifecycle

/// `kiosk-bench sync`: the sync API's goals (issue "Accounts and sync"), on SQLite over loopback
/// HTTP, with the client in this process: a first sync of 10,000 entries as NetNewsWire does it
/// (lists, token, every ids page at n=1000 since three months ago, unread and starred ids, then
/// contents in chunks of 150), and an incremental sync with nothing new (lists with their ETags,
/// ids since the last sync, unread and starred ids).
struct SyncBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync: a NetNewsWire-style first sync of 10,000 entries and an incremental one, in ms."
    )

    @Option(help: "Entries in all.") var entries = 10_000
    @Option(help: "Feeds they are spread over.") var feeds = 100
    @Option(help: "Timed runs of each sync (after one untimed warm-up).") var runs = 5
    @Option(help: "Run on this PostgreSQL database instead of SQLite (in a schema of its own, dropped afterwards).")
    var databaseURL: String?

    func run() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-bench-sync-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let logger = Logger(label: "kiosk.bench") { _ in SwiftLogNoOpLogHandler() }
        guard let databaseURL else {
            print("kiosk-bench sync: \(entries) entries in \(feeds) feeds, SQLite (WAL) in \(directory.path)")
            print("  \(ProcessInfo.processInfo.activeProcessorCount) cores, load average \(SSEProcess.loadAverage() ?? "?")")
            let store = try SQLiteStore(path: directory.appendingPathComponent("sync.sqlite"))
            try await measure(store, directory: directory, logger: logger)
            try store.close()
            return
        }
        print("kiosk-bench sync: \(entries) entries in \(feeds) feeds, PostgreSQL")
        print("  \(ProcessInfo.processInfo.activeProcessorCount) cores, load average \(SSEProcess.loadAverage() ?? "?")")
        var configuration = try PostgresURL.configuration(databaseURL)
        let schema = "kiosk_bench_\(UInt32.random(in: 0...UInt32.max))"
        try await TestDatabase.withClient(configuration, logger: logger) {
            try await $0.query("CREATE SCHEMA \(unescaped: schema)", logger: logger)
        }
        configuration.options.additionalStartupParameters = [("search_path", schema)]
        do {
            try await TestDatabase.withClient(configuration, logger: logger) { client in
                let store = PostgresStore(client: client, logger: logger)
                try await store.migrate()
                try await measure(store, directory: directory, logger: logger)
            }
        } catch {
            print("failed: \(String(reflecting: error))")
        }
        configuration.options.additionalStartupParameters = []
        try await TestDatabase.withClient(configuration, logger: logger) {
            try await $0.query("DROP SCHEMA \(unescaped: schema) CASCADE", logger: logger)
        }
    }

    private func measure(_ store: any KioskStore, directory: URL, logger: Logger) async throws {
        let bench = try await BenchApp.assemble(store: store, directory: directory, logger: logger)
        let client = bench.client
        let port = bench.port
        let dependencies = bench.dependencies
        let account = try await dependencies.accounts.add(name: "bench", password: "bench-password", isAdmin: true)
        let perFeed = max(1, entries / max(feeds, 1))
        var subscriptions: [Subscription] = []
        for feed in 0..<feeds {
            guard let url = URL(string: "https://feed\(feed).example/feed.xml") else { continue }
            subscriptions.append(Subscription(id: SourceID("f\(feed)"), url: url, feedTitle: "Feed \(feed)", folder: "Folder \(feed % 10)"))
        }
        try await store.saveSubscriptions(subscriptions, user: account.id)
        for (index, subscription) in subscriptions.enumerated() {
            let list = (0..<perFeed).map { number in
                Entry(
                    id: "urn:\(index):\(number)", title: "Entry \(number) of feed \(index)", link: "https://feed\(index).example/\(number)",
                    published: Date(timeIntervalSince1970: 1_790_000_000 + Double(number * 60)),
                    summary: "<p>The summary of entry \(number), with <a href=\"https://example.com\">a link</a>.</p>")
            }
            try await store.saveSourceState(SourceState(entries: list), for: subscription.id)
        }

        let serverTask = try await bench.start(logger: logger)
        defer { serverTask.cancel() }
        let api = SyncClient(client: client, base: "http://127.0.0.1:\(port)/api/greader")

        let clock = ContinuousClock()
        var start = clock.now
        try await api.login(name: "bench", password: "bench-password")
        print("ClientLogin (bcrypt cost 12, once per device): \(Self.ms(clock.now - start)) ms")

        var firstTimes: [Duration] = []
        var synced = 0
        var lastSync = Date()
        for run in 0...runs {
            start = clock.now
            let syncStart = Date()
            synced = try await api.firstSync()
            if run > 0 { firstTimes.append(clock.now - start) }
            lastSync = syncStart
        }
        print("first sync, \(synced) entries (lists, token, ids pages, unread and starred ids, contents in chunks of 150):")
        print("  median \(Self.ms(Self.median(firstTimes))) ms, best \(Self.ms(firstTimes.min() ?? .zero)) ms over \(runs) runs (goal ≤ 1,000 ms)")

        for (label, prepare) in [("\(entries) unread", false), ("all read", true)] {
            if prepare { try await api.markAllRead() }
            var times: [Duration] = []
            for run in 0...runs {
                start = clock.now
                _ = try await api.incrementalSync(since: lastSync)
                if run > 0 { times.append(clock.now - start) }
            }
            print("incremental sync, nothing new, \(label): median \(Self.ms(Self.median(times))) ms, best \(Self.ms(times.min() ?? .zero)) ms (goal ≤ 20 ms)")
        }
        serverTask.cancel()
        _ = await serverTask.result
        try await client.shutdown()
    }

    static func ms(_ duration: Duration) -> String {
        String(format: "%.1f", duration / .milliseconds(1))
    }

    static func median(_ values: [Duration]) -> Duration {
        let sorted = values.sorted()
        return sorted.isEmpty ? .zero : sorted[sorted.count / 2]
    }
}

/// NetNewsWire's calls, as a benchmark client.
private actor SyncClient {
    let client: HTTPClient
    let base: String
    var auth = ""
    var token = ""
    var etags: [String: String] = [:]

    init(client: HTTPClient, base: String) {
        self.client = client
        self.base = base
    }

    func login(name: String, password: String) async throws {
        let body = try await send("POST", "/accounts/ClientLogin", body: "Email=\(name)&Passwd=\(password)", authorized: false)
        auth = body.split(separator: "\n").first { $0.hasPrefix("Auth=") }.map { String($0.dropFirst(5)) } ?? ""
        token = try await send("GET", "/reader/api/0/token")
    }

    /// What `refreshAll` does on a new account; returns how many entries came.
    func firstSync() async throws -> Int {
        etags = [:]
        _ = try await send("GET", "/reader/api/0/tag/list?output=json")
        _ = try await send("GET", "/reader/api/0/subscription/list?output=json")
        let ot = Int(Date().timeIntervalSince1970) - 90 * 86_400
        let all = try await ids("n=1000&output=json&ot=\(ot)&s=user/-/state/com.google/reading-list")
        _ = try await ids("n=1000&output=json&s=user/-/state/com.google/reading-list&xt=user/-/state/com.google/read")
        _ = try await ids("n=1000&output=json&s=user/-/state/com.google/starred")
        var count = 0
        for start in stride(from: 0, to: all.count, by: 150) {
            let chunk = all[start..<min(start + 150, all.count)]
            let items = chunk.compactMap { Int($0) }.map { "i=tag:google.com,2005:reader/item/" + String($0, radix: 16) }
            let body = try await send("POST", "/reader/api/0/stream/items/contents", body: (["T=\(token)", "output=json"] + items).joined(separator: "&"))
            // Each item ends with its origin: counted on the bytes (a String search would cost
            // this client more than the server spends answering).
            count += Self.occurrences(of: Array(#""origin":"#.utf8), in: Array(body.utf8))
        }
        return count
    }

    static func occurrences(of needle: [UInt8], in haystack: [UInt8]) -> Int {
        guard let first = needle.first, haystack.count >= needle.count else { return 0 }
        var count = 0
        var index = 0
        while index <= haystack.count - needle.count {
            if haystack[index] == first, haystack[index..<index + needle.count].elementsEqual(needle) {
                count += 1
                index += needle.count
            } else {
                index += 1
            }
        }
        return count
    }

    /// What a later refresh with nothing new does.
    func incrementalSync(since: Date) async throws -> Int {
        _ = try await send("GET", "/reader/api/0/tag/list?output=json", conditional: true)
        _ = try await send("GET", "/reader/api/0/subscription/list?output=json", conditional: true)
        let new = try await ids("n=1000&output=json&ot=\(Int(Date().timeIntervalSince1970) + 1)&s=user/-/state/com.google/reading-list")
        _ = try await ids("n=1000&output=json&s=user/-/state/com.google/reading-list&xt=user/-/state/com.google/read", keep: false)
        _ = try await ids("n=1000&output=json&s=user/-/state/com.google/starred", keep: false)
        return new.count
    }

    func markAllRead() async throws {
        _ = try await send("POST", "/reader/api/0/mark-all-as-read", body: "T=\(token)&s=user/-/state/com.google/reading-list")
    }

    /// Every page of ids; decoded only when `keep` (else only the continuation is looked for, so
    /// the figure is mostly the server's, not this client's JSON decoding).
    private func ids(_ query: String, keep: Bool = true) async throws -> [String] {
        var all: [String] = []
        var continuation: String?
        repeat {
            let body = try await send("GET", "/reader/api/0/stream/items/ids?" + query + (continuation.map { "&c=\($0)" } ?? ""))
            if keep {
                let page = try JSONDecoder().decode(Page.self, from: Data(body.utf8))
                all += page.itemRefs.map(\.id)
                continuation = page.continuation
            } else if let tail = String(body.utf8.suffix(80)), let range = tail.range(of: #""continuation":""#) {
                // Kiosk writes the continuation last: look only at the end.
                continuation = String(tail[range.upperBound...].prefix { $0 != "\"" })
            } else {
                continuation = nil
            }
        } while continuation != nil
        return all
    }

    private struct Page: Decodable {
        struct Ref: Decodable { var id: String }
        var itemRefs: [Ref]
        var continuation: String?
    }

    private func send(_ method: String, _ path: String, body: String? = nil, authorized: Bool = true, conditional: Bool = false)
        async throws -> String
    {
        var request = HTTPClientRequest(url: base + path)
        request.method = HTTPMethod(rawValue: method)
        if authorized { request.headers.add(name: "Authorization", value: "GoogleLogin auth=\(auth)") }
        if conditional, let tag = etags[path] { request.headers.add(name: "If-None-Match", value: tag) }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            request.body = .bytes(ByteBuffer(string: body))
        }
        let response = try await client.execute(request, timeout: .seconds(60))
        if let tag = response.headers.first(name: "ETag") { etags[path] = tag }
        let bytes = try await response.body.collect(upTo: 64 << 20)
        guard response.status == .ok || response.status == .notModified else {
            throw SyncBenchError("\(method) \(path): HTTP \(response.status.code)")
        }
        return String(buffer: bytes)
    }
}

struct SyncBenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
