import Foundation
import KioskCore
import KioskModel
import KioskStore
import PostgresNIO

/// `itemRefs`: a page of ids, newest (or oldest) first, in statements whose plans do not depend
/// on the planner guessing well (a sync client asks for ten pages of unread ids on every
/// refresh, often of tables not yet analyzed, where the one-statement walk joined and sorted
/// every entry past the continuation on each page).
///
/// A page is answered in one or two statements:
/// - the window: the page's first `limit` entries by id past the continuation (a walk down the
///   primary key that stops there), kept when they pass the filters. When the window ends
///   the entries, or `limit` of them pass (a list that is mostly unread, or everything), that
///   is the page.
/// - otherwise what lies past the window: for unread ids, each followed feed's entries after
///   its mark (an index range per feed, so a reader with everything read costs one probe per
///   feed, not a walk through every entry) and its entries kept unread; for other lists, the
///   filtered walk past the window.
///
/// Starred, read and label lists are only the filtered walk (starred ids come from the few flags).
enum PostgresItemRefs {
    static func itemRefs(_ query: ItemQuery, user: UserID, in session: PostgresSession) async throws -> [ItemRef] {
        if let sources = query.sources, sources.isEmpty { return [] }
        guard query.limit > 0 else { return [] }
        if query.starredOnly || query.readOnly || query.label != nil {
            var builder = PostgresQueryBuilder()
            let id = builder.bind(user.rawValue)
            builder.append(walk(query, user: id, bound: nil, limit: query.limit, builder: &builder))
            return try await refs(builder.query, in: session)
        }
        let window = try await self.window(query, user: user, in: session)
        guard window.hits.count < query.limit, window.count >= query.limit, let edge = window.edge else {
            return window.hits
        }
        var builder = PostgresQueryBuilder()
        let id = builder.bind(user.rawValue)
        let bound = builder.bind(edge)
        let rest = query.limit - window.hits.count
        if query.unreadOnly {
            builder.append(pastUnread(query, user: id, bound: bound, limit: rest, builder: &builder))
        } else {
            builder.append(walk(query, user: id, bound: bound, limit: rest, builder: &builder))
        }
        return window.hits + (try await refs(builder.query, in: session))
    }

    /// The refs `query` returns (columns `id, source, received_at`), read by position.
    private static func refs(_ query: PostgresQuery, in session: PostgresSession) async throws -> [ItemRef] {
        var list: [ItemRef] = []
        try await session.forEachPlainRow(query) { row in
            let (id, source, received) = try row.decode((Int64, String, Double).self)
            list.append(ItemRef(id: id, source: SourceID(rawValue: source), receivedAt: Date(timeIntervalSince1970: received)))
        }
        return list
    }

    /// The direction of a page: its order, the comparison that means "past", and the window's
    /// last id (the smallest newest first).
    private struct Direction {
        var order: String
        var past: String
        var edge: String

        init(oldestFirst: Bool) {
            order = oldestFirst ? "ASC" : "DESC"
            past = oldestFirst ? ">" : "<"
            edge = oldestFirst ? "MAX" : "MIN"
        }
    }

    /// The window's entries that pass, in order; how many entries it held; its last id.
    private struct Window {
        var hits: [ItemRef] = []
        var count = 0
        var edge: Int64?
    }

    /// The followed feeds (only those asked for) with the user's mark, a scalar lookup per feed;
    /// a CTE of its own, so no join order for the planner to get wrong.
    private static func feeds(_ query: ItemQuery, user id: String, builder: inout PostgresQueryBuilder) -> String {
        var only = ""
        if let sources = query.sources {
            only = " AND u.source = ANY(\(builder.bind(sources.map(\.rawValue))))"
        }
        return """
            feeds AS MATERIALIZED (
                SELECT u.source, COALESCE((SELECT m.read_up_to FROM user_marks m
                    WHERE m.user_id = u.user_id AND m.source = u.source), 0) AS mark
                FROM user_feeds u WHERE u.user_id = \(id)\(only)
            )
            """
    }

    /// The received-at filters of `query` on entries `e`, each starting with AND.
    private static func received(_ query: ItemQuery, builder: inout PostgresQueryBuilder) -> String {
        var sql = ""
        if let since = query.receivedSince {
            sql += " AND e.received_at >= \(builder.bind(since.timeIntervalSince1970))"
        }
        if let before = query.receivedBefore {
            sql += " AND e.received_at < \(builder.bind(before.timeIntervalSince1970))"
        }
        return sql
    }

    /// The window: `limit` entries past the continuation by the primary key, the user's flags in
    /// their range of ids (one index range, not a probe per entry), those that pass. One row per
    /// hit, each with the window's size and edge; a single row without an id when none pass.
    private static func window(_ query: ItemQuery, user: UserID, in session: PostgresSession) async throws -> Window {
        let direction = Direction(oldestFirst: query.oldestFirst)
        var builder = PostgresQueryBuilder()
        let id = builder.bind(user.rawValue)
        let limit = builder.bind(query.limit)
        let feeds = feeds(query, user: id, builder: &builder)
        var start = ""
        if let after = query.after {
            start = "WHERE e.id \(direction.past) \(builder.bind(after))"
        }
        var filters = received(query, builder: &builder) + " AND \(notHidden(user: id))"
        if query.unreadOnly {
            filters += " AND NOT COALESCE(s.read, false) AND (e.id > f.mark OR COALESCE(s.kept_unread, false))"
        }
        builder.append(
            """
            WITH \(feeds),
            recent AS MATERIALIZED (
                SELECT e.id, e.source, e.received_at FROM entries e \(start)
                ORDER BY e.id \(direction.order) LIMIT \(limit)
            ),
            marked AS MATERIALIZED (
                SELECT s.entry_id, s.read, s.kept_unread FROM entry_states s
                WHERE s.user_id = \(id)
                    AND s.entry_id BETWEEN (SELECT MIN(id) FROM recent) AND (SELECT MAX(id) FROM recent)
            )
            SELECT w.edge, w.n, h.id, h.source, h.received_at
            FROM (SELECT \(direction.edge)(id) AS edge, COUNT(*) AS n FROM recent) w
            LEFT JOIN (
                SELECT e.id, e.source, e.received_at FROM recent e
                JOIN feeds f ON f.source = e.source
                LEFT JOIN marked s ON s.entry_id = e.id
                WHERE true\(filters)
            ) h ON true
            ORDER BY h.id \(direction.order)
            """)
        var window = Window()
        try await session.forEachPlainRow(builder.query) { row in
            let (edge, count, id, source, received) = try row.decode((Int64?, Int64, Int64?, String?, Double?).self)
            window.edge = edge
            window.count = Int(count)
            if let id, let source, let received {
                window.hits.append(
                    ItemRef(id: id, source: SourceID(rawValue: source), receivedAt: Date(timeIntervalSince1970: received)))
            }
        }
        return window
    }

    /// Unread entries past `bound`: each feed's entries after its mark, in order by its
    /// `(source, id)` index, and the entries kept unread under a mark.
    private static func pastUnread(
        _ query: ItemQuery, user id: String, bound: String, limit rest: Int, builder: inout PostgresQueryBuilder
    ) -> String {
        let direction = Direction(oldestFirst: query.oldestFirst)
        let limit = builder.bind(rest)
        let feeds = feeds(query, user: id, builder: &builder)
        let afterMark = received(query, builder: &builder)
        let kept = received(query, builder: &builder)
        return """
            WITH \(feeds)
            SELECT id, source, received_at FROM (
                SELECT l.id, l.source, l.received_at FROM feeds f CROSS JOIN LATERAL (
                    SELECT e.id, e.source, e.received_at FROM entries e
                    WHERE e.source = f.source AND e.id > f.mark AND e.id \(direction.past) \(bound)\(afterMark)
                        AND NOT EXISTS (SELECT 1 FROM entry_states s
                            WHERE s.user_id = \(id) AND s.entry_id = e.id AND s.read)
                        AND \(notHidden(user: id))
                    ORDER BY e.id \(direction.order) LIMIT \(limit)
                ) l
                UNION ALL
                SELECT e.id, e.source, e.received_at FROM entry_states s
                JOIN entries e ON e.id = s.entry_id
                JOIN feeds f ON f.source = e.source
                WHERE s.user_id = \(id) AND s.kept_unread AND NOT s.read AND e.id <= f.mark
                    AND e.id \(direction.past) \(bound)\(kept) AND \(notHidden(user: id))
            ) past
            ORDER BY id \(direction.order) LIMIT \(limit)
            """
    }

    /// "Entry `e` is not one the user (placeholder `user`) hid": a sync client never sees those.
    private static func notHidden(user: String) -> String {
        "NOT EXISTS (SELECT 1 FROM hidden_entries x WHERE x.user_id = \(user) AND x.entry_id = e.id)"
    }

    /// The filtered walk down the ids (past `bound` when given), every filter of `query`.
    private static func walk(
        _ query: ItemQuery, user id: String, bound: String?, limit: Int, builder: inout PostgresQueryBuilder
    ) -> String {
        let direction = Direction(oldestFirst: query.oldestFirst)
        var sql = "SELECT e.id, e.source, e.received_at FROM \(PostgresReadingRows.from(user: id))"
        if let sources = query.sources {
            sql += " AND e.source = ANY(\(builder.bind(sources.map(\.rawValue))))"
        }
        if query.unreadOnly { sql += " AND \(PostgresReadingRows.isUnread)" }
        if query.readOnly { sql += " AND \(PostgresReadingRows.isRead)" }
        if query.starredOnly { sql += " AND s.starred" }
        sql += " AND h.entry_id IS NULL"
        if let label = query.label { sql += " AND \(PostgresLabelRows.carries(user: id, label: builder.bind(label)))" }
        sql += received(query, builder: &builder)
        if let after = query.after {
            sql += " AND e.id \(direction.past) \(builder.bind(after))"
        }
        if let bound {
            sql += " AND e.id \(direction.past) \(bound)"
        }
        sql += " ORDER BY e.id \(direction.order) LIMIT \(builder.bind(limit))"
        return sql
    }
}
