import Foundation
import KioskSources
import KioskStore

/// The config file (JSON). Every field is optional; the command line wins over the file.
///
/// ```json
/// {"ownerName": "Ann", "host": "127.0.0.1", "port": 8080, "dataDirectory": "/var/lib/kiosk",
///  "database": "/var/lib/kiosk/kiosk.sqlite", "newsAPIKey": "…",
///  "sources": {"feeds": [{"id": "business", "url": "https://example.org/business.rss"}]},
///  "allowPrivateFeeds": false, "retentionDays": 60, "retentionPerFeed": 1000,
///  "allowedHosts": ["kiosk.example.org", "192.168.1.20"]}
/// ```
public struct ConfigFile: Codable, Sendable {
    public var ownerName: String?
    public var host: String?
    public var port: Int?
    public var dataDirectory: String?
    /// The SQLite database (default: `kiosk.sqlite` in the data directory).
    public var database: String?
    /// NewsAPI's key for Discover; empty means none (Discover then says so).
    public var newsAPIKey: String?
    public var sources: SourceOverrides?
    /// Let users subscribe to feeds on private and loopback addresses (default false).
    public var allowPrivateFeeds: Bool?
    /// Days the reader keeps entries that left their feed and are not starred (default 60).
    public var retentionDays: Int?
    /// Entries kept per feed beyond what it lists now, starred ones aside (default 1,000).
    public var retentionPerFeed: Int?
    /// Host names or addresses clients reach Kiosk by, besides `localhost`, `127.0.0.1`, `[::1]`
    /// and `host`: a request naming any other host gets 421, so a site cannot read Kiosk through
    /// a name of its own pointed at this machine (DNS rebinding). Any port; default none.
    public var allowedHosts: [String]?
    /// Reverse proxies whose `X-Forwarded-Proto` is believed (their addresses).
    public var trustedProxies: [String]?

    public init() {}

    /// The retention policy the file asks for, within sane bounds (a day to ten years; 10 to
    /// 100,000 entries per feed).
    public var retention: RetentionPolicy {
        let days = min(max(retentionDays ?? 60, 1), 3_650)
        let perFeed = min(max(retentionPerFeed ?? 1_000, 10), 100_000)
        return RetentionPolicy(maxAge: .seconds(days * 86_400), maxPerFeed: perFeed)
    }

    /// Reads `path`, with a message that says what is wrong and where.
    public static func load(_ path: String) throws(StartupError) -> ConfigFile {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw StartupError("cannot read the config file \(path): \(error.localizedDescription)")
        }
        do {
            return try JSONDecoder().decode(ConfigFile.self, from: data)
        } catch let DecodingError.dataCorrupted(context), let DecodingError.typeMismatch(_, context),
            let DecodingError.valueNotFound(_, context), let DecodingError.keyNotFound(_, context)
        {
            let at = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw StartupError("bad config file \(path)\(at.isEmpty ? "" : " at \(at)"): \(context.debugDescription)")
        } catch {
            throw StartupError("bad config file \(path): \(error)")
        }
    }
}
