import Foundation
import GRDB
import KioskCore
import KioskSources

/// The SQL side of `ReadingStore`: reading lists, read and star state, retention.
enum ReadingRows {
    /// Whether entry `e` is read, given its feed's mark `m` (see `Schema.readMarks`).
    static let isRead = "(e.read = 1 OR (e.id <= COALESCE(m.read_up_to, 0) AND e.kept_unread = 0))"
    private static let isUnread = "(e.read = 0 AND (e.id > COALESCE(m.read_up_to, 0) OR e.kept_unread = 1))"
    private static let columns =
        "e.id, e.source, e.key, e.json, \(isRead) AS is_read, e.starred, e.received_at, e.sort_date"
    private static let from = "entries e LEFT JOIN read_marks m ON m.source = e.source"

    static func list(_ filter: EntryFilter, in db: Database) throws -> [StoredEntry] {
        var conditions: [String] = []
        var arguments: StatementArguments = []
        if let sources = filter.sources {
            guard !sources.isEmpty else { return [] }
            conditions.append("e.source IN (\(databaseQuestionMarks(count: sources.count)))")
            _ = arguments.append(contentsOf: StatementArguments(sources.map(\.rawValue)))
        }
        if filter.unreadOnly { conditions.append(isUnread) }
        if filter.starredOnly { conditions.append("e.starred = 1") }
        if let after = filter.after {
            conditions.append("(e.sort_date < ? OR (e.sort_date = ? AND e.id < ?))")
            let seconds = after.sortDate.timeIntervalSince1970
            _ = arguments.append(contentsOf: [seconds, seconds, after.id])
        }
        let whereClause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        _ = arguments.append(contentsOf: [max(0, filter.limit)])
        let rows = try Row.fetchCursor(
            db, sql: "SELECT \(columns) FROM \(from) \(whereClause) ORDER BY e.sort_date DESC, e.id DESC LIMIT ?",
            arguments: arguments)
        return try decode(rows)
    }

    static func entry(source: SourceID, key: String, in db: Database) throws -> StoredEntry? {
        let rows = try Row.fetchCursor(
            db, sql: "SELECT \(columns) FROM \(from) WHERE e.source = ? AND e.key = ? ORDER BY e.in_feed DESC LIMIT 1",
            arguments: [source.rawValue, key])
        return try decode(rows).first
    }

    static func newestID(sources: [SourceID]?, in db: Database) throws -> Int64 {
        guard let sources else { return try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM entries") ?? 0 }
        guard !sources.isEmpty else { return 0 }
        return try Int64.fetchOne(
            db, sql: "SELECT MAX(id) FROM entries WHERE source IN (\(databaseQuestionMarks(count: sources.count)))",
            arguments: StatementArguments(sources.map(\.rawValue))) ?? 0
    }

    static func unreadCounts(in db: Database) throws -> [SourceID: Int] {
        var counts: [SourceID: Int] = [:]
        let rows = try Row.fetchCursor(db, sql: "SELECT source, unread FROM read_marks WHERE unread > 0")
        while let row = try rows.next() {
            counts[SourceID(rawValue: row["source"])] = row["unread"]
        }
        return counts
    }

    static func starredCount(in db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM entries WHERE starred = 1") ?? 0
    }

    /// Stars or unstars `ids`; returns the ids that changed.
    static func setStarred(_ value: Bool, ids: [Int64], now: Date, in db: Database) throws -> [Int64] {
        var changed: [Int64] = []
        for chunk in chunks(of: ids) {
            let found = try Int64.fetchAll(
                db, sql: "SELECT id FROM entries WHERE id IN (\(databaseQuestionMarks(count: chunk.count))) AND starred != ?",
                arguments: StatementArguments(chunk) + [value])
            guard !found.isEmpty else { continue }
            try db.execute(
                sql: "UPDATE entries SET starred = ?, state_changed_at = ? WHERE id IN (\(databaseQuestionMarks(count: found.count)))",
                arguments: [value, now.timeIntervalSince1970] + StatementArguments(found))
            changed += found
        }
        return changed
    }

    /// Marks `ids` read or unread; returns the ids that changed. Read: the entry's own flag.
    /// Unread under its feed's mark: kept unread. The feeds' counts move by what changed.
    static func setRead(_ value: Bool, ids: [Int64], now: Date, in db: Database) throws -> [Int64] {
        var changed: [Int64] = []
        var delta: [String: Int] = [:]
        let update = try db.cachedStatement(
            sql: "UPDATE entries SET read = ?, kept_unread = ?, state_changed_at = ? WHERE id = ?")
        for chunk in chunks(of: ids) {
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT e.id, e.source, \(isRead) AS is_read, COALESCE(m.read_up_to, 0) AS mark
                    FROM \(from) WHERE e.id IN (\(databaseQuestionMarks(count: chunk.count)))
                    """,
                arguments: StatementArguments(chunk))
            for row in rows {
                let wasRead: Bool = row["is_read"]
                guard wasRead != value else { continue }
                let id: Int64 = row["id"]
                let mark: Int64 = row["mark"]
                try update.execute(arguments: [value, !value && id <= mark, now.timeIntervalSince1970, id])
                delta[row["source"], default: 0] += value ? -1 : 1
                changed.append(id)
            }
        }
        try adjustCounts(delta, in: db)
        return changed
    }

    /// Marks every unread entry of `sources` (nil: all) up to id `upTo` read by moving each
    /// feed's mark: the work is per feed plus the entries that changed, whose ids it returns.
    static func markAllRead(sources: [SourceID]?, upTo: Int64, now: Date, in db: Database) throws -> [Int64] {
        if let sources, sources.isEmpty { return [] }
        let only = sources.map { "WHERE source IN (\(databaseQuestionMarks(count: $0.count)))" } ?? ""
        let marks: [(source: String, mark: Int64)] = try Row.fetchAll(
            db, sql: "SELECT source, read_up_to FROM read_marks \(only)",
            arguments: StatementArguments((sources ?? []).map(\.rawValue))
        ).map { ($0["source"], $0["read_up_to"]) }
        let newlyRead = try db.cachedStatement(
            sql: "SELECT id FROM entries WHERE source = ? AND read = 0 AND id > ? AND id <= ?")
        let keptUnread = try db.cachedStatement(
            sql: "SELECT id FROM entries WHERE source = ? AND kept_unread = 1 AND read = 0 AND id <= ?")
        let clearKept = try db.cachedStatement(
            sql: "UPDATE entries SET kept_unread = 0, state_changed_at = ? WHERE source = ? AND kept_unread = 1 AND id <= ?")
        let move = try db.cachedStatement(
            sql: "UPDATE read_marks SET read_up_to = ?, unread = MAX(0, unread - ?) WHERE source = ?")
        var ids: [Int64] = []
        for (source, mark) in marks {
            var read = try Int64.fetchAll(newlyRead, arguments: [source, mark, upTo])
            let kept = try Int64.fetchAll(keptUnread, arguments: [source, min(upTo, mark)])
            if !kept.isEmpty {
                try clearKept.execute(arguments: [now.timeIntervalSince1970, source, min(upTo, mark)])
                read += kept
            }
            guard upTo > mark || !read.isEmpty else { continue }
            try move.execute(arguments: [max(mark, upTo), read.count, source])
            ids += read
        }
        return ids
    }

    /// Pulls every mark down to its feed's newest entry and counts unread afresh: after entries
    /// were deleted (retention, a feed emptied), so no later id falls under an old mark.
    static func recountMarks(in db: Database) throws {
        try db.execute(
            sql: """
                UPDATE read_marks SET read_up_to = MIN(read_up_to,
                    COALESCE((SELECT MAX(id) FROM entries WHERE entries.source = read_marks.source), 0));
                UPDATE read_marks SET unread =
                    (SELECT COUNT(*) FROM entries
                        WHERE entries.source = read_marks.source AND read = 0 AND id > read_marks.read_up_to)
                    + (SELECT COUNT(*) FROM entries
                        WHERE entries.source = read_marks.source AND kept_unread = 1 AND read = 0
                            AND id <= read_marks.read_up_to);
                """)
    }

    /// Adds `delta` to feeds' unread counts (new entries, entries marked read or unread).
    static func adjustCounts(_ delta: [String: Int], in db: Database) throws {
        let adjust = try db.cachedStatement(
            sql: """
                INSERT INTO read_marks (source, unread) VALUES (?, MAX(0, ?))
                ON CONFLICT (source) DO UPDATE SET unread = MAX(0, unread + excluded.unread)
                """)
        let lower = try db.cachedStatement(sql: "UPDATE read_marks SET unread = MAX(0, unread + ?) WHERE source = ?")
        for (source, change) in delta where change != 0 {
            if change > 0 {
                try adjust.execute(arguments: [source, change])
            } else {
                try lower.execute(arguments: [change, source])
            }
        }
    }

    private static func chunks(of ids: [Int64]) -> [[Int64]] {
        // SQLite limits the parameters of one statement.
        stride(from: 0, to: ids.count, by: 500).map { Array(ids[$0..<min($0 + 500, ids.count)]) }
    }

    static func prune(_ policy: RetentionPolicy, now: Date, in db: Database) throws -> Int {
        let components = policy.maxAge.components
        let cutoff = now.timeIntervalSince1970 - Double(components.seconds)
        try db.execute(
            sql: "DELETE FROM entries WHERE in_feed = 0 AND starred = 0 AND received_at < ?", arguments: [cutoff])
        var removed = db.changesCount
        // Past the cap: the oldest first, never what is still in the feed or starred.
        try db.execute(
            sql: """
                DELETE FROM entries WHERE id IN (
                    SELECT id FROM (
                        SELECT id, in_feed, starred,
                            ROW_NUMBER() OVER (PARTITION BY source ORDER BY sort_date DESC, id DESC) AS rank
                        FROM entries
                    ) WHERE rank > ? AND in_feed = 0 AND starred = 0
                )
                """,
            arguments: [max(0, policy.maxPerFeed)])
        removed += db.changesCount
        if removed > 0 { try recountMarks(in: db) }
        return removed
    }

    private static func decode(_ rows: RowCursor) throws -> [StoredEntry] {
        let decoder = JSONDecoder()
        var list: [StoredEntry] = []
        while let row = try rows.next() {
            let json: String = row["json"]
            // A row that cannot be read is left out, as `EntryRows.load` does.
            guard let entry = try? decoder.decode(Entry.self, from: Data(json.utf8)) else { continue }
            list.append(
                StoredEntry(
                    id: row["id"], source: SourceID(rawValue: row["source"]), key: row["key"], entry: entry,
                    isRead: row["is_read"], isStarred: row["starred"],
                    receivedAt: Date(timeIntervalSince1970: row["received_at"]),
                    sortDate: Date(timeIntervalSince1970: row["sort_date"])))
        }
        return list
    }
}
