import Hummingbird
import HummingbirdCore
import KioskCore
import KioskReader
import KioskSources
import KioskSync
import Logging
import NIOCore
import ServiceLifecycle

/// The composition root: Kiosk's web application, with the live sources, the store and the
/// engine it runs, from the configuration alone. `main` only parses flags and runs this.
public func buildApplication(_ config: AppConfig, logger: Logger) async throws -> some ApplicationProtocol {
    let dependencies = try await WebDependencies.live(config, logger: logger)
    return buildApplication(config, dependencies: dependencies, logger: logger)
}

/// The web application over the given dependencies (tests pass their own).
public func buildApplication(_ config: AppConfig, dependencies: WebDependencies, logger: Logger)
    -> some ApplicationProtocol
{
    composeApplication(config, dependencies: dependencies, logger: logger).application
}

/// The web application and the live broadcaster it built and runs (tests and benchmarks read it
/// from here rather than searching the application's services).
func composeApplication(_ config: AppConfig, dependencies: WebDependencies, logger: Logger)
    -> (application: some ApplicationProtocol, live: LiveBroadcaster)
{
    let live = LiveBroadcaster(
        hub: dependencies.hub, store: dependencies.store, names: dependencies.sourceNames,
        renderList: { [news = dependencies.news] source, sources in
            news.section(showing: source).map {
                RenderedList(NewsList(feed: $0, sections: news, sources: sources).keyedItems)
            }
        }, readerChanges: dependencies.readerChanges,
        // News sources are everyone's; a reader's own feed is heard of by its followers only.
        isPublic: { [news = dependencies.news] in news.isNews($0) },
        sharedLog: dependencies.sharedLog, merged: dependencies.merged,
        subscriptionsChanged: { [reader = dependencies.reader, logger] in
            do {
                try await reader.reload()
            } catch {
                logger.warning("cannot read the subscriptions again", metadata: ["error": "\(error)"])
            }
        }, logger: logger)
    // HEAD is GET without the body on every GET route (Hummingbird's router makes those).
    let router = Router(context: KioskRequestContext.self, options: .autoGenerateHeadEndpoints)
    // First, so every answer is counted, refusals included.
    router.add(middleware: RequestMetricsMiddleware(metrics: dependencies.metrics))
    router.add(middleware: SecurityHeadersMiddleware())
    // Before anything else reads the request: a name Kiosk is not reached by gets nothing (DNS rebinding).
    router.add(middleware: HostCheckMiddleware(policy: HostPolicy(boundHost: config.host, allowedHosts: config.allowedHosts)))
    router.add(middleware: KnownMethodsMiddleware())
    router.add(middleware: ForwardedForMiddleware(trustedProxies: Set(config.trustedProxies)))
    router.add(middleware: ClientMiddleware())
    router.add(middleware: SameOriginMiddleware())
    router.add(
        middleware: SignInMiddleware(
            accounts: dependencies.accounts, presence: AccountPresence(accounts: dependencies.accounts),
            loopbackOnly: config.servesLocalOwner,
            owner: OwnerPass(access: config.ownerAccess, signer: dependencies.signer)))
    // Each route group gets what it uses, no more.
    let d = dependencies
    // The Discover articles a page listed, for their detail pages and Home's "last opened".
    let shelf = ArticleShelf()
    AccountRoutes(
        accounts: d.accounts, live: live, host: config.host, port: config.port, trustedProxies: config.trustedProxies,
        mediaThroughKiosk: d.mediaSource == nil ? nil : config.settings.mediaThroughKiosk
    ).register(on: router)
    // The sync APIs (own credentials; the sign-in middleware lets /api/ through).
    let sync = SyncServices(accounts: d.accounts, reader: d.reader, store: d.store, logger: logger)
    GoogleReaderAPI<KioskRequestContext>(sync).register(on: router)
    FeverAPI<KioskRequestContext>(sync).register(on: router)
    ShellRoutes(assets: d.assets, live: live, ownerName: config.ownerName, notReady: d.notReady).register(on: router)
    NewsRoutes(news: d.news, store: d.store, signer: d.signer, articles: d.articles, live: live).register(on: router)
    ReaderRoutes(
        reader: d.reader, store: d.store, drawings: d.drawings, articles: d.articles, signer: d.signer, live: live,
        dueArticleWait: config.dueArticleWait, episodeFiles: d.episodeFiles, places: d.places,
        mediaThroughKiosk: d.mediaSource == nil ? nil : config.settings.mediaThroughKiosk
    ).register(on: router)
    ListenRoutes(
        reader: d.reader, places: d.places, drawings: d.drawings, live: live,
        signer: d.mediaSource == nil ? nil : d.signer
    ).register(on: router)
    ReaderActionRoutes(reader: d.reader, rules: Rules(store: d.store), articlePasses: d.articlePasses).register(on: router)
    SavedSearchRoutes(searches: SavedSearches(store: d.store), changes: d.readerChanges).register(on: router)
    RuleRoutes(rules: Rules(store: d.store), reader: d.reader).register(on: router)
    NotificationRoutes(
        push: d.push, store: d.store, reader: d.reader,
        demo: config.catalogue.demoPushURL.map { DemoPush(base: $0, fetcher: d.push.fetcher) }
    ).register(on: router)
    OfflineRoutes(reader: d.reader, store: d.store, drawings: d.drawings, signer: d.signer).register(on: router)
    DiscoverRoutes(
        discover: d.discover, hasAPIKey: !(config.catalogue.newsAPI.apiKey ?? "").isEmpty, store: d.store,
        reader: d.reader, news: d.news, signer: d.signer, shelf: shelf, logger: logger
    ).register(on: router)
    OnDemandRoutes(facts: d.facts, albums: d.albums, jokes: d.jokes, signer: d.signer).register(on: router)
    ImageRoute(signer: d.signer, images: d.images, logger: logger).register(on: router)
    MediaRoute(
        signer: d.signer, source: d.mediaSource,
        streams: MediaStreams(perAccount: config.settings.mediaStreamsPerAccount), logger: logger
    ).register(on: router)
    OpenedRoute(news: d.news, store: d.store, reader: d.reader, live: live, shelf: shelf).register(on: router)
    EventsRoute(live: live).register(on: router)
    // The generated HEAD would run the GET handler, whose subscription ends only in the body
    // it then drops: every HEAD would leave a client on the broadcaster.
    router.head("events") { _, _ in
        Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store"])
    }
    MethodRules.answerOtherMethods(on: router)
    // A connection that sends nothing for `idleTimeout` (30 s) is closed (an open event stream is a
    // request in progress, so it stays), so half-open clients cannot hold every slot.
    var http1 = HTTP1Channel.Configuration()
    http1.idleTimeout = TimeAmount(config.idleTimeout)
    // A connection that trickles is not idle: each request must also be all in within
    // `requestTimeout` of its first byte, and only `pendingRequestLimit` may be arriving at once.
    let limits = RequestLimits(
        requestTimeout: config.requestTimeout, pending: PendingRequests(limit: config.pendingRequestLimit))
    let application = Application(
        responder: ChildTaskResponder(inner: router.buildResponder()),
        server: .kioskHTTP1(configuration: http1, limits: limits),
        configuration: .init(
            address: .hostname(config.host, port: config.port), serverName: "Kiosk",
            availableConnectionsDelegate: config.maxConnections.map { MaximumAvailableConnections($0, logger: logger) }),
        services: dependencies.services + [live] + metricsServices(config, dependencies, live: live, logger: logger),
        logger: logger)
    return (application, live)
}

/// The checks' metrics (from the hub), and the loopback `/metrics` listener when asked for.
private func metricsServices(_ config: AppConfig, _ dependencies: WebDependencies, live: LiveBroadcaster, logger: Logger)
    -> [any Service]
{
    let news = dependencies.news
    var services: [any Service] = [
        SourceMetrics(
            hub: dependencies.hub, metrics: dependencies.metrics,
            label: { news.isNews($0) ? $0.rawValue : "subscribed" })
    ]
    if let port = config.metricsPort {
        services.append(MetricsServer.application(metrics: dependencies.metrics, live: live, port: port, logger: logger))
    }
    return services
}
