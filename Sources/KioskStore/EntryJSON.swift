import Foundation
import KioskCore

/// How an `Entry` is written into the `json` column, by every store: the PostgreSQL store writes
/// it the same way, so a row copied from SQLite compares equal to the same entry saved there.
package enum EntryJSON {
    /// Sorted keys make equal entries equal text, which is how a save tells a changed entry from
    /// an unchanged one without decoding the row.
    package static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    package static func encode(_ entry: Entry, with encoder: JSONEncoder) throws -> String {
        String(decoding: try encoder.encode(entry), as: UTF8.self)
    }
}
