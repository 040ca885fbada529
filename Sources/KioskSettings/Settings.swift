import Foundation
import KioskSources
import KioskStore

/// Every setting Kiosk has, each with its default written once: here.
///
/// Where a value comes from, each later one winning: these defaults, the config file (`--config`,
/// JSON), the environment, the command line. ``schema`` says, one entry per setting, how each is
/// named, read and bounded; ``resolve(file:environment:flags:)`` merges and checks them. `kiosk serve`,
/// `kiosk user`, `kiosk migrate-to-postgres` start from it and open the store through
/// ``openStore(onWrite:readOnlyFallback:logger:)``. README's settings table is
/// ``markdownTable``, held to it by a test.
public struct Settings: Sendable, Equatable {
    /// Shown on Home.
    public var ownerName = "Kiosk reader"
    /// The address Kiosk listens on; beyond loopback it needs an account first.
    public var host = "127.0.0.1"
    /// The port Kiosk listens on.
    public var port = 8080
    /// Where Kiosk keeps its data (images, the image proxy's key, the SQLite database), final:
    /// ``defaultDataDirectory(_:)`` unless given, with `demo/` inside it in demo mode.
    public var dataDirectory: URL
    /// The database: an SQLite file, or a `postgres://` URL replicas share; nil,
    /// ``databaseFileName`` in the data directory.
    public var database: String?
    /// NewsAPI's key for Discover; nil, none (Discover says so), or `demo` in demo mode.
    public var newsAPIKey: String?
    /// Source URLs replaced and feeds added.
    public var sources: SourceOverrides?
    /// Whether users may subscribe to feeds on private and loopback addresses (an operator
    /// reading their own network's feeds). Configured and demo sources are always allowed.
    public var allowPrivateFeeds = false
    /// Days the reader keeps entries that left their feed and are not starred.
    public var retentionDays = 60
    /// Entries kept per feed beyond what it lists now, starred ones aside.
    public var retentionPerFeed = 1_000
    /// Host names or addresses clients reach Kiosk by, besides the loopback ones and `host`: a
    /// request naming another host gets 421 (DNS rebinding).
    public var allowedHosts: [String] = []
    /// Reverse proxies (their addresses) whose `X-Forwarded-Proto` is believed.
    public var trustedProxies: [String] = []
    /// This replica's name in feed leases and the live log; nil, host name and process id.
    public var replicaName: String?
    /// Seconds a replica holds a feed it checks; one that dies loses its feeds after this.
    public var leaseSeconds = 30
    /// Checks of one host in flight at once: the fetch clients' connections per host, and the
    /// cluster's leases across every replica.
    public var checksPerHost = 32
    /// The loopback port `/metrics` (Prometheus) is served on; nil, none.
    public var metricsPort: Int?
    /// Feeds one account may follow.
    public var subscriptionsPerAccount = 2_500
    /// OPML imports one account may make in an hour.
    public var importsPerHour = 10
    /// Each device is notified at most once in this many minutes; what a rule asks to notify
    /// meanwhile is summed up in its next one.
    public var notifyEveryMinutes = 5
    /// Who push services may contact about this server (VAPID's `sub`); Apple's refuses an
    /// address at localhost.
    public var pushContact: String?
    /// A JSON file of per-site rules for the reader view (selectors to keep and drop, by host:
    /// `SiteRules`), read at start; nil, none.
    public var siteRules: String?
    /// Whether episodes play through Kiosk's media proxy rather than straight from the publisher,
    /// for whoever has not chosen in Settings (and the owner, who has no account).
    public var mediaThroughKiosk = false
    /// Media files one account may load through Kiosk at once: a player streams one or two, and
    /// a paused one keeps its stream until the browser lets it go (or 30 s without a byte read).
    public var mediaStreamsPerAccount = 8
    /// Demo mode: the embedded sample sources, a data directory of its own, loopback trusted.
    public var demo = false

    /// The defaults, keeping data in `dataDirectory`.
    public init(dataDirectory: URL) {
        self.dataDirectory = dataDirectory
    }

    /// The SQLite file's name in the data directory, when `database` names none.
    public static let databaseFileName = "kiosk.sqlite"

    /// The data directory when none is given: `$XDG_DATA_HOME/kiosk`, else `~/.local/share/kiosk`.
    public static func defaultDataDirectory(_ environment: [String: String]) -> URL {
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty {
            return URL(fileURLWithPath: xdg).appendingPathComponent("kiosk")
        }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share/kiosk")
    }

    /// Where the store is.
    public var store: StoreLocation {
        guard let database else { return .sqlite(dataDirectory.appendingPathComponent(Self.databaseFileName)) }
        return StoreLocation.isPostgresURL(database) ? .postgres(database) : .sqlite(URL(fileURLWithPath: database))
    }

    /// What the reader keeps of entries that left their feed.
    public var retention: RetentionPolicy {
        RetentionPolicy(maxAge: .seconds(retentionDays * 86_400), maxPerFeed: retentionPerFeed)
    }
}

/// Where the data lives: an SQLite file, or a PostgreSQL database (its URL).
public enum StoreLocation: Sendable, Equatable {
    case sqlite(URL)
    case postgres(String)

    /// Whether `database` names a server rather than a file: anything with a scheme. A URL
    /// that is not PostgreSQL's (`POSTGRES://`, a typo) then fails with "bad database URL"
    /// instead of quietly becoming an SQLite file beside the working directory.
    public static func isPostgresURL(_ text: String) -> Bool {
        text.contains("://")
    }
}

/// A setting that cannot be used, said plainly (the command prints it and exits with a failure).
public struct SettingsError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
