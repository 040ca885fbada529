import KioskAccounts
import KioskCore
import KioskModel
import KioskReader
import KioskSources
import KioskStore
import ServiceLifecycle

/// What the routes use, passed in. Built only by ``assemble(_:_:logger:)``: `kiosk serve` through
/// ``live(_:logger:)``, tests and benchmarks with their own ``Parts`` (a store, a fetcher of the
/// sample server, no engine).
public struct WebDependencies: Sendable {
    public var hub: EventHub
    public var store: any KioskStore
    /// The user's reader: subscriptions, folders, read and star state.
    public var reader: Reader
    /// What the reader changed, for the live pages.
    public var readerChanges: ReaderChanges
    public var facts: CachedResource<FactSheet>
    public var albums: CachedResource<AlbumChart>
    public var discover: DiscoverService
    public var jokes: JokeService
    public var images: ImagePipeline
    public var signer: ImageSigner
    public var assets: Assets
    /// Names of the sources, for messages ("Business could not be refreshed").
    public var sourceNames: [SourceID: String]
    /// The News screen's sections (from the catalogue).
    public var news: NewsSections
    /// Run beside the web server for its lifetime (the engine, the HTTP client's shutdown...).
    public var services: [any Service]
    /// Accounts, sign-in and sessions.
    public var accounts: Accounts
    /// Replicas: the log every page event goes through (see `LiveBroadcaster`); nil alone.
    public var sharedLog: (any SharedLog)?
    /// The merged News sources, which replicas recompute from their parts.
    public var merged: [MergedSource] = []
    /// Why this Kiosk cannot take requests now (its database is away), or nil when it can:
    /// `/readyz`, for a load balancer.
    public var notReady: @Sendable () async -> String? = { nil }
    /// What Kiosk counts and times (`/metrics`); the store is handed its write timer at creation.
    public var metrics = KioskMetrics()
    /// Sends Web Push notifications to users' devices.
    var push: PushNotifier
    /// How each source's entries are drawn (its kind's drawing); News' sections hold the same.
    public var drawings = EntryDrawings()
    /// The reader view: entries' pages fetched once, read, kept with the entries.
    public var articles: ArticleService
    /// Asks "Show full articles" for a pass now (a feed was just set to it).
    public var articlePasses = ArticlePrefetcher.Wake()
    /// Episodes' chapters and transcripts, fetched when a player asks (nil: none are shown).
    public var episodeFiles: EpisodeFiles?
    /// Each account's place in its episodes, kept and announced.
    public var places: EpisodePlaces
    /// Where the media proxy opens episodes' files (the images' guarded fetcher); nil, no proxy.
    public var mediaSource: MediaSource?

    /// Only ``assemble(_:_:logger:)`` calls this: every other way in goes through it.
    init(
        hub: EventHub, store: any KioskStore, reader: Reader, readerChanges: ReaderChanges, facts: CachedResource<FactSheet>, albums: CachedResource<AlbumChart>,
        discover: DiscoverService, jokes: JokeService, images: ImagePipeline, signer: ImageSigner, assets: Assets,
        sourceNames: [SourceID: String], news: NewsSections, services: [any Service], accounts: Accounts,
        articles: ArticleService, push: PushNotifier, places: EpisodePlaces
    ) {
        self.push = push
        self.places = places
        self.accounts = accounts
        self.articles = articles
        self.news = news
        self.hub = hub
        self.store = store
        self.reader = reader
        self.readerChanges = readerChanges
        self.facts = facts
        self.albums = albums
        self.discover = discover
        self.jokes = jokes
        self.images = images
        self.signer = signer
        self.assets = assets
        self.sourceNames = sourceNames
        self.services = services
    }
}
