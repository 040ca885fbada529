import Foundation
import KioskModel
import KioskStore
import PostgresNIO

// `LabelStore` on PostgreSQL: labels on entries, each user's own (see SQLite's `LabelRows`).
extension PostgresStore {
    public func labelCounts(user: UserID) async throws(StoreError) -> [LabelCount] {
        try await connection { session in
            try await session.rows(
                """
                SELECT l.label, count(*)::int8 AS total, count(*) FILTER (WHERE \(unescaped: PostgresReadingRows.isUnread))::int8 AS unread
                FROM entry_labels l JOIN entries e ON e.id = l.entry_id
                LEFT JOIN user_marks m ON m.user_id = l.user_id AND m.source = e.source
                LEFT JOIN entry_states s ON s.user_id = l.user_id AND s.entry_id = e.id
                WHERE l.user_id = \(user.rawValue) AND e.source IN (SELECT source FROM user_feeds WHERE user_id = \(user.rawValue))
                    AND NOT EXISTS (SELECT 1 FROM hidden_entries h WHERE h.user_id = l.user_id AND h.entry_id = l.entry_id)
                GROUP BY l.label ORDER BY l.label
                """
            ) { row in
                let total: Int64 = try row.get("total")
                let unread: Int64 = try row.get("unread")
                return LabelCount(name: try row.get("label"), unread: Int(unread), total: Int(total))
            }
        }
    }

    public func setLabel(_ label: String, _ on: Bool, ids: [Int64], user: UserID) async throws(StoreError) -> [Int64] {
        let now = now()
        return try await connection { session in
            try await PostgresLabelRows.set(label, on, ids: ids, user: user, now: now, in: session)
        }
    }

    public func entryLabels(ids: [Int64], user: UserID) async throws(StoreError) -> [Int64: [String]] {
        guard !ids.isEmpty else { return [:] }
        return try await connection { session in
            var labels: [Int64: [String]] = [:]
            try await session.forEachRow(
                "SELECT entry_id, label FROM entry_labels WHERE user_id = \(user.rawValue) AND entry_id = ANY(\(ids)) ORDER BY label"
            ) { row in
                labels[try row.get("entry_id"), default: []].append(try row.get("label"))
            }
            return labels
        }
    }
}

/// The SQL side of `LabelStore` on PostgreSQL.
enum PostgresLabelRows {
    /// Only entries of feeds the user follows are labelled; returns the ids that changed.
    static func set(_ label: String, _ on: Bool, ids: [Int64], user: UserID, now: Date, in session: PostgresSession)
        async throws -> [Int64]
    {
        guard !ids.isEmpty else { return [] }
        let label = PostgresText.clean(label)
        if on {
            return try await session.rows(
                """
                INSERT INTO entry_labels (user_id, label, entry_id, added_at)
                SELECT \(user.rawValue), \(label), e.id, \(now.timeIntervalSince1970) FROM entries e
                WHERE e.id = ANY(\(ids)) AND e.source IN (SELECT source FROM user_feeds WHERE user_id = \(user.rawValue))
                ON CONFLICT DO NOTHING RETURNING entry_id
                """
            ) { try $0.get("entry_id") }
        }
        return try await session.rows(
            """
            DELETE FROM entry_labels WHERE user_id = \(user.rawValue) AND label = \(label) AND entry_id = ANY(\(ids))
            RETURNING entry_id
            """
        ) { try $0.get("entry_id") }
    }

    /// The condition "the user (placeholder `user`) put `label` (a placeholder) on entry `e`".
    static func carries(user: String, label: String) -> String {
        "EXISTS (SELECT 1 FROM entry_labels l WHERE l.user_id = \(user) AND l.label = \(label) AND l.entry_id = e.id)"
    }
}
