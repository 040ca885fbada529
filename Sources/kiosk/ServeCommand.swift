import ArgumentParser
import Foundation
import KioskDemo
import KioskSources
import Logging
import ServiceLifecycle

/// `kiosk [--demo]`: runs the sources engine (and, with `--demo`, the embedded sample sources it
/// reads) until interrupted. Each event is logged until the web app serves them.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run Kiosk (the default). With --demo, against embedded sample sources, offline."
    )

    @Flag(help: "Serve the embedded sample sources on loopback and read them instead of the live ones.")
    var demo = false

    @Option(help: "A JSON config file (sources, owner's name, data directory...).")
    var config: String?

    @Option(help: "Where Kiosk keeps its data (default: $XDG_DATA_HOME/kiosk or ~/.local/share/kiosk).")
    var dataDirectory: String?

    @Flag(help: "Log every check, not only changes and failures.")
    var verbose = false

    func run() async throws {
        var logger = Logger(label: "kiosk")
        logger.logLevel = verbose ? .debug : .info
        let file = try config.map(ConfigFile.load) ?? ConfigFile()
        let data = dataDirectoryURL(file)
        // Made now, so an unusable data directory is said at start-up, not at the first joke.
        do {
            _ = try DeviceIdentity.loadOrCreate(in: data)
        } catch {
            throw ConfigError("cannot use the data directory \(data.path): \(error.localizedDescription)")
        }

        let client = HTTPFetcher.makeClient()
        let fetcher = HTTPFetcher(client: client)
        let hub = EventHub()
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                var catalogue = SourceCatalogue.live(newsAPIKey: ProcessInfo.processInfo.environment["NEWSAPI_KEY"])
                if demo {
                    let server = DemoServer(logger: logger)
                    // The engine needs the sample server's port, known only once it is bound.
                    group.addTask { try await server.run() }
                    let base = await server.baseURL()
                    logger.info("demo sources", metadata: ["url": "\(base)"])
                    catalogue = SourceCatalogue.demo(base: base)
                }
                catalogue = file.sources?.apply(to: catalogue) ?? catalogue
                let engine = Engine(
                    feeds: catalogue.feeds, merged: catalogue.merged, fetcher: fetcher, hub: hub, logger: logger)
                let serviceGroup = ServiceGroup(
                    services: [engine, EventLogger(hub: hub, logger: logger)],
                    gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
                group.addTask { try await serviceGroup.run() }
                // The first to end (a signal, or a failure) ends the rest.
                try await group.next()
                group.cancelAll()
            }
        } catch {
            try? await client.shutdown()
            throw error
        }
        try await client.shutdown()
    }

    private func dataDirectoryURL(_ file: ConfigFile) -> URL {
        let base: URL
        if let path = dataDirectory ?? file.dataDirectory {
            base = URL(fileURLWithPath: path)
        } else if let xdg = ProcessInfo.processInfo.environment["XDG_DATA_HOME"], !xdg.isEmpty {
            base = URL(fileURLWithPath: xdg).appendingPathComponent("kiosk")
        } else {
            base = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share/kiosk")
        }
        // Demo mode keeps its own data, so trying it never touches a real installation's.
        return demo ? base.appendingPathComponent("demo") : base
    }
}
