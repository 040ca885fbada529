import Foundation
import KioskCore
import KioskModel
import KioskStore
import Logging
import PostgresNIO

// `ReadingStore` and `SyncReadingStore`: reading lists, read and star state, retention: the
// public methods, then their SQL.
extension PostgresStore {
    public func readingList(_ filter: EntryFilter, user: UserID) async throws(StoreError) -> [StoredEntry] {
        try await connection { session in try await PostgresReadingRows.list(filter, user: user, in: session) }
    }

    public func storedEntry(source: SourceID, key: String, user: UserID) async throws(StoreError) -> StoredEntry? {
        try await connection { session in
            try await PostgresReadingRows.entry(source: source, key: key, user: user, in: session)
        }
    }

    public func storedEntries(ids: [Int64], user: UserID) async throws(StoreError) -> [StoredEntry] {
        try await connection { session in try await PostgresReadingRows.entries(ids: ids, user: user, in: session) }
    }

    public func newestEntryID(sources: [SourceID]?, user: UserID) async throws(StoreError) -> Int64 {
        try await connection { session in
            try await PostgresReadingRows.newestID(sources: sources, user: user, in: session)
        }
    }

    public func itemRefs(_ query: ItemQuery, user: UserID) async throws(StoreError) -> [ItemRef] {
        try await connection { session in try await PostgresItemRefs.itemRefs(query, user: user, in: session) }
    }

    public func newestEntryID(sources: [SourceID]?, receivedBy date: Date, user: UserID) async throws(StoreError)
        -> Int64
    {
        try await connection { session in
            try await PostgresReadingRows.newestID(sources: sources, receivedBy: date, user: user, in: session)
        }
    }

    public func itemCount(user: UserID) async throws(StoreError) -> Int {
        try await connection { session in try await PostgresReadingRows.itemCount(user: user, in: session) }
    }

    public func unreadCounts(user: UserID) async throws(StoreError) -> [SourceID: Int] {
        try await connection { session in try await PostgresReadingRows.unreadCounts(user: user, in: session) }
    }

    public func starredCount(user: UserID) async throws(StoreError) -> Int {
        try await connection { session in try await PostgresReadingRows.starredCount(user: user, in: session) }
    }

    public func setRead(_ read: Bool, ids: [Int64], user: UserID) async throws(StoreError) -> [Int64] {
        let now = now()
        return try await transaction { session in
            try await PostgresReadingRows.setRead(read, ids: ids, user: user, now: now, in: session)
        }
    }

    public func setHidden(_ hidden: Bool, ids: [Int64], user: UserID) async throws(StoreError) -> [Int64] {
        let now = now()
        return try await transaction { session in
            try await PostgresReadingRows.setHidden(hidden, ids: ids, user: user, now: now, in: session)
        }
    }

    public func setStarred(_ starred: Bool, ids: [Int64], user: UserID) async throws(StoreError) -> [Int64] {
        let now = now()
        return try await transaction { session in
            try await PostgresReadingRows.setStarred(starred, ids: ids, user: user, now: now, in: session)
        }
    }

    public func markAllRead(sources: [SourceID]?, upTo: Int64, user: UserID) async throws(StoreError) -> [Int64] {
        let now = now()
        return try await transaction { session in
            try await PostgresReadingRows.markAllRead(sources: sources, upTo: upTo, user: user, now: now, in: session)
        }
    }

    @discardableResult
    public func prune(_ policy: RetentionPolicy, now: Date) async throws(StoreError) -> Int {
        try await transaction { session in try await PostgresReadingRows.prune(policy, now: now, in: session) }
    }
}

/// The SQL side of `ReadingStore`: reading lists, read and star state, retention. Every query
/// is one user's: it sees only entries of feeds that user follows (`user_feeds`), with that
/// user's mark (`user_marks`) and flags (`entry_states`). The model is SQLite's (`Schema.accounts`
/// in KioskStore); writes touching many entries are one statement each, not one per entry.
enum PostgresReadingRows {
    /// Whether entry `e` is read, given the user's mark `m` and flags `s`.
    static let isRead =
        "(COALESCE(s.read, false) OR (e.id <= COALESCE(m.read_up_to, 0) AND NOT COALESCE(s.kept_unread, false)))"
    static let isUnread =
        "(NOT COALESCE(s.read, false) AND (e.id > COALESCE(m.read_up_to, 0) OR COALESCE(s.kept_unread, false)))"
    private static let columns = """
        e.id, e.source, e.key, e.json, \(isRead) AS is_read, COALESCE(s.starred, false) AS starred,
        (h.entry_id IS NOT NULL) AS hidden, e.received_at, e.sort_date
        """

    /// Entries with the user's mark and flags, only those of feeds the user follows; `user` is
    /// the placeholder of the user's id.
    static func from(user: String) -> String {
        """
        entries e
        LEFT JOIN user_marks m ON m.user_id = \(user) AND m.source = e.source
        LEFT JOIN entry_states s ON s.user_id = \(user) AND s.entry_id = e.id
        LEFT JOIN hidden_entries h ON h.user_id = \(user) AND h.entry_id = e.id
        WHERE \(followed(user: user))
        """
    }

    /// Only a filter (`e.source || ''` matches no index, as SQLite's `+e.source`): the ids, the
    /// feeds asked for or the list's order choose the rows, never "every entry of every followed
    /// feed" (on fresh statistics the planner did that for 150 ids: 42 ms instead of 1).
    static func followed(user: String) -> String {
        "(e.source || '') IN (SELECT source FROM user_feeds WHERE user_id = \(user))"
    }

    static func list(_ filter: EntryFilter, user: UserID, in session: PostgresSession) async throws -> [StoredEntry] {
        if let sources = filter.sources, sources.isEmpty { return [] }
        var builder = PostgresQueryBuilder()
        let id = builder.bind(user.rawValue)
        builder.append("SELECT \(columns) FROM \(from(user: id))")
        if let sources = filter.sources {
            let list = builder.bind(sources.map(\.rawValue))
            builder.append(" AND e.source = ANY(\(list))")
        }
        if filter.unreadOnly { builder.append(" AND \(isUnread)") }
        if filter.starredOnly { builder.append(" AND s.starred") }
        if filter.withFiles { builder.append(" AND \(EntryFiles.condition(column: "e.json"))") }
        builder.append(filter.hidden ? " AND h.entry_id IS NOT NULL" : " AND h.entry_id IS NULL")
        if let label = filter.label { builder.append(" AND \(PostgresLabelRows.carries(user: id, label: builder.bind(label)))") }
        if let after = filter.after {
            let date = builder.bind(after.sortDate.timeIntervalSince1970)
            let last = builder.bind(after.id)
            builder.append(" AND (e.sort_date < \(date) OR (e.sort_date = \(date) AND e.id < \(last)))")
        }
        let limit = builder.bind(max(0, filter.limit))
        builder.append(" ORDER BY e.sort_date DESC, e.id DESC LIMIT \(limit)")
        return try await decode(builder.query, in: session)
    }

    static func entry(source: SourceID, key: String, user: UserID, in session: PostgresSession) async throws
        -> StoredEntry?
    {
        var builder = PostgresQueryBuilder()
        let id = builder.bind(user.rawValue)
        let sourceValue = builder.bind(source.rawValue)
        let keyValue = builder.bind(key)
        builder.append(
            """
            SELECT \(columns) FROM \(from(user: id)) AND e.source = \(sourceValue) AND e.key = \(keyValue)
            ORDER BY e.in_feed DESC LIMIT 1
            """)
        return try await decode(builder.query, in: session).first
    }

    static func entries(ids: [Int64], user: UserID, in session: PostgresSession) async throws -> [StoredEntry] {
        guard !ids.isEmpty else { return [] }
        var builder = PostgresQueryBuilder()
        let id = builder.bind(user.rawValue)
        let list = builder.bind(ids)
        builder.append("SELECT \(columns) FROM \(from(user: id)) AND e.id = ANY(\(list))")
        return try await decode(builder.query, in: session)
    }

    /// The newest entry of `sources` (nil: every followed feed), received by `date` when given.
    static func newestID(sources: [SourceID]?, receivedBy date: Date? = nil, user: UserID, in session: PostgresSession)
        async throws -> Int64
    {
        if let sources, sources.isEmpty { return 0 }
        var builder = PostgresQueryBuilder()
        let id = builder.bind(user.rawValue)
        builder.append("SELECT e.id FROM entries e WHERE \(followed(user: id))")
        if let date {
            let seconds = builder.bind(date.timeIntervalSince1970)
            builder.append(" AND e.received_at <= \(seconds)")
        }
        if let sources {
            let list = builder.bind(sources.map(\.rawValue))
            builder.append(" AND e.source = ANY(\(list))")
        }
        builder.append(" ORDER BY e.id DESC LIMIT 1")
        return try await session.value(builder.query, as: Int64.self) ?? 0
    }

    static func itemCount(user: UserID, in session: PostgresSession) async throws -> Int {
        try await session.value(
            """
            SELECT COUNT(*) FROM entries
            WHERE source IN (SELECT source FROM user_feeds WHERE user_id = \(user.rawValue))
            """, as: Int.self) ?? 0
    }

    static func unreadCounts(user: UserID, in session: PostgresSession) async throws -> [SourceID: Int] {
        var counts: [SourceID: Int] = [:]
        try await session.forEachRow(
            "SELECT source, unread FROM user_marks WHERE user_id = \(user.rawValue) AND unread > 0"
        ) { row in
            counts[SourceID(rawValue: try row.get("source"))] = try row.get("unread", as: Int.self)
        }
        return counts
    }

    static func starredCount(user: UserID, in session: PostgresSession) async throws -> Int {
        try await session.value(
            """
            SELECT COUNT(*) FROM entry_states s WHERE s.user_id = \(user.rawValue) AND s.starred
            AND NOT EXISTS (SELECT 1 FROM hidden_entries h WHERE h.user_id = s.user_id AND h.entry_id = s.entry_id)
            """, as: Int.self) ?? 0
    }

    /// The states of those of `ids` that `user` may see (entries of feeds they follow), locked
    /// for the rest of the transaction so two writers of one user's state take turns.
    private static func states(of ids: [Int64], user: UserID, in session: PostgresSession) async throws -> [EntryState] {
        try await session.execute("SELECT pg_advisory_xact_lock(\(PostgresStore.userLockClass), \(Int32(truncatingIfNeeded: user.rawValue)))")
        var builder = PostgresQueryBuilder()
        let id = builder.bind(user.rawValue)
        let list = builder.bind(ids)
        builder.append(
            """
            SELECT e.id, e.source, \(isRead) AS is_read, COALESCE(m.read_up_to, 0) AS mark,
                COALESCE(s.read, false) AS read, COALESCE(s.starred, false) AS starred,
                COALESCE(s.kept_unread, false) AS kept_unread
            FROM \(from(user: id)) AND e.id = ANY(\(list))
            """)
        return try await session.rows(builder.query) { row in
            EntryState(
                id: try row.get("id"), source: try row.get("source"), isRead: try row.get("is_read"),
                mark: try row.get("mark"), read: try row.get("read"), starred: try row.get("starred"),
                keptUnread: try row.get("kept_unread"))
        }
    }

    /// Writes entries' flags for `user` in two statements; an entry with none set has no row.
    private static func write(_ states: [EntryState], user: UserID, now: Date, in session: PostgresSession) async throws {
        let empty = states.filter(\.isEmpty).map(\.id)
        let flagged = states.filter { !$0.isEmpty }
        if !empty.isEmpty {
            try await session.execute(
                "DELETE FROM entry_states WHERE user_id = \(user.rawValue) AND entry_id = ANY(\(empty))")
        }
        if !flagged.isEmpty {
            try await session.execute(
                """
                INSERT INTO entry_states (user_id, entry_id, source, read, starred, kept_unread, changed_at)
                SELECT \(user.rawValue), u.entry_id, u.source, u.read, u.starred, u.kept_unread, \(now.timeIntervalSince1970)
                FROM unnest(\(flagged.map(\.id)), \(flagged.map(\.source)), \(flagged.map(\.read)),
                    \(flagged.map(\.starred)), \(flagged.map(\.keptUnread))) AS u (entry_id, source, read, starred, kept_unread)
                ON CONFLICT (user_id, entry_id) DO UPDATE SET read = excluded.read, starred = excluded.starred,
                    kept_unread = excluded.kept_unread, changed_at = excluded.changed_at
                """)
        }
    }

    /// Stars or unstars `ids` for `user`; returns the ids that changed.
    /// Hides `ids` (marking them read) or shows them again; returns the ids that changed.
    static func setHidden(_ value: Bool, ids: [Int64], user: UserID, now: Date, in session: PostgresSession) async throws
        -> [Int64]
    {
        guard !ids.isEmpty else { return [] }
        if value {
            _ = try await setRead(true, ids: ids, user: user, now: now, in: session)
            return try await session.rows(
                """
                INSERT INTO hidden_entries (user_id, entry_id, hidden_at)
                SELECT \(user.rawValue), e.id, \(now.timeIntervalSince1970) FROM entries e
                WHERE e.id = ANY(\(ids)) AND e.source IN (SELECT source FROM user_feeds WHERE user_id = \(user.rawValue))
                ON CONFLICT DO NOTHING RETURNING entry_id
                """
            ) { try $0.get("entry_id") }
        }
        return try await session.rows(
            "DELETE FROM hidden_entries WHERE user_id = \(user.rawValue) AND entry_id = ANY(\(ids)) RETURNING entry_id"
        ) { try $0.get("entry_id") }
    }

    static func setStarred(_ value: Bool, ids: [Int64], user: UserID, now: Date, in session: PostgresSession)
        async throws -> [Int64]
    {
        guard !ids.isEmpty else { return [] }
        let current = try await states(of: ids, user: user, in: session)
        let changed = EntryState.settingStarred(value, current)
        try await write(changed, user: user, now: now, in: session)
        return changed.map(\.id)
    }

    /// Marks `ids` read or unread for `user`; returns the ids that changed. Read: the entry's own
    /// flag. Unread under its feed's mark: kept unread. The feeds' counts move by what changed.
    static func setRead(_ value: Bool, ids: [Int64], user: UserID, now: Date, in session: PostgresSession)
        async throws -> [Int64]
    {
        guard !ids.isEmpty else { return [] }
        let current = try await states(of: ids, user: user, in: session)
        let (changed, delta) = EntryState.settingRead(value, current)
        try await write(changed, user: user, now: now, in: session)
        let moved = delta.filter { $0.value != 0 }.sorted { $0.key < $1.key }
        if !moved.isEmpty {
            try await session.execute(
                """
                UPDATE user_marks m SET unread = GREATEST(0, m.unread + d.delta)
                FROM unnest(\(moved.map(\.key)), \(moved.map { Int64($0.value) })) AS d (source, delta)
                WHERE m.user_id = \(user.rawValue) AND m.source = d.source
                """)
        }
        return changed.map(\.id)
    }

    /// Marks every unread entry of `sources` (nil: all the user follows) up to id `upTo` read by
    /// moving each feed's mark, never above the feed's newest entry (an `upTo` from a form can
    /// say anything, and a mark past it would swallow entries still to come). One statement for
    /// every feed; returns the ids that changed.
    static func markAllRead(sources: [SourceID]?, upTo: Int64, user: UserID, now: Date, in session: PostgresSession)
        async throws -> [Int64]
    {
        if let sources, sources.isEmpty { return [] }
        try await session.execute("SELECT pg_advisory_xact_lock(\(PostgresStore.userLockClass), \(Int32(truncatingIfNeeded: user.rawValue)))")
        var builder = PostgresQueryBuilder()
        let id = builder.bind(user.rawValue)
        let limit = builder.bind(upTo)
        let time = builder.bind(now.timeIntervalSince1970)
        var only = ""
        if let sources {
            only = " AND m.source = ANY(\(builder.bind(sources.map(\.rawValue))))"
        }
        builder.append(
            """
            WITH marks AS (
                SELECT m.source, m.read_up_to AS mark,
                    LEAST(\(limit), COALESCE((SELECT MAX(e.id) FROM entries e WHERE e.source = m.source), 0)) AS cap
                FROM user_marks m WHERE m.user_id = \(id)\(only)
            ),
            newly_read AS (
                SELECT e.id, e.source FROM marks JOIN entries e ON e.source = marks.source
                    AND e.id > marks.mark AND e.id <= marks.cap
                WHERE NOT EXISTS (SELECT 1 FROM entry_states s WHERE s.user_id = \(id) AND s.entry_id = e.id AND s.read)
            ),
            kept AS (
                SELECT s.entry_id AS id, s.source, s.starred FROM marks JOIN entry_states s ON s.user_id = \(id)
                    AND s.source = marks.source AND s.kept_unread AND NOT s.read
                    AND s.entry_id <= LEAST(marks.cap, marks.mark)
            ),
            cleared AS (
                UPDATE entry_states s SET kept_unread = false, changed_at = \(time)
                FROM kept WHERE s.user_id = \(id) AND s.entry_id = kept.id AND kept.starred
            ),
            dropped AS (
                DELETE FROM entry_states s USING kept
                WHERE s.user_id = \(id) AND s.entry_id = kept.id AND NOT kept.starred
            ),
            changed AS (
                SELECT id, source FROM newly_read UNION ALL SELECT id, source FROM kept
            ),
            moved AS (
                UPDATE user_marks m SET read_up_to = GREATEST(marks.mark, marks.cap),
                    unread = GREATEST(0, m.unread - COALESCE(counts.n, 0))
                FROM marks LEFT JOIN (SELECT source, COUNT(*) AS n FROM changed GROUP BY source) counts
                    ON counts.source = marks.source
                WHERE m.user_id = \(id) AND m.source = marks.source AND (marks.cap > marks.mark OR counts.n > 0)
            )
            SELECT id FROM changed
            """)
        return try await session.rows(builder.query) { try $0.get("id", as: Int64.self) }
    }

    /// Pulls every mark down to its feed's newest entry and counts unread afresh: after entries
    /// were deleted (retention, a feed emptied), so counts stay true.
    static func recountMarks(in session: PostgresSession) async throws {
        try await session.execute(
            """
            UPDATE user_marks SET read_up_to = LEAST(read_up_to,
                COALESCE((SELECT MAX(id) FROM entries WHERE entries.source = user_marks.source), 0))
            """)
        try await session.execute(
            """
            UPDATE user_marks SET unread =
                (SELECT COUNT(*) FROM entries e
                    WHERE e.source = user_marks.source AND e.id > user_marks.read_up_to
                        AND NOT EXISTS (SELECT 1 FROM entry_states s
                            WHERE s.user_id = user_marks.user_id AND s.entry_id = e.id AND s.read))
                + (SELECT COUNT(*) FROM entry_states s
                    WHERE s.user_id = user_marks.user_id AND s.source = user_marks.source
                        AND s.kept_unread AND NOT s.read AND s.entry_id <= user_marks.read_up_to)
            """)
    }

    /// Whether anyone starred the entry of the row at hand (`entries.id`).
    /// Whether anyone starred or labelled the entry of the row at hand (`entries.id`).
    private static let starredByAnyone = """
        (EXISTS (SELECT 1 FROM entry_states s WHERE s.entry_id = entries.id AND s.starred)
        OR EXISTS (SELECT 1 FROM entry_labels l WHERE l.entry_id = entries.id))
        """

    static func prune(_ policy: RetentionPolicy, now: Date, in session: PostgresSession) async throws -> Int {
        let cutoff = now.timeIntervalSince1970 - policy.maxAge / .seconds(1)
        var removed = try await session.value(
            """
            WITH gone AS (
                DELETE FROM entries WHERE NOT in_feed AND NOT \(unescaped: starredByAnyone) AND received_at < \(cutoff)
                RETURNING 1
            )
            SELECT COUNT(*) FROM gone
            """, as: Int.self) ?? 0
        // Past the cap: the oldest first, never what is still in the feed, starred or labelled.
        removed += try await session.value(
            """
            WITH gone AS (
                DELETE FROM entries WHERE id IN (
                    SELECT id FROM (
                        SELECT id, in_feed, \(unescaped: starredByAnyone) AS starred,
                            ROW_NUMBER() OVER (PARTITION BY source ORDER BY sort_date DESC, id DESC) AS rank
                        FROM entries
                    ) ranked WHERE rank > \(max(0, policy.maxPerFeed)) AND NOT in_feed AND NOT starred
                )
                RETURNING 1
            )
            SELECT COUNT(*) FROM gone
            """, as: Int.self) ?? 0
        if removed > 0 { try await recountMarks(in: session) }
        return removed
    }

    private static func decode(_ query: PostgresQuery, in session: PostgresSession) async throws -> [StoredEntry] {
        let decoder = JSONDecoder()
        var list: [StoredEntry] = []
        try await session.forEachRow(query) { row in
            let json: String = try row.get("json")
            // A row that cannot be read is left out, as `PostgresEntryRows.load` does.
            guard let entry = try? decoder.decode(Entry.self, from: Data(json.utf8)) else { return }
            list.append(
                StoredEntry(
                    id: try row.get("id"), source: SourceID(rawValue: try row.get("source")), key: try row.get("key"),
                    entry: entry, isRead: try row.get("is_read"), isStarred: try row.get("starred"),
                    isHidden: try row.get("hidden"),
                    receivedAt: Date(timeIntervalSince1970: try row.get("received_at")),
                    sortDate: Date(timeIntervalSince1970: try row.get("sort_date"))))
        }
        return list
    }
}
