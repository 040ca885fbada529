import Foundation
import KioskCore
import KioskModel
import KioskStore
import PostgresNIO

/// The SQL side of a source's entries: one statement replaces a feed's list, reading lists back.
enum PostgresEntryRows {
    /// One entry of a feed as the saving statement reads it (`jsonb_to_recordset`): a whole feed
    /// travels as one parameter, whatever its length, and nil fields become NULL.
    struct FeedRow: Encodable {
        var identity: String
        var key: String
        var position: Int
        var title: String?
        var link: String?
        var published: Double?
        var summary_text: String?
        var search_text: String
        var json: String
        var sort_date: Double
    }

    /// `entries` deduplicated by identity, in feed order, as the saving statement takes them.
    static func feedRows(_ entries: [Entry], received: Date) throws -> String {
        let encoder = EntryJSON.encoder()
        var rows: [FeedRow] = []
        let kept = EntryIdentity.deduplicated(entries)
        rows.reserveCapacity(kept.count)
        let receivedSeconds = received.timeIntervalSince1970
        for (position, item) in kept.enumerated() {
            let entry = item.entry
            let summary = SearchText.plainSummary(of: entry)
            rows.append(
                FeedRow(
                    identity: PostgresText.clean(item.identity), key: EntryRules.key(identity: item.identity), position: position,
                    title: PostgresText.clean(entry.title), link: PostgresText.clean(entry.link),
                    published: entry.published?.timeIntervalSince1970, summary_text: PostgresText.clean(summary),
                    search_text: PostgresSearchText.indexed(title: entry.title, summaryText: summary),
                    json: try EntryJSON.encode(entry, with: encoder),
                    sort_date: EntryRules.sortDate(of: entry, received: receivedSeconds)))
        }
        return String(decoding: try JSONEncoder().encode(rows), as: UTF8.self)
    }

    /// The part of the saving statement that makes `source`'s feed list exactly the entries in
    /// `$feed` (see `feedRows`), touching only what changed: new identities inserted (received
    /// now, unread for every follower), a changed entry updated in place (same row, same read and
    /// star state), a moved one given its new position only. Rows whose identity left the feed
    /// stay, out of the feed, until retention prunes them. Every part reads the rows as they
    /// were before the statement, which runs as one (atomic) whole. It returns the new rows'
    /// ids and identities, for the rules (`PostgresRuleRows.arrive`).
    static func replaceSQL(source: String, feed: String, received: String) -> String {
        """
        feed AS (
            SELECT * FROM jsonb_to_recordset(\(feed)::jsonb) AS f (identity text, key text, position integer,
                title text, link text, published double precision, summary_text text, search_text text,
                json text, sort_date double precision)
        ),
        old AS (
            SELECT id, identity FROM entries WHERE source = \(source)
        ),
        left_feed AS (
            UPDATE entries SET in_feed = false
            WHERE source = \(source) AND in_feed AND NOT EXISTS (SELECT 1 FROM feed WHERE feed.identity = entries.identity)
        ),
        changed AS (
            UPDATE entries e SET position = feed.position, title = feed.title, link = feed.link,
                published = feed.published, summary_text = feed.summary_text, search_text = feed.search_text,
                json = feed.json, in_feed = true
            FROM feed WHERE e.source = \(source) AND e.identity = feed.identity AND e.json <> feed.json
        ),
        moved AS (
            UPDATE entries e SET position = feed.position, in_feed = true
            FROM feed WHERE e.source = \(source) AND e.identity = feed.identity AND e.json = feed.json
                AND (e.position <> feed.position OR NOT e.in_feed)
        ),
        added AS (
            INSERT INTO entries (source, identity, key, position, title, link, published, summary_text, search_text,
                json, in_feed, received_at, sort_date)
            SELECT \(source), feed.identity, feed.key, feed.position, feed.title, feed.link, feed.published,
                feed.summary_text, feed.search_text, feed.json, true, \(received), feed.sort_date
            FROM feed WHERE NOT EXISTS (SELECT 1 FROM old WHERE old.identity = feed.identity)
            ORDER BY feed.position
            ON CONFLICT (source, identity) DO NOTHING
            RETURNING id, identity
        ),
        counted AS (
            UPDATE user_marks SET unread = unread + (SELECT COUNT(*) FROM added)
            WHERE source = \(source) AND EXISTS (SELECT 1 FROM added)
        )
        SELECT id, identity FROM added
        """
    }

    /// The part of the saving statement that deletes every entry of `source` (and so every
    /// follower's state of them, by cascade) and resets its marks.
    static func removeAllSQL(source: String) -> String {
        """
        removed AS (
            DELETE FROM entries WHERE source = \(source)
        )
        UPDATE user_marks SET read_up_to = 0, unread = 0 WHERE source = \(source)
        """
    }

    /// Deletes every entry of `source`, on its own (forgetting a feed).
    static func removeAll(of source: SourceID, in session: PostgresSession) async throws {
        try await session.execute("DELETE FROM entries WHERE source = \(source.rawValue)")
        try await session.execute("UPDATE user_marks SET read_up_to = 0, unread = 0 WHERE source = \(source.rawValue)")
    }

    /// The entries in `source`'s feed now (or in every feed when nil), each list in feed order.
    /// A row whose JSON cannot be read is left out, as SQLite's store does.
    static func load(of source: SourceID?, in session: PostgresSession) async throws -> [SourceID: [Entry]] {
        let decoder = JSONDecoder()
        var lists: [SourceID: [Entry]] = [:]
        let query: PostgresQuery
        if let source {
            query = "SELECT source, json FROM entries WHERE source = \(source.rawValue) AND in_feed ORDER BY position"
        } else {
            query = "SELECT source, json FROM entries WHERE in_feed ORDER BY source, position"
        }
        try await session.forEachRow(query) { row in
            let json: String = try row.get("json")
            guard let entry = try? decoder.decode(Entry.self, from: Data(json.utf8)) else { return }
            lists[SourceID(rawValue: try row.get("source")), default: []].append(entry)
        }
        return lists
    }

    /// Entries with words starting with every term of `tsQuery` (see `PostgresSearchText`), best
    /// first (or, `.newest`, newest received first and unranked), among the feeds `user` follows
    /// (nil: every feed).
    static func search(_ tsQuery: String, limit: Int, user: UserID?, order: SearchOrder = .relevance, in session: PostgresSession)
        async throws -> [SearchHit]
    {
        var builder = PostgresQueryBuilder()
        let query = builder.bind(tsQuery)
        if order == .newest {
            // Found in the title and summary, the fetched article or the transcript; no rank computed.
            builder.append(
                """
                WITH best AS (
                    SELECT id FROM entries WHERE array_to_tsvector(string_to_array(search_text, ' ')) @@ CAST(\(query) AS tsquery)
                    UNION
                    SELECT entry_id FROM articles WHERE array_to_tsvector(string_to_array(search_text, ' ')) @@ CAST(\(query) AS tsquery)
                    UNION
                    SELECT entry_id FROM transcripts WHERE array_to_tsvector(string_to_array(search_text, ' ')) @@ CAST(\(query) AS tsquery)
                )
                SELECT e.id, e.source, e.json FROM best JOIN entries e ON e.id = best.id
                """)
            if let user {
                let id = builder.bind(user.rawValue)
                builder.append(" WHERE e.source IN (SELECT source FROM user_feeds WHERE user_id = \(id))")
            }
            builder.append(" ORDER BY e.id DESC LIMIT \(builder.bind(limit))")
            return try await hits(builder.query, in: session)
        }
        // Found in the title and summary, the fetched article or the transcript; ranked by the best match.
        builder.append(
            """
            WITH hits AS (
                SELECT id, ts_rank(array_to_tsvector(string_to_array(search_text, ' ')), CAST(\(query) AS tsquery)) AS rank
                FROM entries WHERE array_to_tsvector(string_to_array(search_text, ' ')) @@ CAST(\(query) AS tsquery)
                UNION ALL
                SELECT entry_id, ts_rank(array_to_tsvector(string_to_array(search_text, ' ')), CAST(\(query) AS tsquery))
                FROM articles WHERE array_to_tsvector(string_to_array(search_text, ' ')) @@ CAST(\(query) AS tsquery)
                UNION ALL
                SELECT entry_id, ts_rank(array_to_tsvector(string_to_array(search_text, ' ')), CAST(\(query) AS tsquery))
                FROM transcripts WHERE array_to_tsvector(string_to_array(search_text, ' ')) @@ CAST(\(query) AS tsquery)
            ), best AS (SELECT id, MAX(rank) AS rank FROM hits GROUP BY id)
            SELECT e.id, e.source, e.json FROM best JOIN entries e ON e.id = best.id
            """)
        if let user {
            let id = builder.bind(user.rawValue)
            builder.append(" WHERE e.source IN (SELECT source FROM user_feeds WHERE user_id = \(id))")
        }
        let limitValue = builder.bind(limit)
        builder.append(
            """
             ORDER BY best.rank DESC, e.source, e.position
            LIMIT \(limitValue)
            """)
        return try await hits(builder.query, in: session)
    }

    private static func hits(_ query: PostgresQuery, in session: PostgresSession) async throws -> [SearchHit] {
        let decoder = JSONDecoder()
        var hits: [SearchHit] = []
        try await session.forEachRow(query) { row in
            let json: String = try row.get("json")
            guard let entry = try? decoder.decode(Entry.self, from: Data(json.utf8)) else { return }
            hits.append(SearchHit(id: try row.get("id"), source: SourceID(rawValue: try row.get("source")), entry: entry))
        }
        return hits
    }
}
