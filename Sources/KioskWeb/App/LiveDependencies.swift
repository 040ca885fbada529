import Foundation
import KioskAccounts
import KioskCore
import KioskHTML
import KioskReader
import KioskSources
import KioskStore
import Logging
import ServiceLifecycle

extension WebDependencies {
    /// The real thing: the store (SQLite, or PostgreSQL with a replica's leases and live log), the
    /// guarded HTTP clients, the polling engine writing through the store, the image pipeline with
    /// its disk cache, the proxy's signing key, retention. `resolve` names hosts for the
    /// destination guards (the system's resolver; tests give one that answers as a hostile DNS would).
    public static func live(
        _ config: AppConfig, logger: Logger, resolve: @escaping DestinationGuard.Resolver = DestinationGuard.system
    ) async throws -> WebDependencies {
        // Read before anything is started that would need stopping if it is wrong.
        let siteRules = try config.settings.siteRules.map(Parts.loadSiteRules)
        let metrics = KioskMetrics()
        let backend = try await StoreBackend.open(config, onWrite: metrics.storeWrite, logger: logger)
        let store = backend.store
        // Zero set-up is for loopback only: beyond it, nobody gets in without an account.
        if !config.servesLocalOwner,
            (try? await Accounts(store: store, hasher: .bcrypt(cost: config.passwordCost)).exist()) != true
        {
            let place = HostPolicy.isLoopback(config.host) ? "behind a proxy or by other host names" : "on \(config.host)"
            throw StartupError(
                "serving \(place) needs an account, and there is none yet; add one first (with the same "
                    + "--data-directory, --config or --demo as here): printf '%s\\n' 'PASSWORD' | kiosk user add NAME --password-stdin --admin")
        }
        let catalogue = config.catalogue
        let signingKey: ImageSigner
        do {
            signingKey = ImageSigner(
                key: try SigningKeyFile.loadOrCreate(in: config.dataDirectory),
                trusting: catalogue.trustedSources)
        } catch {
            throw StartupError("cannot use the data directory \(config.dataDirectory.path): \(error.localizedDescription)")
        }
        // Feeds and images come from sources: neither may reach this machine's own network (by
        // name, by what the name resolves to, by a redirect, or by a name that resolves elsewhere
        // when connecting) unless the operator configured it.
        let clients: FetchClients
        do {
            clients = try await FetchClients.start(
                trusting: catalogue.trustedSources, resolve: resolve, connectionsPerHost: config.checksPerHost)
        } catch {
            throw StartupError("cannot start the connect guard on 127.0.0.1: \(error)")
        }
        do {
            return try await assemble(
                config, backend: backend, clients: clients, signer: signingKey, siteRules: siteRules, metrics: metrics,
                logger: logger)
        } catch {
            // The HTTP clients must be shut down before they go, or their deinit traps.
            try? await clients.shutdown()
            throw error
        }
    }

    private static func assemble(
        _ config: AppConfig, backend: StoreBackend, clients: FetchClients, signer signingKey: ImageSigner,
        siteRules: SiteRules?, metrics: KioskMetrics, logger: Logger
    ) async throws -> WebDependencies {
        let store = backend.store
        let catalogue = config.catalogue
        let fetcher = clients.fetcher(allowsPrivateHosts: config.allowPrivateFeeds)
        var parts = Parts(store: store, fetcher: fetcher, signer: signingKey)
        parts.imageFetcher = clients.fetcher()
        parts.mediaSource = .fetcher(clients.mediaFetcher())
        parts.imageCache = config.dataDirectory.appendingPathComponent("images")
        parts.deviceID = try await store.deviceID()
        // The engine starts with no feeds: the reader hands it every subscription.
        let engine = Engine(
            merged: catalogue.merged, fetcher: fetcher, hub: parts.hub, kinds: parts.kinds, store: backend.sourceStates,
            coordinator: backend.coordinator,
            logger: logger)
        parts.scheduler = engine
        parts.services = [
            HTTPClientService(clients: clients), engine, EventLogger(hub: parts.hub, logger: logger),
            RetentionService(store: store, policy: config.retention, logger: logger),
        ] + backend.services
        parts.prefetchesArticles = true
        parts.dispatchesPushes = true
        if let siteRules { parts.extractArticle = Parts.extractor(siteRules: siteRules) }
        parts.sharedLog = backend.sharedLog
        parts.notReady = backend.notReady
        parts.metrics = metrics
        return try await assemble(config, parts, logger: logger)
    }
}

/// A start-up problem (port taken, unusable data directory...), said plainly instead of a trap.
public struct StartupError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
