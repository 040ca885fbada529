import Foundation
import KioskSources

extension Settings {
    /// Every setting, in README's order: one entry each, from which the config file's keys, the
    /// environment's variables, `kiosk serve`'s flags, the bounds and README's table all come. The
    /// defaults are ``Settings``' own.
    public static let schema = SettingsSchema<Settings>([
        .value("ownerName", \.ownerName, "the name shown on Home"),
        .value(
            "host", \.host, flag: "host", "the address Kiosk listens on; beyond loopback it needs an account first"),
        .integer("port", \.port, flag: "port", bounds: .refused(0...65_535), "the port Kiosk listens on"),
        .text(
            "dataDirectory", flag: "data-directory", shown: "`$XDG_DATA_HOME/kiosk`, else `~/.local/share/kiosk`",
            "images, the image proxy's key, the SQLite database; demo mode uses `demo/` inside it"
        ) { settings, path in settings.dataDirectory = URL(fileURLWithPath: path) },
        .optional(
            "database", \.database, environment: "KIOSK_DATABASE_URL", shown: "`\(databaseFileName)` in the data directory",
            "an SQLite file, or a `postgres://USER:PASSWORD@HOST/DATABASE` URL that replicas share"),
        .optional(
            "newsAPIKey", \.newsAPIKey, environment: "NEWSAPI_KEY", shown: "none (`demo` in demo mode)",
            "NewsAPI's key, for Discover"),
        .optional(
            "sources", \.sources, shown: "the live sources",
            "replace any source's URL, add feeds: `{\"feeds\": [{\"id\": \"business\", \"url\": \"https://…\"}]}`"),
        .value(
            "allowPrivateFeeds", \.allowPrivateFeeds,
            "let users subscribe to feeds on private and loopback addresses"),
        .integer(
            "retentionDays", \.retentionDays, bounds: .clamped(1...3_650),
            "days entries that left their feed are kept, starred ones aside"),
        .integer(
            "retentionPerFeed", \.retentionPerFeed, bounds: .clamped(10...100_000),
            "entries kept per feed beyond what it lists now, starred ones aside"),
        .value(
            "allowedHosts", \.allowedHosts, shown: "none",
            "host names clients may use besides `localhost`, `127.0.0.1`, `[::1]` and `host`; others get 421"),
        .value(
            "trustedProxies", \.trustedProxies, shown: "none",
            "reverse proxies whose `X-Forwarded-Proto` is believed (their addresses)"),
        .optional(
            "replicaName", \.replicaName, flag: "replica-name", shown: "host name and process id",
            "this replica's name in feed leases and the live log (PostgreSQL)"),
        // A check may take 15 s (the fetch's deadline) and its writes: a shorter lease could
        // expire mid-check and let another replica check the same feed.
        .integer(
            "leaseSeconds", \.leaseSeconds, flag: "lease-seconds", bounds: .refused(20...3_600),
            "how long a replica holds a feed it checks: a dead one's feeds are taken over after this"),
        .integer(
            "checksPerHost", \.checksPerHost, flag: "checks-per-host", bounds: .refused(1...10_000),
            "connections to one host at once (feeds, images, articles); with PostgreSQL, also checks of one host across every replica"),
        .optionalInteger(
            "metricsPort", \.metricsPort, flag: "metrics-port", shown: "none", range: 1...65_535,
            "serve Prometheus metrics on `127.0.0.1:PORT/metrics`",
            also: { $0.metricsPort == $0.port ? "the metrics port (--metrics-port) must be a TCP port other than --port" : nil }),
        .integer(
            "subscriptionsPerAccount", \.subscriptionsPerAccount, bounds: .clamped(1...100_000),
            "feeds one account may follow, the News sources included; beyond, a sentence says so"),
        .integer(
            "importsPerHour", \.importsPerHour, bounds: .clamped(1...1_000),
            "OPML imports one account may make in an hour; beyond, a sentence says when to try again"),
        .integer(
            "notifyEveryMinutes", \.notifyEveryMinutes, bounds: .clamped(0...1_440),
            "each device is notified at most once in this many minutes; the rest is summed up in its next"),
        .optional(
            "pushContact", \.pushContact, shown: "`mailto:kiosk@example.org`",
            "who push services may contact about this server, a `mailto:` or `https:` address (Apple's wants a real one)"),
        .optional(
            "siteRules", \.siteRules, flag: "site-rules", shown: "none",
            "a JSON file of per-site rules for Full article: `{\"example.com\": {\"keep\": [\"article .body\"], \"drop\": [\".share\"]}}`"),
        .value(
            "mediaThroughKiosk", \.mediaThroughKiosk,
            "play episodes through Kiosk rather than straight from the publisher, for accounts that have not chosen in Settings"),
        .integer(
            "mediaStreamsPerAccount", \.mediaStreamsPerAccount, bounds: .clamped(1...64),
            "media files one account may load through Kiosk at once; beyond, 429"),
        .value("demo", \.demo, flag: "demo", "the embedded sample sources, offline; anyone on this machine is the owner"),
    ])

    /// README's settings table.
    public static var markdownTable: String {
        schema.markdownTable(defaults: Settings(dataDirectory: URL(fileURLWithPath: "/")))
    }
}

/// The sources are given as JSON, also as a flag's or a variable's text.
extension SourceOverrides: SettingValue {
    public init?(settingText: String) {
        guard let value = try? JSONDecoder().decode(SourceOverrides.self, from: Data(settingText.utf8)) else { return nil }
        self = value
    }
    public static var expected: String { "JSON, {\"feeds\": […]}" }
}
