import Foundation
import KioskAccounts
import KioskCore
import KioskReader
import KioskSources
import KioskStore
import Logging
import ServiceLifecycle

extension WebDependencies {
    /// The real thing: one HTTP client for every source, the SQLite store, the polling engine
    /// writing through it, the image pipeline with its disk cache, and the proxy's signing key.
    public static func live(_ config: AppConfig, logger: Logger) async throws -> WebDependencies {
        let metrics = KioskMetrics()
        let backend: StoreBackend
        if let url = config.postgresURL {
            try createDataDirectory(config)
            backend = try await .postgres(url, config: config, onWrite: metrics.storeWrite, logger: logger)
        } else {
            let existed = try prepareDataFiles(config)
            backend = StoreBackend(
                store: try openStore(at: config.database, existed: existed, onWrite: metrics.storeWrite, logger: logger))
        }
        let store = backend.store
        let accounts = Accounts(store: store, hasher: .bcrypt())
        // Zero set-up is for loopback only: beyond it, nobody gets in without an account.
        if !config.servesLocalOwner, (try? await accounts.exist()) != true {
            let place = HostPolicy.isLoopback(config.host) ? "behind a proxy or by other host names" : "on \(config.host)"
            throw StartupError(
                "serving \(place) needs an account, and there is none yet; add one first (with the same "
                    + "--data-directory, --config or --demo as here): printf '%s\\n' 'PASSWORD' | kiosk user add NAME --password-stdin --admin")
        }
        let signingKey: ImageSigner
        do {
            signingKey = ImageSigner(
                key: try SigningKeyFile.loadOrCreate(in: config.dataDirectory),
                trusting: ImageSigner.sources(of: config.catalogue))
        } catch {
            throw StartupError("cannot use the data directory \(config.dataDirectory.path): \(error.localizedDescription)")
        }
        let deviceID = try await store.deviceID()
        let catalogue = config.catalogue
        // Feeds and images come from sources: neither may reach this machine's own network (by
        // name, by what the name resolves to, by a redirect, or by a name that resolves elsewhere
        // when connecting) unless the operator configured it.
        let clients: FetchClients
        do {
            clients = try await FetchClients.start(trusting: ImageSigner.sources(of: catalogue))
        } catch {
            throw StartupError("cannot start the connect guard on 127.0.0.1: \(error)")
        }
        let fetcher = clients.fetcher(allowsPrivateHosts: config.allowsPrivateFeeds)
        let imageFetcher = clients.fetcher()
        let hub = EventHub()
        // The engine starts with no feeds: the reader hands it every subscription.
        let engine = Engine(
            merged: catalogue.merged, fetcher: fetcher, hub: hub, store: store, coordinator: backend.coordinator,
            logger: logger)
        let changes = ReaderChanges()
        let policy = AddressPolicy(allowsPrivateHosts: config.allowsPrivateFeeds, trusting: ImageSigner.sources(of: catalogue))
        let reader = Reader(
            store: store, scheduler: engine, finder: FeedFinder(fetcher: fetcher, policy: policy), policy: policy,
            logger: logger, onChange: { await changes.publish($0) })
        let builtIn = catalogue.feeds.filter { catalogue.newsFeeds.contains($0.id) }
        let configured = catalogue.feeds.filter { !catalogue.newsFeeds.contains($0.id) }
        do {
            try await reader.start(builtIn: builtIn, configured: configured)
        } catch {
            throw StartupError("cannot read the subscriptions: \(error.message)")
        }
        var names: [SourceID: String] = [:]
        // The News labels and announcements use each feed's own name (users may rename theirs).
        for feed in (try? await store.feeds()) ?? [] { names[feed.id] = feed.displayName }
        for merged in catalogue.merged { names[merged.id] = merged.name }
        var dependencies = WebDependencies(
            hub: hub, store: store, reader: reader, readerChanges: changes,
            facts: .facts(url: catalogue.factsURL, fetcher: fetcher),
            albums: .albums(url: catalogue.albumsURL, fetcher: fetcher),
            discover: DiscoverService(settings: catalogue.newsAPI, fetcher: fetcher),
            jokes: JokeService(url: catalogue.jokesURL, fetcher: fetcher, deviceID: deviceID),
            images: ImagePipeline(
                fetcher: imageFetcher, diskDirectory: config.dataDirectory.appendingPathComponent("images")),
            signer: signingKey, assets: try Assets.fromBundle(), sourceNames: names,
            news: NewsSections(catalogue: catalogue, names: names),
            services: [
                HTTPClientService(clients: clients), engine, EventLogger(hub: hub, logger: logger),
                RetentionService(store: store, policy: config.retention, logger: logger),
            ] + backend.services,
            accounts: accounts)
        dependencies.sharedLog = backend.sharedLog
        dependencies.merged = catalogue.merged
        dependencies.notReady = backend.notReady
        dependencies.metrics = metrics
        return dependencies
    }

    /// A reader over `store` whose feeds nobody polls (page tests feed the hub by hand,
    /// benchmarks measure pages alone), with the catalogue's feeds as its subscriptions.
    public static func idleReader(store: any KioskStore, fetcher: any Fetching, catalogue: SourceCatalogue)
        async throws -> (Reader, ReaderChanges)
    {
        let changes = ReaderChanges()
        let policy = AddressPolicy(trusting: ImageSigner.sources(of: catalogue))
        let reader = Reader(
            store: store, scheduler: IdleScheduler(), finder: FeedFinder(fetcher: fetcher, policy: policy), policy: policy,
            onChange: { await changes.publish($0) })
        try await reader.start(
            builtIn: catalogue.feeds.filter { catalogue.newsFeeds.contains($0.id) },
            configured: catalogue.feeds.filter { !catalogue.newsFeeds.contains($0.id) })
        return (reader, changes)
    }
}

/// Creates what Kiosk keeps that does not exist yet, private to its user: the data directory and
/// the database's folder 0700, the database 0600 (SQLite gives its WAL and SHM files the
/// database's mode, and would create it 0644).
/// - Returns: whether the database existed before.
func prepareDataFiles(_ config: AppConfig) throws(StartupError) -> Bool {
    try createDataDirectory(config)
    do {
        try PrivateFiles.createDirectory(config.database.deletingLastPathComponent())
        return try !PrivateFiles.createEmptyFile(config.database)
    } catch {
        // The store says it better, with what it can still do (a read-only disk: serve what it has).
        return FileManager.default.fileExists(atPath: config.database.path)
    }
}

/// The data directory (images, the proxy's key), 0700.
func createDataDirectory(_ config: AppConfig) throws(StartupError) {
    do {
        try PrivateFiles.createDirectory(config.dataDirectory)
    } catch {
        throw StartupError("cannot use the data directory \(config.dataDirectory.path): \(error.localizedDescription)")
    }
}

/// The database, or, when it exists but cannot be written (a read-only disk), the same database
/// read-only: Kiosk then serves what it has and says why it remembers nothing new.
private func openStore(at path: URL, existed: Bool, onWrite: @escaping StoreWriteTimer, logger: Logger)
    throws(StartupError) -> SQLiteStore
{
    do {
        return try SQLiteStore(path: path, onWrite: onWrite)
    } catch {
        guard existed, let readOnly = try? SQLiteStore(path: path, readOnly: true) else {
            throw StartupError("\(error)")  // the store's message names the file and the reason
        }
        logger.error("the database is read-only: serving what it holds, remembering nothing new", metadata: ["error": "\(error)"])
        return readOnly
    }
}

/// A start-up problem (port taken, unusable data directory...), said plainly instead of a trap.
public struct StartupError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
