import Foundation
import KioskSources

/// The config file (JSON). Every field is optional; the command line wins over the file.
///
/// ```json
/// {"ownerName": "Ann", "host": "127.0.0.1", "port": 8080, "dataDirectory": "/var/lib/kiosk",
///  "sources": {"feeds": [{"id": "business", "url": "https://example.org/business.rss"}]}}
/// ```
struct ConfigFile: Codable, Sendable {
    var ownerName: String?
    var host: String?
    var port: Int?
    var dataDirectory: String?
    var sources: SourceOverrides?

    /// Reads `path`, with a message that says what is wrong and where.
    static func load(_ path: String) throws -> ConfigFile {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ConfigError("cannot read the config file \(path): \(error.localizedDescription)")
        }
        do {
            return try JSONDecoder().decode(ConfigFile.self, from: data)
        } catch let DecodingError.dataCorrupted(context), let DecodingError.typeMismatch(_, context),
            let DecodingError.valueNotFound(_, context), let DecodingError.keyNotFound(_, context)
        {
            let at = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw ConfigError("bad config file \(path)\(at.isEmpty ? "" : " at \(at)"): \(context.debugDescription)")
        } catch {
            throw ConfigError("bad config file \(path): \(error)")
        }
    }
}

/// A startup problem, said plainly instead of a trap.
struct ConfigError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
