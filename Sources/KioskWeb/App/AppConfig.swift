import Foundation
import KioskAccounts
import KioskSources
import KioskStore

/// Everything the web app is built from: who it is for, where it listens, what it reads, where it
/// keeps its data. Made by the command line from flags and the config file.
public struct AppConfig: Sendable {
    /// Shown on Home.
    public var ownerName: String
    public var host: String
    public var port: Int
    public var catalogue: SourceCatalogue
    /// The image cache, the image proxy's key, and the database unless `databasePath` says otherwise.
    public var dataDirectory: URL
    public var databasePath: URL?
    /// Most connections held open at once (each open page holds one); nil, no limit.
    public var maxConnections: Int?
    /// Whether users may subscribe to feeds on private and loopback addresses (an operator
    /// reading their own network's feeds). The configured and demo sources are always allowed.
    public var allowsPrivateFeeds: Bool
    /// How long the reader keeps entries that left their feed.
    public var retention: RetentionPolicy
    /// Host names (or addresses) requests may name besides the loopback ones and `host`: the
    /// names clients reach Kiosk by when it listens beyond loopback (see ``HostPolicy``).
    public var allowedHosts: [String]
    /// Addresses of the reverse proxies in front of Kiosk: only their `X-Forwarded-Proto` is
    /// believed (it makes the session cookie `Secure`).
    public var trustedProxies: [String]
    /// A `postgres://` URL: the data lives in PostgreSQL, shared with other replicas, instead of
    /// the SQLite file.
    public var postgresURL: String?
    /// This replica's name in feed leases and the live log (default: host name and process id).
    public var replicaName: String?
    /// How long a replica holds a feed it checks; one that dies loses its feeds after this.
    public var leaseDuration: Duration = .seconds(30)
    /// Checks of one host in flight at once across every replica (one Kiosk alone keeps 32
    /// connections per host).
    public var checksPerHost = 32
    /// The loopback port `/metrics` (Prometheus) listens on; nil, none.
    public var metricsPort: Int?
    /// How the owner is known while no account exists: by the link printed at start (a fresh
    /// token each run), unless set to `.loopback` (demo mode only).
    public var ownerAccess: OwnerAccess = .newLink()
    /// How long a request may take to arrive, head and body, from its first byte; a connection
    /// still sending when it passes is closed.
    public var requestTimeout: Duration = .seconds(60)
    /// Most connections part-way through sending a request at once; past that, the one that has
    /// been sending longest is closed to make room.
    public var pendingRequestLimit = 256
    /// The bcrypt cost of account passwords. Tests lower it to 4 to run fast; nothing else should.
    public var passwordCost = PasswordHasher.standardCost

    public init(
        ownerName: String = "Kiosk reader", host: String = "127.0.0.1", port: Int = 8080, catalogue: SourceCatalogue,
        dataDirectory: URL, databasePath: URL? = nil, maxConnections: Int? = nil, allowsPrivateFeeds: Bool = false,
        retention: RetentionPolicy = .default, allowedHosts: [String] = [], trustedProxies: [String] = []
    ) {
        self.trustedProxies = trustedProxies
        self.ownerName = ownerName
        self.host = host
        self.port = port
        self.catalogue = catalogue
        self.dataDirectory = dataDirectory
        self.databasePath = databasePath
        self.maxConnections = maxConnections
        self.allowsPrivateFeeds = allowsPrivateFeeds
        self.retention = retention
        self.allowedHosts = allowedHosts
    }

    /// Whether Kiosk may serve the single local owner when no account exists: only when it listens
    /// on loopback and nothing says it is reached otherwise (a proxy in front, other host names):
    /// a reverse proxy on this machine would hand the owner's reader to the whole network.
    public var servesLocalOwner: Bool {
        HostPolicy.isLoopback(host) && trustedProxies.isEmpty && allowedHosts.isEmpty
    }

    /// Where the SQLite database lives.
    public var database: URL { databasePath ?? dataDirectory.appendingPathComponent("kiosk.sqlite") }
}
