import Foundation
import GRDB
import KioskModel
import KioskStore

// `LabelStore`: labels on entries, each user's own: the public methods, then their SQL.
extension SQLiteStore {
    public func labelCounts(user: UserID) async throws(StoreError) -> [LabelCount] {
        try await read { db in try LabelRows.counts(user: user, in: db) }
    }

    public func setLabel(_ label: String, _ on: Bool, ids: [Int64], user: UserID) async throws(StoreError) -> [Int64] {
        let now = now()
        return try await write { db in try LabelRows.set(label, on, ids: ids, user: user, now: now, in: db) }
    }

    public func entryLabels(ids: [Int64], user: UserID) async throws(StoreError) -> [Int64: [String]] {
        try await read { db in try LabelRows.labels(of: ids, user: user, in: db) }
    }
}

/// The SQL side of `LabelStore`.
enum LabelRows {
    static func counts(user: UserID, in db: Database) throws -> [LabelCount] {
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT l.label, COUNT(*) AS total, SUM(\(ReadingRows.isRead) = 0) AS unread
                FROM entry_labels l JOIN entries e ON e.id = l.entry_id
                LEFT JOIN user_marks m ON m.user_id = l.user_id AND m.source = e.source
                LEFT JOIN entry_states s ON s.user_id = l.user_id AND s.entry_id = e.id
                WHERE l.user_id = ? AND e.source IN (SELECT source FROM user_feeds WHERE user_id = ?)
                    AND NOT EXISTS (SELECT 1 FROM hidden_entries h WHERE h.user_id = l.user_id AND h.entry_id = l.entry_id)
                GROUP BY l.label ORDER BY l.label
                """,
            arguments: [user.rawValue, user.rawValue])
        var counts: [LabelCount] = []
        while let row = try rows.next() {
            counts.append(LabelCount(name: row["label"], unread: row["unread"], total: row["total"]))
        }
        return counts
    }

    /// Only entries of feeds the user follows are labelled; returns the ids that changed.
    static func set(_ label: String, _ on: Bool, ids: [Int64], user: UserID, now: Date, in db: Database) throws -> [Int64] {
        var changed: [Int64] = []
        for chunk in ReadingRows.chunks(of: ids) {
            let marks = databaseQuestionMarks(count: chunk.count)
            let sql =
                on
                ? """
                INSERT INTO entry_labels (user_id, label, entry_id, added_at)
                SELECT ?, ?, e.id, ? FROM entries e
                WHERE e.id IN (\(marks)) AND e.source IN (SELECT source FROM user_feeds WHERE user_id = ?)
                ON CONFLICT DO NOTHING RETURNING entry_id
                """
                : """
                DELETE FROM entry_labels WHERE user_id = ? AND label = ? AND entry_id IN (\(marks)) RETURNING entry_id
                """
            let arguments: StatementArguments =
                on
                ? [user.rawValue, label, now.timeIntervalSince1970] + StatementArguments(chunk) + [user.rawValue]
                : [user.rawValue, label] + StatementArguments(chunk)
            changed += try Int64.fetchAll(db, sql: sql, arguments: arguments)
        }
        return changed
    }

    static func labels(of ids: [Int64], user: UserID, in db: Database) throws -> [Int64: [String]] {
        var labels: [Int64: [String]] = [:]
        for chunk in ReadingRows.chunks(of: ids) {
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT entry_id, label FROM entry_labels
                    WHERE user_id = ? AND entry_id IN (\(databaseQuestionMarks(count: chunk.count))) ORDER BY label
                    """,
                arguments: [user.rawValue] + StatementArguments(chunk))
            while let row = try rows.next() { labels[row["entry_id"], default: []].append(row["label"]) }
        }
        return labels
    }

    /// The condition "the user put `?` on entry `e`" (takes the user, then the label).
    static let carries = "EXISTS (SELECT 1 FROM entry_labels l WHERE l.user_id = ? AND l.label = ? AND l.entry_id = e.id)"
}
