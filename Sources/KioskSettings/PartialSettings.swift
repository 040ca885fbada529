import Foundation
import KioskSources

/// Some of the settings, as one place gives them; nil, not given there. The config file is one in
/// JSON, every field optional, named as in ``Settings``:
///
/// ```json
/// {"ownerName": "Ann", "host": "127.0.0.1", "port": 8080, "dataDirectory": "/var/lib/kiosk",
///  "database": "/var/lib/kiosk/kiosk.sqlite", "newsAPIKey": "…",
///  "sources": {"feeds": [{"id": "business", "url": "https://example.org/business.rss"}]},
///  "allowPrivateFeeds": false, "retentionDays": 60, "retentionPerFeed": 1000,
///  "allowedHosts": ["kiosk.example.org", "192.168.1.20"]}
/// ```
public struct PartialSettings: Codable, Sendable, Equatable {
    public var ownerName: String?
    public var host: String?
    public var port: Int?
    public var dataDirectory: String?
    public var database: String?
    public var newsAPIKey: String?
    public var sources: SourceOverrides?
    public var allowPrivateFeeds: Bool?
    public var retentionDays: Int?
    public var retentionPerFeed: Int?
    public var allowedHosts: [String]?
    public var trustedProxies: [String]?
    public var replicaName: String?
    public var leaseSeconds: Int?
    public var checksPerHost: Int?
    public var metricsPort: Int?
    public var siteRules: String?
    public var subscriptionsPerAccount: Int?
    public var importsPerHour: Int?
    public var demo: Bool?

    public init() {}

    /// What the environment says: `KIOSK_DATABASE_URL` (the database) and `NEWSAPI_KEY`; an empty
    /// value is no value. (`XDG_DATA_HOME` only moves the default data directory.)
    public static func environment(_ variables: [String: String]) -> PartialSettings {
        var settings = PartialSettings()
        settings.database = variables["KIOSK_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
        settings.newsAPIKey = variables["NEWSAPI_KEY"].flatMap { $0.isEmpty ? nil : $0 }
        return settings
    }

    /// Reads the config file at `path`, with a message that says what is wrong and where.
    public static func load(_ path: String) throws(SettingsError) -> PartialSettings {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw SettingsError("cannot read the config file \(path): \(error.localizedDescription)")
        }
        do {
            return try JSONDecoder().decode(PartialSettings.self, from: data)
        } catch let DecodingError.dataCorrupted(context), let DecodingError.typeMismatch(_, context),
            let DecodingError.valueNotFound(_, context), let DecodingError.keyNotFound(_, context)
        {
            let at = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw SettingsError("bad config file \(path)\(at.isEmpty ? "" : " at \(at)"): \(context.debugDescription)")
        } catch {
            throw SettingsError("bad config file \(path): \(error)")
        }
    }
}

extension Settings {
    /// The settings: the defaults, then `file`, then the environment, then `flags`, each later one
    /// winning; retention kept within its bounds; ports, lease and per-host limits checked.
    public static func resolve(
        file: PartialSettings = PartialSettings(), environment: [String: String],
        flags: PartialSettings = PartialSettings()
    ) throws(SettingsError) -> Settings {
        var settings = Settings(dataDirectory: defaultDataDirectory(environment))
        for layer in [file, PartialSettings.environment(environment), flags] {
            settings.apply(layer)
        }
        // Demo mode keeps its own data, so trying it never touches a real installation's.
        if settings.demo { settings.dataDirectory = settings.dataDirectory.appendingPathComponent("demo") }
        try settings.check()
        return settings
    }

    /// Takes every value `layer` gives.
    mutating func apply(_ layer: PartialSettings) {
        if let value = layer.ownerName { ownerName = value }
        if let value = layer.host { host = value }
        if let value = layer.port { port = value }
        if let value = layer.dataDirectory { dataDirectory = URL(fileURLWithPath: value) }
        if let value = layer.database { database = value }
        if let value = layer.newsAPIKey { newsAPIKey = value }
        if let value = layer.sources { sources = value }
        if let value = layer.allowPrivateFeeds { allowPrivateFeeds = value }
        if let value = layer.retentionDays { retentionDays = value }
        if let value = layer.retentionPerFeed { retentionPerFeed = value }
        if let value = layer.allowedHosts { allowedHosts = value }
        if let value = layer.trustedProxies { trustedProxies = value }
        if let value = layer.replicaName { replicaName = value }
        if let value = layer.leaseSeconds { leaseSeconds = value }
        if let value = layer.checksPerHost { checksPerHost = value }
        if let value = layer.metricsPort { metricsPort = value }
        if let value = layer.siteRules { siteRules = value }
        if let value = layer.subscriptionsPerAccount { subscriptionsPerAccount = value }
        if let value = layer.importsPerHour { importsPerHour = value }
        if let value = layer.demo { demo = value }
    }

    /// Keeps retention within sane bounds (a day to ten years; 10 to 100,000 entries per feed) and
    /// refuses what cannot work.
    mutating func check() throws(SettingsError) {
        retentionDays = min(max(retentionDays, 1), 3_650)
        retentionPerFeed = min(max(retentionPerFeed, 10), 100_000)
        subscriptionsPerAccount = min(max(subscriptionsPerAccount, 1), 100_000)
        importsPerHour = min(max(importsPerHour, 1), 1_000)
        guard (0...65_535).contains(port) else { throw SettingsError("port \(port) is not a TCP port") }
        if let metricsPort, !(1...65_535).contains(metricsPort) || metricsPort == port {
            throw SettingsError("the metrics port (--metrics-port) must be a TCP port other than --port")
        }
        guard (1...10_000).contains(checksPerHost) else {
            throw SettingsError("checksPerHost (--checks-per-host) must be 1 to 10000")
        }
        // A check may take 15 s (the fetch's deadline) and its writes: a shorter lease could expire
        // mid-check and let another replica check the same feed.
        guard (20...3_600).contains(leaseSeconds) else {
            throw SettingsError("leaseSeconds (--lease-seconds) must be 20 to 3600")
        }
    }
}
