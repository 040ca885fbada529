import Foundation
import GRDB
import KioskCore
import KioskModel
import KioskStore

/// The SQL side of a source's entries: replacing a source's list row by row, reading lists back.
enum EntryRows {
    /// Makes `source`'s feed list exactly `entries` (deduplicated by identity), touching only
    /// what changed: new identities inserted (received now), a changed entry updated in place
    /// (same row, same read and star state, re-indexed), a moved one given its new position only.
    /// Rows whose identity left the feed stay, out of the feed (`in_feed` 0), until retention
    /// prunes them: the reader keeps what the user has not read yet.
    static func replace(_ entries: [Entry], of source: SourceID, in db: Database, now: Date = Date()) throws {
        var existing: [String: (row: Int64, position: Int, json: String, inFeed: Bool)] = [:]
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: "SELECT id, identity, position, json, in_feed FROM entries WHERE source = ?"),
            arguments: [source.rawValue])
        while let row = try rows.next() {
            existing[row["identity"]] = (row["id"], row["position"], row["json"], row["in_feed"])
        }

        let kept = EntryIdentity.deduplicated(entries)
        let encoder = EntryJSON.encoder()
        var encoded: [String] = []
        encoded.reserveCapacity(kept.count)
        for item in kept { encoded.append(try EntryJSON.encode(item.entry, with: encoder)) }

        let keptIdentities = Set(kept.map(\.identity))
        let leave = try db.cachedStatement(sql: "UPDATE entries SET in_feed = 0 WHERE id = ?")
        for (identity, old) in existing where old.inFeed && !keptIdentities.contains(identity) {
            try leave.execute(arguments: [old.row])
        }

        let insert = try db.cachedStatement(
            sql: """
                INSERT INTO entries (source, identity, key, position, title, link, published, summary_text, json,
                    in_feed, received_at, sort_date)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?)
                """)
        let update = try db.cachedStatement(
            sql: """
                UPDATE entries SET position = ?, title = ?, link = ?, published = ?, summary_text = ?, json = ?,
                    in_feed = 1
                WHERE id = ?
                """)
        let move = try db.cachedStatement(sql: "UPDATE entries SET position = ?, in_feed = 1 WHERE id = ?")
        let received = now.timeIntervalSince1970
        var inserted: [(id: Int64, entry: Entry)] = []
        for (position, (item, json)) in zip(kept, encoded).enumerated() {
            let entry = item.entry
            if let old = existing[item.identity] {
                if old.json != json {
                    try update.execute(arguments: [
                        position, entry.title, entry.link, entry.published?.timeIntervalSince1970,
                        SearchText.plainSummary(of: entry), json, old.row,
                    ])
                } else if old.position != position || !old.inFeed {
                    try move.execute(arguments: [position, old.row])
                }
            } else {
                try insert.execute(arguments: [
                    source.rawValue, item.identity, EntryRules.key(identity: item.identity), position, entry.title,
                    entry.link, entry.published?.timeIntervalSince1970, SearchText.plainSummary(of: entry), json, received,
                    EntryRules.sortDate(of: entry, received: received),
                ])
                inserted.append((db.lastInsertedRowID, entry))
            }
        }
        // New entries are unread for every follower: above each mark, with no flags. Then each
        // follower's rules judge them, before anyone can read them.
        try ReadingRows.countNew(inserted.count, of: source, in: db)
        try RuleRows.arrive(inserted, of: source, in: db, now: now)
    }

    /// Fills the reading columns of rows written before they existed (the `reading` migration).
    static func backfillReadingColumns(in db: Database, now: Date = Date()) throws {
        let update = try db.cachedStatement(
            sql: "UPDATE entries SET key = ?, received_at = ?, sort_date = ? WHERE id = ?")
        let rows = try Row.fetchAll(db, sql: "SELECT id, identity, published FROM entries")
        let received = now.timeIntervalSince1970
        for row in rows {
            let identity: String = row["identity"]
            let published: Double? = row["published"]
            try update.execute(arguments: [
                EntryRules.key(identity: identity), received, EntryRules.sortDate(published: published, received: received),
                row["id"],
            ])
        }
    }

    /// Deletes every entry of `source`.
    static func removeAll(of source: SourceID, in db: Database) throws {
        try db.execute(sql: "DELETE FROM entries WHERE source = ?", arguments: [source.rawValue])
        try db.execute(sql: "UPDATE user_marks SET read_up_to = 0, unread = 0 WHERE source = ?", arguments: [source.rawValue])
    }

    /// The entries in `source`'s feed now (or in every feed when nil), each list in feed order.
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
                db, sql: "SELECT source, json FROM entries WHERE source = ? AND in_feed = 1 ORDER BY position",
                arguments: [source.rawValue])
        } else {
            rows = try Row.fetchCursor(
                db, sql: "SELECT source, json FROM entries WHERE in_feed = 1 ORDER BY source, position")
        }
        while let row = try rows.next() {
            let json: String = row["json"]
            guard let entry = try? decoder.decode(Entry.self, from: Data(json.utf8)) else { continue }
            lists[SourceID(rawValue: row["source"]), default: []].append(entry)
        }
        return lists
    }

    /// What the two indexes are asked: the entries' (title and summary), and the articles' (nil
    /// when every term is in the title, which the articles' index has not).
    struct IndexQuery {
        var entries: String
        var articles: String?
    }

    /// Entries matching an FTS5 `query` in their title and summary, their article or their
    /// transcript, best first (an entry found in several ranks by its best match).
    static func search(_ query: IndexQuery, limit: Int, user: UserID?, in db: Database) throws -> [SearchHit] {
        let decoder = JSONDecoder()
        // The articles' and the transcripts' indexes hold no titles: asked the same.
        let articles = query.articles.map { _ in
            """
            UNION ALL SELECT rowid AS id, rank FROM articles_fts WHERE articles_fts MATCH ?
            UNION ALL SELECT rowid AS id, rank FROM transcripts_fts WHERE transcripts_fts MATCH ?
            """
        }
        let rows = try Row.fetchCursor(
            db,
            sql: """
                WITH hits AS (
                    SELECT rowid AS id, rank FROM entries_fts WHERE entries_fts MATCH ?
                    \(articles ?? "")
                ), best AS (SELECT id, MIN(rank) AS rank FROM hits GROUP BY id)
                SELECT entries.id, entries.source, entries.json FROM best
                JOIN entries ON entries.id = best.id
                WHERE (? IS NULL OR entries.source IN (SELECT source FROM user_feeds WHERE user_id = ?))
                ORDER BY best.rank, entries.source, entries.position
                LIMIT ?
                """,
            arguments: StatementArguments([query.entries] + (query.articles.map { [$0, $0] } ?? []))
                + [user?.rawValue, user?.rawValue, limit])
        return try hits(rows, decoder: decoder)
    }

    /// Entries matching an FTS5 `query` in their title and summary, their article or their
    /// transcript, newest received first, unranked. Each index is walked down its rowids (FTS5 does that without
    /// reading every match), at most `limit` kept of each, and the three merged.
    static func newest(_ query: IndexQuery, limit: Int, user: UserID?, in db: Database) throws -> [SearchHit] {
        let followed = "(? IS NULL OR entries.source IN (SELECT source FROM user_feeds WHERE user_id = ?))"
        let articles = query.articles.map { _ in
            """
            UNION
            SELECT id FROM (
                SELECT articles_fts.rowid AS id FROM articles_fts JOIN entries ON entries.id = articles_fts.rowid
                WHERE articles_fts MATCH ? AND \(followed) ORDER BY articles_fts.rowid DESC LIMIT ?)
            UNION
            SELECT id FROM (
                SELECT transcripts_fts.rowid AS id FROM transcripts_fts JOIN entries ON entries.id = transcripts_fts.rowid
                WHERE transcripts_fts MATCH ? AND \(followed) ORDER BY transcripts_fts.rowid DESC LIMIT ?)
            """
        }
        var arguments: StatementArguments = [query.entries, user?.rawValue, user?.rawValue, limit]
        if let text = query.articles {
            arguments += [text, user?.rawValue, user?.rawValue, limit, text, user?.rawValue, user?.rawValue, limit]
        }
        arguments += [limit]
        let rows = try Row.fetchCursor(
            db,
            sql: """
                WITH hits AS (
                    SELECT id FROM (
                        SELECT entries_fts.rowid AS id FROM entries_fts JOIN entries ON entries.id = entries_fts.rowid
                        WHERE entries_fts MATCH ? AND \(followed) ORDER BY entries_fts.rowid DESC LIMIT ?)
                    \(articles ?? "")
                )
                SELECT entries.id, entries.source, entries.json FROM hits JOIN entries ON entries.id = hits.id
                ORDER BY entries.id DESC LIMIT ?
                """,
            arguments: arguments)
        return try hits(rows, decoder: JSONDecoder())
    }

    private static func hits(_ rows: RowCursor, decoder: JSONDecoder) throws -> [SearchHit] {
        var hits: [SearchHit] = []
        while let row = try rows.next() {
            let json: String = row["json"]
            guard let entry = try? decoder.decode(Entry.self, from: Data(json.utf8)) else { continue }
            hits.append(SearchHit(id: row["id"], source: SourceID(rawValue: row["source"]), entry: entry))
        }
        return hits
    }
}
