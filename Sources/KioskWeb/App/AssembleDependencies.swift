import Foundation
import KioskAccounts
import KioskCore
import KioskHTML
import KioskModel
import KioskReader
import KioskSources
import KioskStore
import Logging
import ServiceLifecycle

extension WebDependencies {
    /// What the ways of putting Kiosk together differ in: `kiosk serve` (``live(_:logger:)``), the
    /// test harness and the benchmarks each fill these and call ``assemble(_:_:logger:)``, which
    /// holds every other default. Settings that are settings (the password cost, retention,
    /// private feeds) come from ``AppConfig``.
    public struct Parts: Sendable {
        public var store: any KioskStore
        /// Reads the sources: feeds, facts, albums, the news API, jokes.
        public var fetcher: any Fetching
        /// Reads images for the proxy; the sources' fetcher when nil.
        public var imageFetcher: (any Fetching)?
        /// Opens episodes' files for the media proxy; when nil, the image fetcher's (or the
        /// sources') when it is an ``HTTPFetcher``.
        public var mediaSource: MediaSource?
        /// Signs and checks the image proxy's URLs.
        public var signer: ImageSigner
        /// Where changes are announced; the engine publishes into it when there is one.
        public var hub = EventHub()
        /// Who polls the reader's feeds: the engine when serving; nobody in tests (they feed the
        /// hub by hand) and benchmarks (they measure pages alone).
        public var scheduler: any FeedScheduler = IdleScheduler()
        /// This installation's id (the jokes API's per-device id).
        public var deviceID = UUID()
        /// The image pipeline's disk cache; memory only when nil.
        public var imageCache: URL?
        /// Run beside the web server for its lifetime (the engine, the HTTP client's shutdown...).
        public var services: [any Service] = []
        /// Replicas: the shared log of page events; nil for one Kiosk alone.
        public var sharedLog: (any SharedLog)?
        /// Why this Kiosk cannot take requests now, for `/readyz`; nil when it can.
        public var notReady: @Sendable () async -> String? = { nil }
        /// The metrics the store was handed its write timer from.
        public var metrics = KioskMetrics()
        /// The kinds of source this Kiosk reads (the engine's) and draws.
        public var kinds = SourceKinds.builtIn
        /// Whether new entries of feeds read as full articles (`ArticlePrefetcher`) and new
        /// episodes' transcripts (`TranscriptIndex`) are fetched in the background: when serving;
        /// not in tests and benchmarks unless they say.
        public var prefetchesArticles = false
        /// Whether what rules ask to notify of is sent (`PushDispatcher`): when serving; tests
        /// run its passes themselves.
        public var dispatchesPushes = false
        /// Reads an entry's page into its article (the reader view): KioskCore's extractor.
        public var extractArticle: ArticleService.Extract = { bytes, url, charset in
            try ArticleExtractor.extract(bytes, url: url.absoluteString, charsetHint: charset)
        }

        public init(store: any KioskStore, fetcher: any Fetching, signer: ImageSigner) {
            self.store = store
            self.fetcher = fetcher
            self.signer = signer
        }
    }

    /// The one way the web app's dependencies are put together. Starts the reader (the catalogue's
    /// News feeds built in, its other feeds configured), so the store is read here.
    public static func assemble(_ config: AppConfig, _ parts: Parts, logger: Logger) async throws -> WebDependencies {
        let catalogue = config.catalogue
        let store = parts.store
        let changes = ReaderChanges()
        let policy = AddressPolicy(
            allowsPrivateHosts: config.allowPrivateFeeds, trusting: catalogue.trustedSources)
        let reader = Reader(
            store: store, scheduler: parts.scheduler, finder: FeedFinder(fetcher: parts.fetcher, policy: policy),
            policy: policy,
            limits: ReaderLimits(
                subscriptionsPerAccount: config.settings.subscriptionsPerAccount, importsPerHour: config.settings.importsPerHour),
            logger: logger, onChange: { await changes.publish($0) })
        // A demo data directory's first start: nothing was ever subscribed.
        var firstDemoStart = false
        if config.settings.demo { firstDemoStart = (try? await store.feeds())?.isEmpty ?? false }
        do {
            try await reader.start(
                builtIn: catalogue.feeds.filter { catalogue.newsFeeds.contains($0.id) },
                configured: catalogue.feeds.filter { !catalogue.newsFeeds.contains($0.id) })
        } catch {
            throw StartupError("cannot read the subscriptions: \(error.message)")
        }
        if firstDemoStart { await DemoExamples.add(to: store, logger: logger) }
        var names: [SourceID: String] = [:]
        // The News labels and announcements use each feed's own name (users may rename theirs).
        for feed in (try? await store.feeds()) ?? [] { names[feed.id] = feed.displayName }
        for merged in catalogue.merged { names[merged.id] = merged.name }
        let drawings = EntryDrawings(catalogue: catalogue, kinds: parts.kinds)
        let fetcher = parts.fetcher
        // Pages are fetched as images are: the strict guard, the catalogue's sources trusted.
        let articles = ArticleService(
            store: store, fetcher: parts.imageFetcher ?? fetcher, extract: parts.extractArticle, logger: logger)
        // Chapters and transcripts are fetched as pages and images are: the strict guard, the
        // sources trusted.
        let episodeFiles = EpisodeFiles(fetcher: parts.imageFetcher ?? fetcher)
        var services = parts.services
        let articlePasses = ArticlePrefetcher.Wake()
        if parts.prefetchesArticles {
            services.append(
                ArticlePrefetcher(store: store, articles: articles, wake: articlePasses, hub: parts.hub, logger: logger))
            services.append(TranscriptIndex(store: store, files: episodeFiles, hub: parts.hub, logger: logger))
        }
        var push = PushNotifier(store: store, fetcher: fetcher, logger: logger)
        if let contact = config.settings.pushContact, contact.hasPrefix("mailto:") || contact.hasPrefix("https:") {
            push.subject = contact
        }
        // The VAPID key pair is made at first start and kept with the data (the store agrees on
        // one between replicas); a store that cannot keep it now makes it at first use instead.
        _ = try? await push.key()
        if parts.dispatchesPushes {
            services.append(
                PushDispatcher(
                    notifier: push, store: store, reader: reader,
                    every: .seconds(60 * config.settings.notifyEveryMinutes), logger: logger,
                    imagePath: { [signer = parts.signer] in signer.path(for: $0) }))
        }
        var dependencies = WebDependencies(
            hub: parts.hub, store: store, reader: reader, readerChanges: changes,
            facts: .facts(url: catalogue.factsURL, fetcher: fetcher),
            albums: .albums(url: catalogue.albumsURL, fetcher: fetcher),
            discover: DiscoverService(
                settings: catalogue.newsAPI, fetcher: fetcher, budget: Self.discoverBudget(config), ledger: store),
            jokes: JokeService(url: catalogue.jokesURL, fetcher: fetcher, deviceID: parts.deviceID),
            images: ImagePipeline(fetcher: parts.imageFetcher ?? fetcher, diskDirectory: parts.imageCache),
            signer: parts.signer, assets: try Assets.fromBundle(), sourceNames: names,
            news: NewsSections(catalogue: catalogue, names: names, drawings: drawings), services: services,
            accounts: Accounts(store: store, hasher: .bcrypt(cost: config.passwordCost)), articles: articles,
            push: push, places: EpisodePlaces(store: store, reader: reader, publish: { await changes.publish($0) }))
        dependencies.sharedLog = parts.sharedLog
        dependencies.merged = catalogue.merged
        dependencies.notReady = parts.notReady
        dependencies.metrics = parts.metrics
        dependencies.drawings = drawings
        dependencies.articlePasses = articlePasses
        dependencies.episodeFiles = episodeFiles
        // Media is fetched as images are: the strict guard, the sources trusted.
        dependencies.mediaSource = parts.mediaSource ?? ((parts.imageFetcher ?? fetcher) as? HTTPFetcher).map(MediaSource.fetcher)
        return dependencies
    }

    /// The API key's quota spared (answers kept, calls per account counted), except in demo mode,
    /// whose news API is the sample server on this machine and has no quota to spare: there
    /// every request is asked afresh, as the demo's own tests expect.
    static func discoverBudget(_ config: AppConfig) -> DiscoverService.Budget {
        var budget = DiscoverService.Budget()
        if config.settings.demo {
            budget.keepAnswersFor = .zero
            budget.callsPerAccount = .max
        }
        return budget
    }
}
