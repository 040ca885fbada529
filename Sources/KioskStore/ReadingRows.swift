import Foundation
import GRDB
import KioskCore
import KioskSources

/// The SQL side of `ReadingStore`: reading lists, read and star state, retention.
enum ReadingRows {
    private static let columns =
        "id, source, key, json, read, starred, received_at, sort_date"

    static func list(_ filter: EntryFilter, in db: Database) throws -> [StoredEntry] {
        var conditions: [String] = []
        var arguments: StatementArguments = []
        if let sources = filter.sources {
            guard !sources.isEmpty else { return [] }
            conditions.append("source IN (\(databaseQuestionMarks(count: sources.count)))")
            _ = arguments.append(contentsOf: StatementArguments(sources.map(\.rawValue)))
        }
        if filter.unreadOnly { conditions.append("read = 0") }
        if filter.starredOnly { conditions.append("starred = 1") }
        if let after = filter.after {
            conditions.append("(sort_date < ? OR (sort_date = ? AND id < ?))")
            let seconds = after.sortDate.timeIntervalSince1970
            _ = arguments.append(contentsOf: [seconds, seconds, after.id])
        }
        let whereClause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        _ = arguments.append(contentsOf: [max(0, filter.limit)])
        let rows = try Row.fetchCursor(
            db, sql: "SELECT \(columns) FROM entries \(whereClause) ORDER BY sort_date DESC, id DESC LIMIT ?",
            arguments: arguments)
        return try decode(rows)
    }

    static func entry(source: SourceID, key: String, in db: Database) throws -> StoredEntry? {
        let rows = try Row.fetchCursor(
            db, sql: "SELECT \(columns) FROM entries WHERE source = ? AND key = ? ORDER BY in_feed DESC LIMIT 1",
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
        let rows = try Row.fetchCursor(
            db, sql: "SELECT source, COUNT(*) AS unread FROM entries WHERE read = 0 GROUP BY source")
        while let row = try rows.next() {
            counts[SourceID(rawValue: row["source"])] = row["unread"]
        }
        return counts
    }

    static func starredCount(in db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM entries WHERE starred = 1") ?? 0
    }

    /// Sets `column` (read or starred) to `value` on `ids`; returns the ids that changed.
    static func set(_ column: StateColumn, to value: Bool, ids: [Int64], now: Date, in db: Database) throws -> [Int64] {
        var changed: [Int64] = []
        // In chunks: SQLite limits the parameters of one statement.
        for chunk in stride(from: 0, to: ids.count, by: 500).map({ Array(ids[$0..<min($0 + 500, ids.count)]) }) {
            let marks = databaseQuestionMarks(count: chunk.count)
            let found = try Int64.fetchAll(
                db, sql: "SELECT id FROM entries WHERE id IN (\(marks)) AND \(column.rawValue) != ?",
                arguments: StatementArguments(chunk) + [value])
            guard !found.isEmpty else { continue }
            try db.execute(
                sql: "UPDATE entries SET \(column.rawValue) = ?, state_changed_at = ? WHERE id IN (\(databaseQuestionMarks(count: found.count)))",
                arguments: [value, now.timeIntervalSince1970] + StatementArguments(found))
            changed += found
        }
        return changed
    }

    static func markAllRead(sources: [SourceID]?, upTo: Int64, now: Date, in db: Database) throws -> [Int64] {
        var condition = "read = 0 AND id <= ?"
        var arguments: StatementArguments = [upTo]
        if let sources {
            guard !sources.isEmpty else { return [] }
            condition += " AND source IN (\(databaseQuestionMarks(count: sources.count)))"
            _ = arguments.append(contentsOf: StatementArguments(sources.map(\.rawValue)))
        }
        let ids = try Int64.fetchAll(db, sql: "SELECT id FROM entries WHERE \(condition)", arguments: arguments)
        guard !ids.isEmpty else { return [] }
        try db.execute(
            sql: "UPDATE entries SET read = 1, state_changed_at = ? WHERE \(condition)",
            arguments: [now.timeIntervalSince1970] + arguments)
        return ids
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
        return removed
    }

    enum StateColumn: String {
        case read, starred
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
                    isRead: row["read"], isStarred: row["starred"],
                    receivedAt: Date(timeIntervalSince1970: row["received_at"]),
                    sortDate: Date(timeIntervalSince1970: row["sort_date"])))
        }
        return list
    }
}
