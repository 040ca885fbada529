import Foundation
import KioskModel

/// How a source's last error is kept by every store: its message (for people and old rows) and
/// its JSON (to rebuild it exactly). The PostgreSQL store keeps it the same way, so a row copied
/// from SQLite reads back as the same error.
package enum StoredSourceError {
    /// The JSON of `error`.
    package static func json(_ error: SourceError) throws -> String {
        String(decoding: try JSONEncoder().encode(error), as: UTF8.self)
    }

    /// The stored error, rebuilt exactly from its JSON (case and payload, not an approximation),
    /// or from its message alone as `.unreadable(message)`, the case whose payload is free text,
    /// when that JSON is missing or unreadable (a row written by hand, a case from a newer Kiosk).
    ///
    /// Rows written before `SourceError` was Codable hold a mirror enum's JSON with the same case
    /// names and labels, which is the same JSON the synthesized conformance reads.
    package static func read(message: String?, json: String?, decoder: JSONDecoder) -> SourceError? {
        if let json, let stored = try? decoder.decode(SourceError.self, from: Data(json.utf8)) {
            return stored
        }
        return message.map { .unreadable($0) }
    }
}
