import ArgumentParser
import Foundation
import Hummingbird
import KioskCore
import KioskDemo
import KioskSQLite
import KioskSources
import KioskStore
import KioskWeb
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle

/// `kiosk-bench sse`: one update fanned out to N open pages. The real web app (``buildApplication``)
/// serves `/events` on loopback; N clients hold an event stream each; the benchmark publishes a
/// `changed` event for Business on the hub by hand (no engine) and times its arrival at every
/// client. It also reads how much resident memory the open streams cost.
struct SSEBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sse",
        abstract: "Time one update reaching N event-stream (SSE) clients over loopback HTTP; memory per client."
    )

    @Option(help: "Event-stream clients to open.") var clients = 1000
    @Option(help: "The web app's port on 127.0.0.1 (0: any free port).") var port = 0
    @Option(help: "Updates published one after another, each timed on its own.") var rounds = 5
    @Flag(help: """
        Run the clients in this process rather than in a second one. Their memory is then counted \
        with the server's, and each stream takes two descriptors of this process's limit.
        """)
    var clientsInProcess = false

    @Option(help: "Connections opened at once (the server's accept backlog is 256).") var wave = 100
    @Option(help: "Seconds to wait for each step (all subscribed, each update everywhere).") var timeout = 120.0
    @Option(
        name: .customLong("max-kib-per-client"),
        help: "Fail (exit status 1) when the server holds more than this many KiB per open stream (a regression guard).")
    var maxKiBPerClient: Double?

    func run() async throws {
        let limit = SSEProcess.raiseFileLimit()
        var logger = Logger(label: "kiosk-bench.sse")
        logger.logLevel = .warning

        // The sample sources: where Business's list comes from, and what the on-demand sources read.
        let demo = DemoServer(
            configuration: DemoConfiguration(latencies: DemoConfiguration.uniform(.zero), evolveEvery: [:]), logger: logger)
        let demoTask = Task { try await demo.run() }
        let base = await demo.baseURL()
        let httpClient = HTTPFetcher.makeClient()
        let fetcher = HTTPFetcher(client: httpClient)
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-bench-sse-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
            try await measure(base: base, fetcher: fetcher, data: data, limit: limit, logger: logger)
        } catch {
            try? FileManager.default.removeItem(at: data)
            demoTask.cancel()
            try? await httpClient.shutdown()
            throw error
        }
        try? FileManager.default.removeItem(at: data)
        demoTask.cancel()
        _ = await demoTask.result
        try await httpClient.shutdown()
    }

    private func measure(
        base: URL, fetcher: HTTPFetcher, data: URL, limit: (soft: UInt64, hard: UInt64)?, logger: Logger
    ) async throws {
        let catalogue = SourceCatalogue.demo(base: base)
        let business = try await Self.businessEntries(from: base, fetcher: fetcher)
        let serverPort = port == 0 ? try await Self.freePort() : port
        var config = AppConfig(catalogue: catalogue, dataDirectory: data)
        config.port = serverPort
        // Measured as the local owner, as in demo mode: the owner link is not what is timed.
        config.ownerAccess = .loopback
        // No engine: the hub is fed by hand; the store is in memory; the on-demand sources read
        // the sample server.
        let parts = WebDependencies.Parts(
            store: try SQLiteStore.inMemoryDatabase(), fetcher: fetcher, signer: ImageSigner(key: try SigningKeyFile.loadOrCreate(in: data)))
        let dependencies = try await WebDependencies.assemble(config, parts, logger: logger)
        let hub = dependencies.hub
        let app = buildApplication(config, dependencies: dependencies, logger: logger)
        let server = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
        let serverTask = Task { try await server.run() }
        defer { serverTask.cancel() }
        try await Self.waitForHealth(port: serverPort, fetcher: fetcher)

        print("kiosk-bench sse: one update to \(clients) event-stream clients over loopback HTTP (127.0.0.1:\(serverPort))")
        print("  load average before: \(SSEProcess.loadAverage() ?? "?") (\(ProcessInfo.processInfo.activeProcessorCount) cores)")
        print("  open files: soft \(limit.map { "\($0.soft)" } ?? "?") / hard \(limit.map { "\($0.hard)" } ?? "?")")
        print("  clients: \(clientsInProcess ? "in this process (memory counted with the server's)" : "in a second process (kiosk-bench sse-clients)")")
        // Running out of descriptors is not a clean failure: libdispatch's worker monitor traps when
        // it cannot open /proc/<tid>/stat. So stay under the limit, and say so.
        var count = clients
        if let most = SSEProcess.mostStreams(perStream: clientsInProcess ? 2 : 1), count > most {
            count = most
            print("  limited to \(most) clients by the open-file limit (\(clientsInProcess ? 2 : 1) descriptor(s) per stream here)")
        }

        // Warm-up: a few streams see one update, so every code path has run before the baseline.
        let eventBytes = try await warmUp(port: serverPort, hub: hub, entries: business)
        print(
            "  update: Business, \(business.count + 1) entries; a `changed` event of a one-entry change ≈ \(eventBytes.change) bytes per client"
                + " (the first, to a page with no list yet, \(eventBytes.first / 1024) KiB)")
        try await Task.sleep(for: .milliseconds(500))
        let serverBefore = SSEProcess.residentKiB() ?? 0

        let side = try await ClientSide.start(
            inProcess: clientsInProcess, port: serverPort, clients: count, rounds: rounds, wave: wave, timeout: timeout)
        let ready = try await side.ready(timeout: .seconds(timeout + Double(count) / 50))
        let serverAfter = SSEProcess.residentKiB() ?? 0
        print("  subscribed: \(ready.subscribed) of \(ready.requested) in \(String(format: "%.1f", ready.connectSeconds)) s"
            + (side.isChild ? " (clients' open-file limit \(ready.fileLimit))" : ""))
        if let error = ready.error { print("  stopped connecting: \(error)") }
        let subscribed = max(1, ready.subscribed)
        let serverDelta = serverAfter - serverBefore
        if side.isChild {
            let clientDelta = ready.residentAfterKiB - ready.residentBeforeKiB
            print("  memory, server process: +\(Self.mb(serverDelta)) MB for \(ready.subscribed) streams = \(Self.perClient(serverDelta, subscribed)) KiB per client")
            let perClient = Double(serverDelta) / Double(subscribed)
            if let most = maxKiBPerClient, perClient > most {
                print("  over the guard: \(Self.perClient(serverDelta, subscribed)) KiB per client > \(most) KiB")
                throw ExitCode(1)
            }
            print("  memory, clients' process: +\(Self.mb(clientDelta)) MB = \(Self.perClient(clientDelta, subscribed)) KiB per client (bare NIO channels)")
        } else {
            print("  memory, server and clients together: +\(Self.mb(serverDelta)) MB = \(Self.perClient(serverDelta, subscribed)) KiB per client (both ends of each connection)")
        }
        print("")

        let table = TextTable(columns: [
            .init("update", width: 6), .init("received", width: 8), .init("missing", width: 7),
            .init("p50 ms", width: 8), .init("p99 ms", width: 8), .init("all (max) ms", width: 12),
            .init(clientsInProcess ? "CPU ms (both)" : "server CPU ms", width: 13),
        ])
        print(table.header)
        var totals: [Double] = []
        for round in 0..<rounds {
            try await Task.sleep(for: .seconds(1))
            let entries = [Self.newEntry(round + 1)] + business
            let cpuBefore = CPUTime.now()
            let published = SSEProcess.monotonicNanoseconds()
            await hub.publish(.changed(.business, entries))
            let arrivals = try await side.arrivals(round: round, expected: ready.subscribed, timeout: .seconds(timeout))
            let cpu = (CPUTime.now() - cpuBefore) * 1000
            let summary = SSEArrivalSummary(published: published, arrivals: arrivals, expected: ready.subscribed)
            print(table.line([
                "\(round + 1)", "\(summary.received)", "\(summary.missing)", Self.ms(summary.p50), Self.ms(summary.p99),
                Self.ms(summary.max), String(format: "%.0f", cpu),
            ]))
            if summary.missing == 0 { totals.append(summary.max) }
        }
        print("")
        let middle = totals.sorted()
        if !middle.isEmpty {
            print("  time until all \(ready.subscribed) clients have an update: median \(Self.ms(middle[middle.count / 2])) ms over \(middle.count) update(s)")
        }
        if let peak = SSEProcess.residentKiB() {
            print("  server\(side.isChild ? "" : " and clients") after the updates: +\(Self.mb(peak - serverBefore)) MB over the baseline")
        }
        print("  (server CPU = user+system time of this process from publishing until the last arrival was seen)")
        print("  (subscribed = the stream's `retry:` preamble arrived; LiveBroadcaster.subscribe sends it as it registers the client)")
        try await side.finish()
        // A graceful shutdown ends every open stream, as `kiosk` does on SIGTERM.
        await server.triggerGracefulShutdown()
        _ = await serverTask.result
    }

    // MARK: - Set-up

    /// Business's list as the engine would publish it: the sample server's feed, parsed.
    private static func businessEntries(from base: URL, fetcher: HTTPFetcher) async throws -> [Entry] {
        let result = try await fetcher.fetch(FetchRequest(url: base.appendingPathComponent("reuters/business.xml")))
        guard case .fetched(let body) = result else { throw SSEBenchError("the sample server answered 304") }
        return try FeedParser.parse(body.bytes).entries
    }

    /// A port nobody listens on now (`buildApplication` does not report the one it bound).
    /// A free loopback port (shared with `kiosk-bench reader`).
    static func freePort() async throws -> Int {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(to: try SocketAddress(ipAddress: "127.0.0.1", port: 0)).get()
        let port = channel.localAddress?.port
        try await channel.close()
        guard let port else { throw SSEBenchError("no free port") }
        return port
    }

    /// Returns once the web app on `port` answers `/healthz`; throws after 30 s (shared with `BenchApp`).
    static func waitForHealth(port: Int, fetcher: HTTPFetcher) async throws {
        guard let url = URL(string: "http://127.0.0.1:\(port)/healthz") else { throw SSEBenchError("bad port \(port)") }
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if case .fetched = try? await fetcher.fetch(FetchRequest(url: url, timeout: .seconds(2))) { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw SSEBenchError("the web app did not answer /healthz on port \(port)")
    }

    /// Ten streams in this process see one update; returns the bytes one client received for it.
    /// Bytes per client of the first `changed` event (the whole list, as the page had none) and
    /// of the next one, a one-entry change (its diff).
    private func warmUp(port: Int, hub: EventHub, entries: [Entry]) async throws -> (first: Int, change: Int) {
        let count = 10
        let board = SSEArrivalBoard(clients: count, rounds: 1)
        let fleet = SSEClientFleet(group: MultiThreadedEventLoopGroup.singleton, ports: [port], board: board)
        let outcome = await fleet.connect(count: count, wave: count, timeout: .seconds(30))
        if let error = outcome.error {
            await fleet.closeAll()
            throw SSEBenchError("warm-up: \(error)")
        }
        let before = board.bytesReceived
        // The live broadcaster may not have joined the hub yet: publish again until it has.
        for _ in 0..<10 {
            await hub.publish(.changed(.business, [Self.newEntry(0)] + entries))
            let arrivals = await board.waitForRound(0, expected: count, timeout: .seconds(1))
            if !arrivals.contains(0) { break }
        }
        let bytes = (board.bytesReceived - before) / count
        guard bytes > 0 else {
            await fleet.closeAll()
            throw SSEBenchError("warm-up: the update never reached the clients")
        }
        // A page that already shows the list is sent only the rows that differ: one new entry.
        let beforeChange = board.bytesReceived
        await hub.publish(.changed(.business, [Self.newEntry(-1), Self.newEntry(0)] + entries))
        try await Task.sleep(for: .milliseconds(500))
        let change = (board.bytesReceived - beforeChange) / count
        await fleet.closeAll()
        return (bytes, change)
    }

    /// A new head entry for update `number`, so each update adds one entry as a real change would.
    private static func newEntry(_ number: Int) -> Entry {
        Entry(
            id: "kiosk-bench-sse-\(number)", title: "Benchmark update \(number): markets move on loopback",
            link: "https://example.com/kiosk-bench/sse/\(number)", published: Date(),
            summary: "One more entry, published by kiosk-bench sse to every open page at once.")
    }

    // MARK: - Formatting

    private static func mb(_ kib: Int) -> String { String(format: "%.1f", Double(kib) / 1024) }
    private static func perClient(_ kib: Int, _ clients: Int) -> String { String(format: "%.1f", Double(kib) / Double(clients)) }
    private static func ms(_ value: Double) -> String { value.isNaN ? "–" : String(format: "%.1f", value) }
}

/// Where the clients run: a fleet in this process, or `kiosk-bench sse-clients` in a second one
/// that reports through files.
private enum ClientSide {
    case inProcess(SSEClientFleet, SSEArrivalBoard, SSEHandshake.Ready)
    case child(Process, URL)

    var isChild: Bool {
        if case .child = self { return true }
        return false
    }

    static func start(inProcess: Bool, port: Int, clients: Int, rounds: Int, wave: Int, timeout: Double) async throws
        -> ClientSide
    {
        if inProcess {
            let board = SSEArrivalBoard(clients: clients, rounds: rounds)
            let fleet = SSEClientFleet(group: MultiThreadedEventLoopGroup.singleton, ports: [port], board: board)
            let started = ContinuousClock.now
            let outcome = await fleet.connect(count: clients, wave: wave, timeout: .seconds(timeout))
            let ready = SSEHandshake.Ready(
                requested: clients, subscribed: outcome.subscribed, residentBeforeKiB: 0, residentAfterKiB: 0,
                fileLimit: SSEProcess.raiseFileLimit()?.soft ?? 0,
                connectSeconds: Measure.seconds(ContinuousClock.now - started), error: outcome.error)
            return .inProcess(fleet, board, ready)
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-bench-sse-clients-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        process.arguments = [
            "sse-clients", "--port", "\(port)", "--clients", "\(clients)", "--rounds", "\(rounds)",
            "--directory", directory.path, "--wave", "\(wave)", "--timeout", "\(timeout)",
        ]
        try process.run()
        return .child(process, directory)
    }

    func ready(timeout: Duration) async throws -> SSEHandshake.Ready {
        switch self {
        case .inProcess(_, _, let ready):
            return ready
        case .child(let process, let directory):
            guard let ready = try await SSEHandshake.await(
                SSEHandshake.Ready.self, at: SSEHandshake.readyFile(in: directory), timeout: timeout)
            else {
                process.terminate()
                throw SSEBenchError("the clients' process did not report (exit status: \(process.isRunning ? "running" : "\(process.terminationStatus)"))")
            }
            return ready
        }
    }

    func arrivals(round: Int, expected: Int, timeout: Duration) async throws -> [UInt64] {
        switch self {
        case .inProcess(_, let board, _):
            return await board.waitForRound(round, expected: expected, timeout: timeout)
        case .child(let process, let directory):
            // The clients' process waits up to `timeout` itself; allow it time to write.
            guard let report = try await SSEHandshake.await(
                SSEHandshake.Round.self, at: SSEHandshake.roundFile(round, in: directory), timeout: timeout + .seconds(30))
            else {
                process.terminate()
                throw SSEBenchError("the clients' process did not report update \(round + 1)")
            }
            return report.arrivals
        }
    }

    func finish() async throws {
        switch self {
        case .inProcess(let fleet, _, _):
            await fleet.closeAll()
        case .child(let process, let directory):
            let deadline = ContinuousClock.now + .seconds(30)
            while process.isRunning, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            if process.isRunning { process.terminate() }
            try? FileManager.default.removeItem(at: directory)
        }
    }
}
