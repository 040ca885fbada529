import Foundation

/// One setting, as README's table shows it.
public struct SettingDescription: Sendable, Equatable {
    /// The config file's key (the ``Settings`` property of the same name).
    public var key: String
    /// The command-line flag, if there is one.
    public var flag: String?
    /// The environment variable, if there is one.
    public var environment: String?
    /// The default, in words.
    public var defaultValue: String
    /// What it does.
    public var meaning: String
}

extension Settings {
    /// Every setting, in README's order; the defaults are read off ``Settings`` itself.
    public static var descriptions: [SettingDescription] {
        let defaults = Settings(dataDirectory: URL(fileURLWithPath: "/"))
        func row(
            _ key: String, flag: String? = nil, environment: String? = nil, _ defaultValue: String, _ meaning: String
        ) -> SettingDescription {
            SettingDescription(key: key, flag: flag, environment: environment, defaultValue: defaultValue, meaning: meaning)
        }
        return [
            row("ownerName", "`\(defaults.ownerName)`", "the name shown on Home"),
            row(
                "host", flag: "--host", "`\(defaults.host)`",
                "the address Kiosk listens on; beyond loopback it needs an account first"),
            row("port", flag: "--port", "`\(defaults.port)`", "the port Kiosk listens on"),
            row(
                "dataDirectory", flag: "--data-directory",
                "`$XDG_DATA_HOME/kiosk`, else `~/.local/share/kiosk`",
                "images, the image proxy's key, the SQLite database; demo mode uses `demo/` inside it"),
            row(
                "database", environment: "KIOSK_DATABASE_URL", "`\(databaseFileName)` in the data directory",
                "an SQLite file, or a `postgres://USER:PASSWORD@HOST/DATABASE` URL that replicas share"),
            row("newsAPIKey", environment: "NEWSAPI_KEY", "none (`demo` in demo mode)", "NewsAPI's key, for Discover"),
            row(
                "sources", "the live sources",
                "replace any source's URL, add feeds: `{\"feeds\": [{\"id\": \"business\", \"url\": \"https://…\"}]}`"),
            row(
                "allowPrivateFeeds", "`\(defaults.allowPrivateFeeds)`",
                "let users subscribe to feeds on private and loopback addresses"),
            row(
                "retentionDays", "`\(defaults.retentionDays)`",
                "days entries that left their feed are kept, starred ones aside (1 to 3650)"),
            row(
                "retentionPerFeed", "`\(defaults.retentionPerFeed)`",
                "entries kept per feed beyond what it lists now, starred ones aside (10 to 100000)"),
            row(
                "allowedHosts", "none",
                "host names clients may use besides `localhost`, `127.0.0.1`, `[::1]` and `host`; others get 421"),
            row("trustedProxies", "none", "reverse proxies whose `X-Forwarded-Proto` is believed (their addresses)"),
            row(
                "replicaName", flag: "--replica-name", "host name and process id",
                "this replica's name in feed leases and the live log (PostgreSQL)"),
            row(
                "leaseSeconds", flag: "--lease-seconds", "`\(defaults.leaseSeconds)`",
                "how long a replica holds a feed it checks: a dead one's feeds are taken over after this (20 to 3600)"),
            row(
                "checksPerHost", flag: "--checks-per-host", "`\(defaults.checksPerHost)`",
                "checks of one host in flight at once, across every replica (1 to 10000)"),
            row("metricsPort", flag: "--metrics-port", "none", "serve Prometheus metrics on `127.0.0.1:PORT/metrics`"),
            row(
                "subscriptionsPerAccount", "`\(defaults.subscriptionsPerAccount)`",
                "feeds one account may follow, the News sources included (1 to 100000); beyond, a sentence says so"),
            row(
                "importsPerHour", "`\(defaults.importsPerHour)`",
                "OPML imports one account may make in an hour (1 to 1000); beyond, a sentence says when to try again"),
            row(
                "siteRules", flag: "--site-rules", "none",
                "a JSON file of per-site rules for Full article: `{\"example.com\": {\"keep\": [\"article .body\"], \"drop\": [\".share\"]}}`"),
            row(
                "demo", flag: "--demo", "`\(defaults.demo)`",
                "the embedded sample sources, offline; anyone on this machine is the owner"),
        ]
    }

    /// README's settings table.
    public static var markdownTable: String {
        var lines = [
            "| setting (config file) | flag | environment | default | what it does |",
            "|---|---|---|---|---|",
        ]
        for setting in descriptions {
            let flag = setting.flag.map { "`\($0)`" } ?? ""
            let environment = setting.environment.map { "`\($0)`" } ?? ""
            lines.append("| `\(setting.key)` | \(flag) | \(environment) | \(setting.defaultValue) | \(setting.meaning) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
