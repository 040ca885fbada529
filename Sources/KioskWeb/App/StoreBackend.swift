import Foundation
import KioskCluster
import KioskModel
import KioskPostgres
import KioskSettings
import KioskSources
import KioskStore
import Logging
import PostgresNIO
import ServiceLifecycle

/// Where the data lives and, with PostgreSQL, how replicas share the work: the store, the feed
/// leases, the live log, and what must run beside the app.
struct StoreBackend: Sendable {
    var store: any KioskStore
    /// Where the engine saves what its checks find: the store, or on a cluster the store with
    /// the live log written in the same transaction (`LoggedSourceStates`).
    var sourceStates: any SourceStateStore
    var coordinator: (any CheckCoordinator)?
    var sharedLog: (any SharedLog)?
    var services: [any Service] = []
    var notReady: @Sendable () async -> String? = { nil }

    /// The store the settings name (``Settings/openStore(onWrite:readOnlyFallback:logger:)``),
    /// and with PostgreSQL this replica's leases and live log on the same client, the cluster's
    /// tables migrated under advisory locks, so replicas may start together.
    static func open(_ config: AppConfig, onWrite: @escaping StoreWriteTimer, logger: Logger) async throws
        -> StoreBackend
    {
        let opened: OpenedStore
        do {
            opened = try await config.settings.openStore(onWrite: onWrite, readOnlyFallback: true, logger: logger)
        } catch {
            throw StartupError(error.description)
        }
        guard let client = opened.postgres, let store = opened.store as? PostgresStore, let url = config.postgresURL else {
            return StoreBackend(store: opened.store, sourceStates: opened.store)
        }
        do {
            try await ClusterSchema.migrate(client, logger: logger)
        } catch {
            opened.close()
            throw StartupError("cannot use the database \(Settings.redacted(url)): \(String(reflecting: error))")
        }
        let replica = config.replicaName ?? "\(ProcessInfo.processInfo.hostName)-\(ProcessInfo.processInfo.processIdentifier)"
        let loadState: @Sendable (SourceID) async throws -> SourceState? = { try await store.sourceState(for: $0) }
        logger.info("database", metadata: ["postgres": "\(Settings.redacted(url))", "replica": "\(replica)"])
        let log = ChangeLog(client: client, origin: replica, loadState: loadState, logger: logger)
        return StoreBackend(
            store: store,
            sourceStates: LoggedSourceStates(store: store, log: log),
            coordinator: FeedLeases(
                client: client, owner: replica, leaseDuration: config.leaseDuration, perHost: config.checksPerHost,
                loadState: loadState, logger: logger),
            sharedLog: log,
            services: [PostgresClientRunner(stop: opened.close)],
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

/// Keeps the database client (started when the store was opened, before the app is built: the
/// store is migrated and read while it is put together) running until the app shuts down.
struct PostgresClientRunner: Service {
    let stop: @Sendable () -> Void

    func run() async throws {
        try? await gracefulShutdown()
        stop()
    }
}
