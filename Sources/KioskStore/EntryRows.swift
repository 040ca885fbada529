import Foundation
import GRDB
import KioskCore
import KioskSources

/// The SQL side of a source's entries: replacing a source's list row by row, reading lists back.
enum EntryRows {
    /// Makes `source`'s rows exactly `entries` (deduplicated by identity), touching only what
    /// changed: rows whose identity left the list are deleted, new identities inserted, a changed
    /// entry updated in place (same row, re-indexed), a moved one given its new position only.
    static func replace(_ entries: [Entry], of source: SourceID, in db: Database) throws {
        var existing: [String: (row: Int64, position: Int, json: String)] = [:]
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: "SELECT id, identity, position, json FROM entries WHERE source = ?"),
            arguments: [source.rawValue])
        while let row = try rows.next() {
            existing[row["identity"]] = (row["id"], row["position"], row["json"])
        }

        let kept = EntryIdentity.deduplicated(entries)
        let encoder = EntryJSON.encoder()
        var encoded: [String] = []
        encoded.reserveCapacity(kept.count)
        for item in kept { encoded.append(try EntryJSON.encode(item.entry, with: encoder)) }

        let keptIdentities = Set(kept.map(\.identity))
        let delete = try db.cachedStatement(sql: "DELETE FROM entries WHERE id = ?")
        for (identity, old) in existing where !keptIdentities.contains(identity) {
            try delete.execute(arguments: [old.row])
        }

        let insert = try db.cachedStatement(
            sql: """
                INSERT INTO entries (source, identity, position, title, link, published, summary_text, json)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """)
        let update = try db.cachedStatement(
            sql: """
                UPDATE entries SET position = ?, title = ?, link = ?, published = ?, summary_text = ?, json = ?
                WHERE id = ?
                """)
        let move = try db.cachedStatement(sql: "UPDATE entries SET position = ? WHERE id = ?")
        for (position, (item, json)) in zip(kept, encoded).enumerated() {
            let entry = item.entry
            if let old = existing[item.identity] {
                if old.json != json {
                    try update.execute(arguments: [
                        position, entry.title, entry.link, entry.published?.timeIntervalSince1970,
                        SearchText.plainSummary(of: entry), json, old.row,
                    ])
                } else if old.position != position {
                    try move.execute(arguments: [position, old.row])
                }
            } else {
                try insert.execute(arguments: [
                    source.rawValue, item.identity, position, entry.title, entry.link,
                    entry.published?.timeIntervalSince1970, SearchText.plainSummary(of: entry), json,
                ])
            }
        }
    }

    /// Deletes every entry of `source`.
    static func removeAll(of source: SourceID, in db: Database) throws {
        try db.execute(sql: "DELETE FROM entries WHERE source = ?", arguments: [source.rawValue])
    }

    /// The entries of `source` (or of every source when nil), each list in display order.
    ///
    /// A row whose JSON cannot be read (written by hand, or by a Kiosk whose `Entry` differs) is
    /// left out rather than failing the whole list: entries are a copy of what sources serve,
    /// and the next check brings it back.
    static func load(of source: SourceID?, in db: Database) throws -> [SourceID: [Entry]] {
        let decoder = JSONDecoder()
        var lists: [SourceID: [Entry]] = [:]
        let rows: RowCursor
        if let source {
            rows = try Row.fetchCursor(
                db, sql: "SELECT source, json FROM entries WHERE source = ? ORDER BY position",
                arguments: [source.rawValue])
        } else {
            rows = try Row.fetchCursor(db, sql: "SELECT source, json FROM entries ORDER BY source, position")
        }
        while let row = try rows.next() {
            let json: String = row["json"]
            guard let entry = try? decoder.decode(Entry.self, from: Data(json.utf8)) else { continue }
            lists[SourceID(rawValue: row["source"]), default: []].append(entry)
        }
        return lists
    }

    /// Entries matching an FTS5 `query`, best first.
    static func search(_ query: String, limit: Int, in db: Database) throws -> [SearchHit] {
        let decoder = JSONDecoder()
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT entries.source, entries.json FROM entries_fts
                JOIN entries ON entries.id = entries_fts.rowid
                WHERE entries_fts MATCH ?
                ORDER BY entries_fts.rank, entries.source, entries.position
                LIMIT ?
                """,
            arguments: [query, limit])
        var hits: [SearchHit] = []
        while let row = try rows.next() {
            let json: String = row["json"]
            guard let entry = try? decoder.decode(Entry.self, from: Data(json.utf8)) else { continue }
            hits.append(SearchHit(source: SourceID(rawValue: row["source"]), entry: entry))
        }
        return hits
    }
}

/// How an `Entry` is written into the `json` column.
enum EntryJSON {
    /// Sorted keys make equal entries equal text, which is how a save tells a changed entry from
    /// an unchanged one without decoding the row.
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    static func encode(_ entry: Entry, with encoder: JSONEncoder) throws -> String {
        String(decoding: try encoder.encode(entry), as: UTF8.self)
    }
}
