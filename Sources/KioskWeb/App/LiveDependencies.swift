import Foundation
import KioskCore
import KioskSources
import KioskStore
import Logging
import ServiceLifecycle

extension WebDependencies {
    /// The real thing: one HTTP client for every source, the SQLite store, the polling engine
    /// writing through it, the image pipeline with its disk cache, and the proxy's signing key.
    public static func live(_ config: AppConfig, logger: Logger) async throws -> WebDependencies {
        let store = try openStore(at: config.database, logger: logger)
        let signingKey: ImageSigner
        do {
            signingKey = ImageSigner(
                key: try SigningKeyFile.loadOrCreate(in: config.dataDirectory),
                trusting: ImageSigner.sources(of: config.catalogue))
        } catch {
            throw StartupError("cannot use the data directory \(config.dataDirectory.path): \(error.localizedDescription)")
        }
        let deviceID = try await store.deviceID()
        let client = HTTPFetcher.makeClient()
        let fetcher = HTTPFetcher(client: client)
        let hub = EventHub()
        let catalogue = config.catalogue
        let engine = Engine(
            feeds: catalogue.feeds, merged: catalogue.merged, fetcher: fetcher, hub: hub, store: store, logger: logger)
        var names: [SourceID: String] = [:]
        for feed in catalogue.feeds { names[feed.id] = feed.name }
        for merged in catalogue.merged { names[merged.id] = merged.name }
        return WebDependencies(
            hub: hub, store: store,
            facts: .facts(url: catalogue.factsURL, fetcher: fetcher),
            albums: .albums(url: catalogue.albumsURL, fetcher: fetcher),
            discover: DiscoverService(settings: catalogue.newsAPI, fetcher: fetcher),
            jokes: JokeService(url: catalogue.jokesURL, fetcher: fetcher, deviceID: deviceID),
            images: ImagePipeline(
                fetcher: fetcher, diskDirectory: config.dataDirectory.appendingPathComponent("images"),
                diskIndex: StoreImageIndex(store: store, logger: logger)),
            signer: signingKey, assets: try Assets.fromBundle(), sourceNames: names,
            services: [HTTPClientService(client: client), engine, EventLogger(hub: hub, logger: logger)])
    }
}

/// The database, or, when it exists but cannot be written (a read-only disk), the same database
/// read-only: Kiosk then serves what it has and says why it remembers nothing new.
private func openStore(at path: URL, logger: Logger) throws(StartupError) -> SQLiteStore {
    do {
        return try SQLiteStore(path: path)
    } catch {
        guard FileManager.default.fileExists(atPath: path.path), let readOnly = try? SQLiteStore(path: path, readOnly: true)
        else {
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
