import ArgumentParser
import Foundation
import KioskDemo
import KioskSettings
import KioskSources
import KioskWeb
import Logging
import NIOCore
import ServiceLifecycle

/// `kiosk [--demo]`: serves the web app (on 127.0.0.1:8080 by default) over the live sources or,
/// with `--demo`, over the embedded sample sources, offline. Runs until interrupted.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve Kiosk (the default). With --demo, against embedded sample sources, offline.",
        discussion: """
            Settings (README's table; a flag wins over the environment and the config file):
            \(Settings.schema.flagHelp(
                defaults: Settings(dataDirectory: URL(fileURLWithPath: "/")), except: DataLocation.declaredFlags))
            """
    )

    @OptionGroup var location: DataLocation

    @Option(help: "With --demo: the sample sources' port (default: any free port).")
    var demoPort: Int?

    @Flag(help: "With --demo: the sample feeds change only when told to (for tests and screenshots).")
    var demoFrozen = false

    @Flag(help: "Log every check, not only changes and failures.")
    var verbose = false

    @Option(help: "Read a sample-sources server already running at this URL (kiosk demo-sources) instead of the live sources; replicas of a cluster share one.")
    var demoSources: String?

    /// The flags this command declares itself (not settings), for the suggestion a misspelt one gets.
    static let declaredFlags = ["config", "demo-port", "demo-frozen", "verbose", "demo-sources"]

    /// The settings' flags (`--port 9000`, `--lease-seconds=40`...), read by `Settings.schema`:
    /// a setting with a flag in its table entry is a flag here, without a line of its own.
    @Argument(parsing: .allUnrecognized, help: .hidden)
    var settingFlags: [String] = []

    func run() async throws {
        var logger = Logger(label: "kiosk")
        logger.logLevel = verbose ? .debug : .info
        do {
            try await serve(logger: logger)
        } catch let error as StartupError {
            // Said plainly on stderr, with a failing exit status, instead of a trap or a stack.
            FileHandle.standardError.write(Data("kiosk: \(error.description)\n".utf8))
            throw ExitCode.failure
        } catch let error as SettingsError {
            FileHandle.standardError.write(Data("kiosk: \(error.description)\n".utf8))
            throw ExitCode.failure
        }
    }

    private func serve(logger: Logger) async throws {
        // Whatever Kiosk writes (the database, its journals, cached images, the proxy's key) is
        // its user's alone, also what a library creates with its own default mode.
        umask(0o077)
        let settings = try location.settings(
            Settings.schema.commandLineLayer(settingFlags, otherFlags: Self.declaredFlags + DataLocation.declaredFlags.sorted()))
        let host = settings.host
        let port = settings.port
        // Each open page holds a descriptor: take all the system allows, and accept no more
        // connections than fit, so a crowd of readers is turned away instead of crashing the server.
        let files = OpenFileLimit.raise()
        if let files { logger.debug("open files", metadata: ["soft": "\(files.soft)", "hard": "\(files.hard)"]) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            let newsAPIKey = settings.newsAPIKey
            var catalogue = SourceCatalogue.live(newsAPIKey: newsAPIKey)
            if settings.demo {
                // The same port on every start (feeds added from its sites name it), unless taken.
                var configuration = DemoConfiguration(port: demoPort ?? DemoConfiguration.preferredPort(beside: port))
                configuration.portIsPreferred = demoPort == nil
                if demoFrozen { configuration.evolveEvery = [:] }
                let server = DemoServer(configuration: configuration, logger: logger)
                // The catalogue needs the sample server's port, known only once it is bound.
                group.addTask { try await server.run() }
                let base = await server.baseURL()
                logger.info("demo sources", metadata: ["url": "\(base)"])
                catalogue = SourceCatalogue.demo(base: base, newsAPIKey: newsAPIKey ?? "demo")
            }
            if let demoSources {
                guard let base = URL(string: demoSources), base.scheme == "http" || base.scheme == "https" else {
                    throw StartupError("--demo-sources needs an http URL, not \(demoSources)")
                }
                catalogue = SourceCatalogue.demo(base: base, newsAPIKey: newsAPIKey ?? "demo")
            }
            catalogue = settings.sources?.apply(to: catalogue) ?? catalogue
            if let unknown = catalogue.unknownKind() { throw StartupError(unknown) }
            var appConfig = AppConfig(
                settings: settings, catalogue: catalogue,
                maxConnections: files.map { OpenFileLimit.connectionBudget(soft: $0.soft) })
            // Demo mode (its own sample server, or another's with --demo-sources) holds sample data
            // only: anyone on this machine is its owner, so that it stays one command. A real
            // installation asks its owner for the printed link.
            appConfig.ownerAccess = settings.demo || demoSources != nil ? .loopback : .newLink()
            let app = try await buildApplication(appConfig, logger: logger)
            logger.info("serving", metadata: ["url": "http://\(host):\(port)/"])
            if appConfig.servesLocalOwner {
                if let path = appConfig.ownerAccess.path {
                    let shown = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
                    logger.notice(
                        "until an account exists, Kiosk is yours alone: open it in your browser with this link (once per browser; it stays signed in)",
                        metadata: ["open": "http://\(shown):\(port)\(path)"])
                } else {
                    logger.notice("demo mode: anyone on this machine (loopback) is the owner; the data is sample data only")
                }
            }
            if !HostPolicy.isLoopback(host) {
                // Passwords and session cookies cross the network: they need TLS in front.
                logger.warning(
                    "listening beyond loopback: sign-in is required, but passwords and session cookies cross the network in the clear unless a TLS proxy is in front (list it in trustedProxies). Requests are answered only for localhost, 127.0.0.1, [::1], the listening host and the config file's allowedHosts.",
                    metadata: ["host": "\(host)", "port": "\(port)"])
            }
            group.addTask {
                do {
                    try await app.runService()
                } catch let error as IOError where error.errnoCode == EADDRINUSE {
                    throw StartupError("cannot listen on \(host):\(port): the port is taken (use --port)")
                } catch let error as IOError {
                    throw StartupError("cannot listen on \(host):\(port): \(error.description)")
                }
            }
            // The first to end (a signal, or a failure) ends the rest.
            try await group.next()
            group.cancelAll()
        }
    }
}
