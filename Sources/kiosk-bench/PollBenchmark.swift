import ArgumentParser
import Foundation
import KioskDemo
import KioskModel
import KioskSources

#if canImport(Glibc)
import Glibc
#endif

/// `kiosk-bench poll`: how many checks per second the engine sustains against the loopback
/// sample server, for N sources, on the 304 path (nothing changes) and the changed path (every
/// answer carries a new entry, so every check parses and publishes).
struct PollBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "poll",
        abstract: "Engine polls/s against the loopback sample server (304 path and changed path)."
    )

    @Option(help: "Comma-separated source counts.") var sources = "1000,10000"
    @Option(help: "Interval between checks of one source, in seconds (the goal: every source every 5 s).")
    var interval = 5.0

    @Option(help: """
        An external sample server (`kiosk demo-sources --latency-ms 0 --business-evolve-ms 1`), so its \
        work is not counted as the engine's. Default: one in this process.
        """)
    var server: String?

    @Option(help: "HTTP/1.1 connections to the sample server (all sources share one host).") var connections = 64
    @Option(help: "Seconds measured per case, after one interval of warm-up.") var seconds = 15.0

    func run() async throws {
        let counts = sources.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        print("kiosk-bench poll: one engine, N feeds on one loopback sample server, interval \(interval) s, \(connections) connections")
        print("  sample server: \(server ?? "in this process (its CPU is counted too)")")
        print("  target = N / interval checks per second; CPU = user+system seconds per wall second (2 cores = 2.0)")
        print("")
        let table = TextTable(columns: [
            .init("path", width: 8, leftAligned: true), .init("sources", width: 8), .init("target/s", width: 9),
            .init("polls/s", width: 9), .init("changes/s", width: 9), .init("failed", width: 7),
            .init("CPU", width: 6), .init("peak RSS MB", width: 11), .init("check ms", width: 8),
        ])
        print(table.header)
        for count in counts {
            for changing in [false, true] {
                let row = try await measure(sources: count, changing: changing)
                print(table.line(row))
            }
        }
    }

    private func measure(sources count: Int, changing: Bool) async throws -> [String] {
        // The changed path reads Business, which gains an entry every millisecond, so every check
        // sees news; the 304 path reads Environment, which never changes here.
        let local = DemoServer(
            configuration: DemoConfiguration(
                latencies: DemoConfiguration.uniform(.zero), evolveEvery: [.business: .milliseconds(1)]))
        let serverTask: Task<Void, any Error>?
        let base: URL
        if let server, let external = URL(string: server) {
            serverTask = nil
            base = external
        } else {
            serverTask = Task { try await local.run() }
            base = await local.baseURL()
        }
        let client = HTTPFetcher.makeClient(connectionsPerHost: connections)
        let feedURL = base.appendingPathComponent(changing ? "reuters/business.xml" : "reuters/environment.xml")
        let period = Duration.milliseconds(Int(interval * 1000))
        let feeds = (0..<count).map { index in
            PolledSource(id: SourceID("bench-\(index)"), name: "bench \(index)", url: feedURL, interval: period)
        }
        let hub = EventHub()
        let counter = EventCounter()
        let subscription = await hub.subscribe(bufferSize: 100_000)
        let counting = Task {
            for await update in subscription {
                if case .event(let event) = update { await counter.count(event) }
            }
        }
        let engine = Engine(feeds: feeds, fetcher: HTTPFetcher(client: client), hub: hub)
        let engineTask = Task { try await engine.run() }

        try await Task.sleep(for: period)  // warm-up: every source has been checked once
        let start = (await counter.totals(), CPUTime.now(), ContinuousClock.now)
        try await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
        let end = (await counter.totals(), CPUTime.now(), ContinuousClock.now)

        engineTask.cancel()
        _ = await engineTask.result
        counting.cancel()
        serverTask?.cancel()
        try await client.shutdown()

        let wall = (end.2 - start.2) / .seconds(1)
        let polls = Double(end.0.polls - start.0.polls) / wall
        let changes = Double(end.0.changes - start.0.changes) / wall
        let cpu = (end.1 - start.1) / wall
        let checks = max(1, end.0.polls - start.0.polls)
        let meanCheck = (end.0.checkTime - start.0.checkTime) / checks
        let peak = PeakMemory.megabytes().map { String(format: "%.0f", $0) } ?? "n/a"
        for (kind, number) in await counter.failureKinds.sorted(by: { $0.value > $1.value }).prefix(3) {
            print("    failures: \(number) × \(kind)")
        }
        return [
            changing ? "changed" : "304", "\(count)", String(format: "%.0f", Double(count) / interval),
            String(format: "%.0f", polls), String(format: "%.0f", changes), "\(end.0.failures - start.0.failures)",
            String(format: "%.2f", cpu), peak, String(format: "%.0f", Measure.milliseconds(meanCheck)),
        ]
    }
}

/// Counts engine events by kind.
actor EventCounter {
    struct Totals: Sendable { var polls = 0, changes = 0, failures = 0, checkTime: Duration = .zero }
    private var running = Totals()
    private var started: [SourceID: ContinuousClock.Instant] = [:]
    /// How many failures of each kind, to say why a case fell short.
    private(set) var failureKinds: [String: Int] = [:]

    func count(_ event: EngineEvent) {
        switch event.kind {
        case .idle(let id):
            running.polls += 1
            if let start = started.removeValue(forKey: id) { running.checkTime += ContinuousClock.now - start }
        case .changed: running.changes += 1
        case .failed(_, let error):
            running.failures += 1
            failureKinds[String(describing: error), default: 0] += 1
        case .checking(let id): started[id] = ContinuousClock.now
        }
    }

    func totals() -> Totals { running }
}

/// Process CPU time (user + system) in seconds.
enum CPUTime {
    static func now() -> Double {
        #if canImport(Glibc)
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        #else
        return 0
        #endif
    }
}

/// The process's peak resident set, in MB.
enum PeakMemory {
    static func megabytes() -> Double? {
        Measure.peakResidentBytes().map { Measure.megabytes($0) }
    }
}
