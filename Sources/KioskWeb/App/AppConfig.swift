import Foundation
import KioskAccounts
import KioskSettings
import KioskSources
import KioskStore

/// Everything the web app is built from: the operator's ``Settings`` (defaults, config file,
/// environment, flags, merged by `Settings.resolve`), the sources they lead to, and what only the
/// program decides (how the owner is known, request limits, the password cost).
@dynamicMemberLookup
public struct AppConfig: Sendable {
    /// What the operator chose; each setting also reads as the config's own property.
    public var settings: Settings
    public var catalogue: SourceCatalogue
    /// Most connections held open at once (each open page holds one); nil, no limit.
    public var maxConnections: Int?
    /// How the owner is known while no account exists: by the link printed at start (a fresh
    /// token each run), unless set to `.loopback` (demo mode only).
    public var ownerAccess: OwnerAccess = .newLink()
    /// How long a request may take to arrive, head and body, from its first byte; a connection
    /// still sending when it passes is closed.
    public var requestTimeout: Duration = .seconds(60)
    /// How long a connection may send nothing between requests before it is closed (an open event
    /// stream is a request in progress, so it stays), so half-open clients cannot hold every slot.
    public var idleTimeout: Duration = .seconds(30)
    /// Most connections part-way through sending a request at once; past that, the one that has
    /// been sending longest is closed to make room.
    public var pendingRequestLimit = 256
    /// How long an entry page of a feed read as full articles waits for an article still due
    /// (fetched then); past it, the page shows the summary and the article is read by the passes.
    public var dueArticleWait: Duration = .seconds(3)
    /// The bcrypt cost of account passwords. Tests lower it to 4 to run fast; nothing else should.
    public var passwordCost = PasswordHasher.standardCost

    public init(settings: Settings, catalogue: SourceCatalogue, maxConnections: Int? = nil) {
        self.settings = settings
        self.catalogue = catalogue
        self.maxConnections = maxConnections
    }

    /// The default settings with data in `dataDirectory` (tests and benchmarks).
    public init(catalogue: SourceCatalogue, dataDirectory: URL) {
        self.init(settings: Settings(dataDirectory: dataDirectory), catalogue: catalogue)
    }

    /// Whether Kiosk may serve the single local owner when no account exists: only when it listens
    /// on loopback and nothing says it is reached otherwise (a proxy in front, other host names):
    /// a reverse proxy on this machine would hand the owner's reader to the whole network.
    public var servesLocalOwner: Bool {
        HostPolicy.isLoopback(settings.host) && settings.trustedProxies.isEmpty && settings.allowedHosts.isEmpty
    }

    // MARK: - Read off the settings

    /// Every setting reads as the config's own (`config.port`), written once: in ``Settings``.
    public subscript<Value>(dynamicMember path: WritableKeyPath<Settings, Value>) -> Value {
        get { settings[keyPath: path] }
        set { settings[keyPath: path] = newValue }
    }

    /// What is derived from the settings (`config.retention`).
    public subscript<Value>(dynamicMember path: KeyPath<Settings, Value>) -> Value {
        settings[keyPath: path]
    }

    /// The PostgreSQL database's URL, when the data lives there (shared with other replicas).
    public var postgresURL: String? {
        if case .postgres(let url) = settings.store { return url }
        return nil
    }
    public var leaseDuration: Duration { .seconds(settings.leaseSeconds) }
}
