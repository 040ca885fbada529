import ArgumentParser
import Foundation
import KioskDemo
import Logging
import ServiceLifecycle

/// `kiosk demo-sources`: only the sample-sources server, in a process of its own (for browser
/// tests, benchmarks that must not share a process with the server, or trying the API by hand).
struct DemoSourcesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo-sources",
        abstract: "Serve only the embedded sample sources on loopback until interrupted."
    )

    @Option(help: "Port to listen on (0: any free port; the URL is printed).")
    var port = 0

    @Option(help: "Every source answers after this many milliseconds, instead of each its own latency.")
    var latencyMs: Int?

    @Option(help: "The Business feed gains an entry every this many milliseconds (default: every 7 s).")
    var businessEvolveMs: Int?

    @Flag(help: "No feed gains entries by itself (but Business, with --business-evolve-ms).")
    var frozen = false

    func run() async throws {
        var configuration = DemoConfiguration(port: port)
        if let latencyMs { configuration.latencies = DemoConfiguration.uniform(.milliseconds(max(0, latencyMs))) }
        if frozen { configuration.evolveEvery = [:] }
        if let businessEvolveMs { configuration.evolveEvery[.business] = .milliseconds(max(1, businessEvolveMs)) }
        let server = DemoServer(configuration: configuration, logger: Logger(label: "kiosk.demo"))
        let group = ServiceGroup(
            services: [server], gracefulShutdownSignals: [.sigterm, .sigint], logger: Logger(label: "kiosk"))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            print("sample sources: \(await server.baseURL())")
            try await tasks.next()
        }
    }
}
