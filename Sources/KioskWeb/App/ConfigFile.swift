import Foundation
import KioskSources

/// The config file (JSON). Every field is optional; the command line wins over the file.
///
/// ```json
/// {"ownerName": "Ann", "host": "127.0.0.1", "port": 8080, "dataDirectory": "/var/lib/kiosk",
///  "database": "/var/lib/kiosk/kiosk.sqlite", "newsAPIKey": "…",
///  "sources": {"feeds": [{"id": "business", "url": "https://example.org/business.rss"}]}}
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

    public init() {}

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
