import Foundation
import KioskCluster
import KioskPostgres
import KioskSources
import KioskStore
import Logging
import PostgresNIO
import ServiceLifecycle

/// Where the data lives and, with PostgreSQL, how replicas share the work: the store, the feed
/// leases, the live log, and what must run beside the app.
struct StoreBackend: Sendable {
    var store: any KioskStore
    var coordinator: (any CheckCoordinator)?
    var sharedLog: (any SharedLog)?
    var services: [any Service] = []
    var notReady: @Sendable () async -> String? = { nil }

    /// PostgreSQL at `url`: connected, migrated (under advisory locks, so replicas may start
    /// together), with this replica's leases and live log.
    static func postgres(_ url: String, config: AppConfig, onWrite: @escaping StoreWriteTimer, logger: Logger) async throws
        -> StoreBackend
    {
        let configuration: PostgresClient.Configuration
        do {
            configuration = try PostgresURL.configuration(url)
        } catch {
            throw StartupError("bad database URL: \(error)")
        }
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        let runner = PostgresClientRunner(client: client)
        let store = PostgresStore(client: client, logger: logger, onWrite: onWrite)
        do {
            try await store.migrate()
            try await ClusterSchema.migrate(client, logger: logger)
        } catch {
            runner.stop()
            throw StartupError("cannot use the database \(Self.redacted(url)): \(String(reflecting: error))")
        }
        let replica = config.replicaName ?? "\(ProcessInfo.processInfo.hostName)-\(ProcessInfo.processInfo.processIdentifier)"
        let loadState: @Sendable (SourceID) async throws -> SourceState? = { try await store.sourceState(for: $0) }
        logger.info("database", metadata: ["postgres": "\(Self.redacted(url))", "replica": "\(replica)"])
        return StoreBackend(
            store: store,
            coordinator: FeedLeases(
                client: client, owner: replica, leaseDuration: config.leaseDuration, perHost: config.checksPerHost,
                loadState: loadState, logger: logger),
            sharedLog: ChangeLog(client: client, origin: replica, loadState: loadState, logger: logger),
            services: [runner],
            notReady: {
                // A hard 2 s: a half-open connection must not hold the load balancer's check.
                let answered = await withinDeadline(.seconds(2)) {
                    try await client.query("SELECT 1", logger: logger)
                    return true
                }
                return answered == true ? nil : "the database does not answer"
            })
    }
}

extension StoreBackend {
    /// The URL without its password, for messages and logs.
    static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url) else { return "(unreadable URL)" }
        if components.password != nil { components.password = "…" }
        return components.string ?? "(unreadable URL)"
    }
}

/// Runs the database client from before the app is built (the store is migrated and read while
/// it is put together) until the app shuts down.
final class PostgresClientRunner: Service {
    private let task: Task<Void, Never>

    init(client: PostgresClient) {
        task = Task { await client.run() }
    }

    func run() async throws {
        try? await gracefulShutdown()
        stop()
    }

    func stop() { task.cancel() }
}
