import Foundation
import GRDB
import KioskCore
import KioskModel
import KioskStore

// `ReadingStore` and `SyncReadingStore`: reading lists, read and star state, retention: the
// public methods, then their SQL.
extension SQLiteStore {
    public func readingList(_ filter: EntryFilter, user: UserID) async throws(StoreError) -> [StoredEntry] {
        try await read { db in try ReadingRows.list(filter, user: user, in: db) }
    }

    public func storedEntry(source: SourceID, key: String, user: UserID) async throws(StoreError) -> StoredEntry? {
        try await read { db in try ReadingRows.entry(source: source, key: key, user: user, in: db) }
    }

    public func storedEntries(ids: [Int64], user: UserID) async throws(StoreError) -> [StoredEntry] {
        try await read { db in try ReadingRows.entries(ids: ids, user: user, in: db) }
    }

    public func newestEntryID(sources: [SourceID]?, user: UserID) async throws(StoreError) -> Int64 {
        try await read { db in try ReadingRows.newestID(sources: sources, user: user, in: db) }
    }

    public func itemRefs(_ query: ItemQuery, user: UserID) async throws(StoreError) -> [ItemRef] {
        try await read { db in try ReadingRows.itemRefs(query, user: user, in: db) }
    }

    public func newestEntryID(sources: [SourceID]?, receivedBy date: Date, user: UserID) async throws(StoreError) -> Int64 {
        try await read { db in try ReadingRows.newestID(sources: sources, receivedBy: date, user: user, in: db) }
    }

    public func itemCount(user: UserID) async throws(StoreError) -> Int {
        try await read { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM entries WHERE source IN (SELECT source FROM user_feeds WHERE user_id = ?)",
                arguments: [user.rawValue]) ?? 0
        }
    }

    public func unreadCounts(user: UserID) async throws(StoreError) -> [SourceID: Int] {
        try await read { db in try ReadingRows.unreadCounts(user: user, in: db) }
    }

    public func starredCount(user: UserID) async throws(StoreError) -> Int {
        try await read { db in try ReadingRows.starredCount(user: user, in: db) }
    }

    public func setRead(_ read: Bool, ids: [Int64], user: UserID) async throws(StoreError) -> [Int64] {
        let now = now()
        return try await write { db in try ReadingRows.setRead(read, ids: ids, user: user, now: now, in: db) }
    }

    public func setHidden(_ hidden: Bool, ids: [Int64], user: UserID) async throws(StoreError) -> [Int64] {
        let now = now()
        return try await write { db in try ReadingRows.setHidden(hidden, ids: ids, user: user, now: now, in: db) }
    }

    public func setStarred(_ starred: Bool, ids: [Int64], user: UserID) async throws(StoreError) -> [Int64] {
        let now = now()
        return try await write { db in try ReadingRows.setStarred(starred, ids: ids, user: user, now: now, in: db) }
    }

    public func markAllRead(sources: [SourceID]?, upTo: Int64, user: UserID) async throws(StoreError) -> [Int64] {
        let now = now()
        return try await write { db in
            try ReadingRows.markAllRead(sources: sources, upTo: upTo, user: user, now: now, in: db)
        }
    }

    @discardableResult
    public func prune(_ policy: RetentionPolicy, now: Date) async throws(StoreError) -> Int {
        try await write { db in try ReadingRows.prune(policy, now: now, in: db) }
    }
}

/// The SQL side of `ReadingStore`: reading lists, read and star state, retention. Every query
/// is one user's: it sees only entries of feeds that user follows (`user_feeds`), with that
/// user's mark (`user_marks`) and flags (`entry_states`).
enum ReadingRows {
    /// Whether entry `e` is read, given the user's mark `m` and flags `s` (see `Schema.accounts`).
    static let isRead =
        "(COALESCE(s.read, 0) = 1 OR (e.id <= COALESCE(m.read_up_to, 0) AND COALESCE(s.kept_unread, 0) = 0))"
    private static let isUnread =
        "(COALESCE(s.read, 0) = 0 AND (e.id > COALESCE(m.read_up_to, 0) OR COALESCE(s.kept_unread, 0) = 1))"
    private static let columns = """
        e.id, e.source, e.key, e.json, \(isRead) AS is_read, COALESCE(s.starred, 0) AS starred,
        h.entry_id IS NOT NULL AS hidden, e.received_at, e.sort_date
        """
    /// Takes the user three times (the mark, the flags, hidden).
    private static let from = """
        entries e
        LEFT JOIN user_marks m ON m.user_id = ? AND m.source = e.source
        LEFT JOIN entry_states s ON s.user_id = ? AND s.entry_id = e.id
        LEFT JOIN hidden_entries h ON h.user_id = ? AND h.entry_id = e.id
        """
    /// Takes the user once: the feeds they follow. Only a filter (the `+`): the ids, the feeds
    /// asked for or the list's order choose the rows, never "every entry of every followed feed,
    /// then sorted" (that made a page of All unread over 1,000,000 entries take 200 ms, and
    /// marking 100,000 entries unread 12 s).
    private static let followed = "+e.source IN (SELECT source FROM user_feeds WHERE user_id = ?)"

    static func list(_ filter: EntryFilter, user: UserID, in db: Database) throws -> [StoredEntry] {
        var conditions = [followed]
        var arguments: StatementArguments = [user.rawValue, user.rawValue, user.rawValue, user.rawValue]
        if let sources = filter.sources {
            guard !sources.isEmpty else { return [] }
            conditions.append("e.source IN (\(databaseQuestionMarks(count: sources.count)))")
            _ = arguments.append(contentsOf: StatementArguments(sources.map(\.rawValue)))
        }
        if filter.unreadOnly { conditions.append(isUnread) }
        if filter.starredOnly { conditions.append("s.starred = 1") }
        if filter.withFiles { conditions.append(EntryFiles.condition(column: "e.json")) }
        conditions.append(filter.hidden ? "h.entry_id IS NOT NULL" : "h.entry_id IS NULL")
        if let label = filter.label {
            conditions.append(LabelRows.carries)
            _ = arguments.append(contentsOf: [user.rawValue, label])
        }
        if let after = filter.after {
            conditions.append("(e.sort_date < ? OR (e.sort_date = ? AND e.id < ?))")
            let seconds = after.sortDate.timeIntervalSince1970
            _ = arguments.append(contentsOf: [seconds, seconds, after.id])
        }
        _ = arguments.append(contentsOf: [max(0, filter.limit)])
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT \(columns) FROM \(from) WHERE \(conditions.joined(separator: " AND "))
                ORDER BY e.sort_date DESC, e.id DESC LIMIT ?
                """,
            arguments: arguments)
        return try decode(rows)
    }

    static func entry(source: SourceID, key: String, user: UserID, in db: Database) throws -> StoredEntry? {
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT \(columns) FROM \(from) WHERE \(followed) AND e.source = ? AND e.key = ?
                ORDER BY e.in_feed DESC LIMIT 1
                """,
            arguments: [user.rawValue, user.rawValue, user.rawValue, user.rawValue, source.rawValue, key])
        return try decode(rows).first
    }

    static func entries(ids: [Int64], user: UserID, in db: Database) throws -> [StoredEntry] {
        var found: [StoredEntry] = []
        for chunk in chunks(of: ids) {
            let rows = try Row.fetchCursor(
                db,
                sql: "SELECT \(columns) FROM \(from) WHERE \(followed) AND e.id IN (\(databaseQuestionMarks(count: chunk.count)))",
                arguments: [user.rawValue, user.rawValue, user.rawValue, user.rawValue] + StatementArguments(chunk))
            found += try decode(rows)
        }
        return found
    }

    /// The newest entry of `sources` (nil: every followed feed), received by `date` when given.
    static func newestID(sources: [SourceID]?, receivedBy date: Date? = nil, user: UserID, in db: Database) throws
        -> Int64
    {
        // The newest first, down the ids, until one is followed (MAX with a filter reads them all).
        var sql = "SELECT e.id FROM entries e WHERE \(followed)"
        var arguments: StatementArguments = [user.rawValue]
        if let date {
            sql += " AND e.received_at <= ?"
            _ = arguments.append(contentsOf: [date.timeIntervalSince1970])
        }
        if let sources {
            guard !sources.isEmpty else { return 0 }
            sql += " AND e.source IN (\(databaseQuestionMarks(count: sources.count)))"
            _ = arguments.append(contentsOf: StatementArguments(sources.map(\.rawValue)))
        }
        return try Int64.fetchOne(db, sql: sql + " ORDER BY e.id DESC LIMIT 1", arguments: arguments) ?? 0
    }

    static func itemRefs(_ query: ItemQuery, user: UserID, in db: Database) throws -> [ItemRef] {
        // Every feed: a walk down the ids keeping the followed ones. Some feeds: their rows by
        // index, then sorted (a feed keeps at most its retention cap).
        var conditions = [followed]
        var arguments: StatementArguments = [user.rawValue, user.rawValue, user.rawValue, user.rawValue]
        if let sources = query.sources {
            guard !sources.isEmpty else { return [] }
            conditions.append("e.source IN (\(databaseQuestionMarks(count: sources.count)))")
            _ = arguments.append(contentsOf: StatementArguments(sources.map(\.rawValue)))
        }
        if query.unreadOnly { conditions.append(isUnread) }
        if query.readOnly { conditions.append(isRead) }
        if query.starredOnly { conditions.append("s.starred = 1") }
        conditions.append("h.entry_id IS NULL")
        if let label = query.label {
            conditions.append(LabelRows.carries)
            _ = arguments.append(contentsOf: [user.rawValue, label])
        }
        if let since = query.receivedSince {
            conditions.append("e.received_at >= ?")
            _ = arguments.append(contentsOf: [since.timeIntervalSince1970])
        }
        if let before = query.receivedBefore {
            conditions.append("e.received_at < ?")
            _ = arguments.append(contentsOf: [before.timeIntervalSince1970])
        }
        if let after = query.after {
            conditions.append(query.oldestFirst ? "e.id > ?" : "e.id < ?")
            _ = arguments.append(contentsOf: [after])
        }
        _ = arguments.append(contentsOf: [max(0, query.limit)])
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT e.id, e.source, e.received_at FROM \(from) WHERE \(conditions.joined(separator: " AND "))
                ORDER BY e.id \(query.oldestFirst ? "ASC" : "DESC") LIMIT ?
                """,
            arguments: arguments)
        var refs: [ItemRef] = []
        while let row = try rows.next() {
            refs.append(
                ItemRef(
                    id: row["id"], source: SourceID(rawValue: row["source"]),
                    receivedAt: Date(timeIntervalSince1970: row["received_at"])))
        }
        return refs
    }

    static func unreadCounts(user: UserID, in db: Database) throws -> [SourceID: Int] {
        var counts: [SourceID: Int] = [:]
        let rows = try Row.fetchCursor(
            db, sql: "SELECT source, unread FROM user_marks WHERE user_id = ? AND unread > 0", arguments: [user.rawValue])
        while let row = try rows.next() {
            counts[SourceID(rawValue: row["source"])] = row["unread"]
        }
        return counts
    }

    static func starredCount(user: UserID, in db: Database) throws -> Int {
        try Int.fetchOne(
            db,
            sql: """
                SELECT COUNT(*) FROM entry_states s WHERE s.user_id = ? AND s.starred = 1
                AND NOT EXISTS (SELECT 1 FROM hidden_entries h WHERE h.user_id = s.user_id AND h.entry_id = s.entry_id)
                """,
            arguments: [user.rawValue]) ?? 0
    }

    /// The states of those of `ids` that `user` may see (entries of feeds they follow).
    private static func states(of ids: [Int64], user: UserID, in db: Database) throws -> [EntryState] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT e.id, e.source, \(isRead) AS is_read, COALESCE(m.read_up_to, 0) AS mark,
                    COALESCE(s.read, 0) AS read, COALESCE(s.starred, 0) AS starred,
                    COALESCE(s.kept_unread, 0) AS kept_unread
                FROM \(from) WHERE \(followed) AND e.id IN (\(databaseQuestionMarks(count: ids.count)))
                """,
            arguments: [user.rawValue, user.rawValue, user.rawValue, user.rawValue] + StatementArguments(ids)
        ).map {
            EntryState(
                id: $0["id"], source: $0["source"], isRead: $0["is_read"], mark: $0["mark"], read: $0["read"],
                starred: $0["starred"], keptUnread: $0["kept_unread"])
        }
    }

    /// Writes one entry's flags for `user`; an entry with none set has no row.
    private static func write(_ state: EntryState, user: UserID, now: Date, in db: Database) throws {
        if state.isEmpty {
            try db.cachedStatement(sql: "DELETE FROM entry_states WHERE user_id = ? AND entry_id = ?")
                .execute(arguments: [user.rawValue, state.id])
            return
        }
        try db.cachedStatement(
            sql: """
                INSERT INTO entry_states (user_id, entry_id, source, read, starred, kept_unread, changed_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (user_id, entry_id) DO UPDATE SET read = excluded.read, starred = excluded.starred,
                    kept_unread = excluded.kept_unread, changed_at = excluded.changed_at
                """
        ).execute(arguments: [
            user.rawValue, state.id, state.source, state.read, state.starred, state.keptUnread,
            now.timeIntervalSince1970,
        ])
    }

    /// Stars or unstars `ids` for `user`; returns the ids that changed.
    /// Hides `ids` (marking them read) or shows them again; returns the ids that changed.
    static func setHidden(_ value: Bool, ids: [Int64], user: UserID, now: Date, in db: Database) throws -> [Int64] {
        if value { _ = try setRead(true, ids: ids, user: user, now: now, in: db) }
        var changed: [Int64] = []
        for chunk in chunks(of: ids) {
            let marks = databaseQuestionMarks(count: chunk.count)
            if value {
                changed += try Int64.fetchAll(
                    db,
                    sql: """
                        INSERT INTO hidden_entries (user_id, entry_id, hidden_at)
                        SELECT ?, e.id, ? FROM entries e
                        WHERE e.id IN (\(marks)) AND e.source IN (SELECT source FROM user_feeds WHERE user_id = ?)
                        ON CONFLICT DO NOTHING RETURNING entry_id
                        """,
                    arguments: [user.rawValue, now.timeIntervalSince1970] + StatementArguments(chunk) + [user.rawValue])
            } else {
                changed += try Int64.fetchAll(
                    db, sql: "DELETE FROM hidden_entries WHERE user_id = ? AND entry_id IN (\(marks)) RETURNING entry_id",
                    arguments: [user.rawValue] + StatementArguments(chunk))
            }
        }
        return changed
    }

    static func setStarred(_ value: Bool, ids: [Int64], user: UserID, now: Date, in db: Database) throws -> [Int64] {
        var changed: [Int64] = []
        for chunk in chunks(of: ids) {
            let current = try states(of: chunk, user: user, in: db)
            for state in EntryState.settingStarred(value, current) {
                try write(state, user: user, now: now, in: db)
                changed.append(state.id)
            }
        }
        return changed
    }

    /// Marks `ids` read or unread for `user`; returns the ids that changed. Read: the entry's own
    /// flag. Unread under its feed's mark: kept unread. The feeds' counts move by what changed.
    static func setRead(_ value: Bool, ids: [Int64], user: UserID, now: Date, in db: Database) throws -> [Int64] {
        var changed: [Int64] = []
        var delta: [String: Int] = [:]
        for chunk in chunks(of: ids) {
            let current = try states(of: chunk, user: user, in: db)
            let marked = EntryState.settingRead(value, current)
            for state in marked.changed {
                try write(state, user: user, now: now, in: db)
                changed.append(state.id)
            }
            delta.merge(marked.delta, uniquingKeysWith: +)
        }
        try adjustCounts(delta, user: user, in: db)
        return changed
    }

    /// Marks every unread entry of `sources` (nil: all the user follows) up to id `upTo` read by
    /// moving each feed's mark: the work is per feed plus the entries that changed, whose ids it
    /// returns.
    static func markAllRead(sources: [SourceID]?, upTo: Int64, user: UserID, now: Date, in db: Database) throws
        -> [Int64]
    {
        if let sources, sources.isEmpty { return [] }
        let only = sources.map { "AND source IN (\(databaseQuestionMarks(count: $0.count)))" } ?? ""
        let marks: [(source: String, mark: Int64)] = try Row.fetchAll(
            db, sql: "SELECT source, read_up_to FROM user_marks WHERE user_id = ? \(only)",
            arguments: [user.rawValue] + StatementArguments((sources ?? []).map(\.rawValue))
        ).map { ($0["source"], $0["read_up_to"]) }
        let newlyRead = try db.cachedStatement(
            sql: """
                SELECT e.id FROM entries e
                WHERE e.source = ? AND e.id > ? AND e.id <= ?
                    AND NOT EXISTS (SELECT 1 FROM entry_states s WHERE s.user_id = ? AND s.entry_id = e.id AND s.read = 1)
                """)
        let keptUnread = try db.cachedStatement(
            sql: "SELECT entry_id FROM entry_states WHERE user_id = ? AND source = ? AND kept_unread = 1 AND read = 0 AND entry_id <= ?")
        let clearKept = try db.cachedStatement(
            sql: """
                UPDATE entry_states SET kept_unread = 0, changed_at = ?
                WHERE user_id = ? AND source = ? AND kept_unread = 1 AND entry_id <= ?
                """)
        let dropEmpty = try db.cachedStatement(
            sql: """
                DELETE FROM entry_states
                WHERE user_id = ? AND source = ? AND entry_id <= ? AND read = 0 AND starred = 0 AND kept_unread = 0
                """)
        let move = try db.cachedStatement(
            sql: "UPDATE user_marks SET read_up_to = ?, unread = MAX(0, unread - ?) WHERE user_id = ? AND source = ?")
        let newest = try db.cachedStatement(sql: "SELECT MAX(id) FROM entries WHERE source = ?")
        var ids: [Int64] = []
        for (source, mark) in marks {
            // Never above the feed's newest entry: a mark past it would swallow entries still to
            // come (an `upTo` from a form can say anything).
            let upTo = min(upTo, try Int64.fetchOne(newest, arguments: [source]) ?? 0)
            var read = try Int64.fetchAll(newlyRead, arguments: [source, mark, upTo, user.rawValue])
            let kept = try Int64.fetchAll(keptUnread, arguments: [user.rawValue, source, min(upTo, mark)])
            if !kept.isEmpty {
                try clearKept.execute(arguments: [now.timeIntervalSince1970, user.rawValue, source, min(upTo, mark)])
                try dropEmpty.execute(arguments: [user.rawValue, source, min(upTo, mark)])
                read += kept
            }
            guard upTo > mark || !read.isEmpty else { continue }
            try move.execute(arguments: [max(mark, upTo), read.count, user.rawValue, source])
            ids += read
        }
        return ids
    }

    /// Pulls every mark down to its feed's newest entry and counts unread afresh: after entries
    /// were deleted (retention, a feed emptied), so no later id falls under an old mark.
    static func recountMarks(in db: Database) throws {
        try db.execute(
            sql: """
                UPDATE user_marks SET read_up_to = MIN(read_up_to,
                    COALESCE((SELECT MAX(id) FROM entries WHERE entries.source = user_marks.source), 0));
                UPDATE user_marks SET unread =
                    (SELECT COUNT(*) FROM entries e
                        WHERE e.source = user_marks.source AND e.id > user_marks.read_up_to
                            AND NOT EXISTS (SELECT 1 FROM entry_states s
                                WHERE s.user_id = user_marks.user_id AND s.entry_id = e.id AND s.read = 1))
                    + (SELECT COUNT(*) FROM entry_states s
                        WHERE s.user_id = user_marks.user_id AND s.source = user_marks.source
                            AND s.kept_unread = 1 AND s.read = 0 AND s.entry_id <= user_marks.read_up_to);
                """)
    }

    /// New entries of `source` are unread for everyone who follows it.
    static func countNew(_ count: Int, of source: SourceID, in db: Database) throws {
        guard count > 0 else { return }
        try db.cachedStatement(sql: "UPDATE user_marks SET unread = unread + ? WHERE source = ?")
            .execute(arguments: [count, source.rawValue])
    }

    /// Adds `delta` to the user's unread counts per feed (entries marked read or unread).
    static func adjustCounts(_ delta: [String: Int], user: UserID, in db: Database) throws {
        let adjust = try db.cachedStatement(
            sql: "UPDATE user_marks SET unread = MAX(0, unread + ?) WHERE user_id = ? AND source = ?")
        for (source, change) in delta where change != 0 {
            try adjust.execute(arguments: [change, user.rawValue, source])
        }
    }

    static func chunks(of ids: [Int64]) -> [[Int64]] {
        // SQLite limits the parameters of one statement.
        stride(from: 0, to: ids.count, by: 500).map { Array(ids[$0..<min($0 + 500, ids.count)]) }
    }

    /// Whether anyone starred or labelled the entry of the row at hand (`entries.id`).
    private static let starredByAnyone = """
        (EXISTS (SELECT 1 FROM entry_states s WHERE s.entry_id = entries.id AND s.starred = 1)
        OR EXISTS (SELECT 1 FROM entry_labels l WHERE l.entry_id = entries.id))
        """

    static func prune(_ policy: RetentionPolicy, now: Date, in db: Database) throws -> Int {
        let cutoff = now.timeIntervalSince1970 - policy.maxAge / .seconds(1)
        try db.execute(
            sql: "DELETE FROM entries WHERE in_feed = 0 AND NOT \(starredByAnyone) AND received_at < ?",
            arguments: [cutoff])
        var removed = db.changesCount
        // Past the cap: the oldest first, never what is still in the feed, starred or labelled.
        try db.execute(
            sql: """
                DELETE FROM entries WHERE id IN (
                    SELECT id FROM (
                        SELECT id, in_feed, \(starredByAnyone) AS starred,
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
                    isRead: row["is_read"], isStarred: row["starred"], isHidden: row["hidden"],
                    receivedAt: Date(timeIntervalSince1970: row["received_at"]),
                    sortDate: Date(timeIntervalSince1970: row["sort_date"])))
        }
        return list
    }
}
