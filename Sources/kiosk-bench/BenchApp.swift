import AsyncHTTPClient
import Foundation
import KioskSources
import KioskStore
import KioskWeb
import Logging
import ServiceLifecycle

/// The web app the reader and sync benchmarks time: over their store, with no sources and no
/// engine, on a free loopback port, as the local owner (the owner link is not what is timed).
struct BenchApp {
    let client: HTTPClient
    let port: Int
    let config: AppConfig
    let dependencies: WebDependencies

    var base: String { "http://127.0.0.1:\(port)" }

    /// Puts the app together the one way Kiosk is put together (``WebDependencies/assemble``).
    static func assemble(store: any KioskStore, directory: URL, logger: Logger) async throws -> BenchApp {
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        let catalogue = SourceCatalogue(
            feeds: [], merged: [], factsURL: nil, albumsURL: nil, newsAPI: NewsAPISettings(baseURL: nil, apiKey: nil),
            jokesURL: nil)
        let port = try await SSEBenchmark.freePort()
        var config = AppConfig(catalogue: catalogue, dataDirectory: directory)
        config.port = port
        config.ownerAccess = .loopback
        let parts = WebDependencies.Parts(
            store: store, fetcher: HTTPFetcher(client: client),
            signer: ImageSigner(key: try SigningKeyFile.loadOrCreate(in: directory)))
        let dependencies = try await WebDependencies.assemble(config, parts, logger: logger)
        return BenchApp(client: client, port: port, config: config, dependencies: dependencies)
    }

    /// Starts serving and returns once `/healthz` answers (the SSE benchmark's wait); cancel the
    /// task to stop.
    func start(logger: Logger) async throws -> Task<Void, any Error> {
        let app = buildApplication(config, dependencies: dependencies, logger: logger)
        let group = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
        let serverTask = Task { try await group.run() }
        do {
            try await SSEBenchmark.waitForHealth(port: port, fetcher: HTTPFetcher(client: client))
        } catch {
            serverTask.cancel()
            throw error
        }
        return serverTask
    }
}
