import Foundation
import KioskCore
import KioskModel
import KioskStore
import PostgresNIO

// `RuleStore` on PostgreSQL: each user's rules, and running them on a feed's new entries
// (`PostgresRuleRows.arrive`, called by `PostgresSourceRows.save` in the transaction that
// inserts them; on a cluster, by the one replica whose insert made them new).
extension PostgresStore {
    public func rules(user: UserID) async throws(StoreError) -> [Rule] {
        try await connection { session in
            try await session.rows("SELECT * FROM rules WHERE user_id = \(user.rawValue) ORDER BY position, id") {
                try PostgresRuleRows.rule($0)
            }
        }
    }

    public func addRule(_ draft: RuleDraft, user: UserID, now: Date, most: Int) async throws(StoreError) -> Rule? {
        let name = PostgresText.clean(draft.name)
        let query = PostgresText.clean(draft.query)
        let folder = PostgresText.clean(RuleColumns.folder(of: draft.scope))
        let feed = PostgresText.clean(RuleColumns.feed(of: draft.scope))
        let actions = RuleColumns.actions(draft.actions)
        let label = PostgresText.clean(draft.label)
        let at = now.timeIntervalSince1970
        return try await transaction { session in
            try await session.execute("SELECT pg_advisory_xact_lock(\(PostgresStore.userLockClass), \(Int32(truncatingIfNeeded: user.rawValue)))")
            // Counted under the user's lock: two requests at once cannot pass the cap.
            let count = try await session.value("SELECT COUNT(*)::int8 FROM rules WHERE user_id = \(user.rawValue)", as: Int64.self) ?? 0
            guard count < Int64(clamping: most) else { return nil }
            let rows = try await session.rows(
                """
                INSERT INTO rules (user_id, position, name, query, scope_folder, scope_feed, actions, label, paused, created_at)
                VALUES (\(user.rawValue),
                    (SELECT COALESCE(MAX(position), 0) + 1 FROM rules WHERE user_id = \(user.rawValue)),
                    \(name), \(query), \(folder), \(feed), \(actions), \(label), \(draft.isPaused), \(at))
                RETURNING *
                """
            ) { try PostgresRuleRows.rule($0) }
            guard let rule = rows.first else { throw StoreError.other("the rule just added was not returned") }
            return rule
        }
    }

    @discardableResult
    public func updateRule(_ id: Int64, to draft: RuleDraft, user: UserID) async throws(StoreError) -> Bool {
        let name = PostgresText.clean(draft.name)
        let query = PostgresText.clean(draft.query)
        let folder = PostgresText.clean(RuleColumns.folder(of: draft.scope))
        let feed = PostgresText.clean(RuleColumns.feed(of: draft.scope))
        let actions = RuleColumns.actions(draft.actions)
        let label = PostgresText.clean(draft.label)
        return try await connection { session in
            let changed: Int64? = try await session.value(
                """
                WITH changed AS (
                    UPDATE rules SET name = \(name), query = \(query), scope_folder = \(folder), scope_feed = \(feed),
                        actions = \(actions), label = \(label), paused = \(draft.isPaused), flag = NULL
                    WHERE id = \(id) AND user_id = \(user.rawValue) RETURNING 1
                ) SELECT count(*)::int8 FROM changed
                """)
            return (changed ?? 0) > 0
        }
    }

    @discardableResult
    public func deleteRule(_ id: Int64, user: UserID) async throws(StoreError) -> Bool {
        try await connection { session in
            let deleted: Int64? = try await session.value(
                "WITH gone AS (DELETE FROM rules WHERE id = \(id) AND user_id = \(user.rawValue) RETURNING 1) SELECT count(*)::int8 FROM gone"
            )
            return (deleted ?? 0) > 0
        }
    }

    public func moveRule(_ id: Int64, earlier: Bool, user: UserID) async throws(StoreError) {
        try await transaction { session in
            try await session.execute("SELECT pg_advisory_xact_lock(\(PostgresStore.userLockClass), \(Int32(truncatingIfNeeded: user.rawValue)))")
            let order: [Int64] = try await session.rows(
                "SELECT id FROM rules WHERE user_id = \(user.rawValue) ORDER BY position, id"
            ) { try $0.get("id") }
            let moved = RuleOrder.moving(id, earlier: earlier, in: order)
            guard moved != order else { return }
            try await session.execute(
                """
                UPDATE rules r SET position = o.position::int4
                FROM unnest(\(moved)) WITH ORDINALITY AS o (id, position)
                WHERE r.id = o.id AND r.user_id = \(user.rawValue)
                """)
        }
    }

    public func ruleMatches(user: UserID, since: Date) async throws(StoreError) -> [Int64: Int] {
        let day = ArrivalRules.day(of: since)
        return try await connection { session in
            var counts: [Int64: Int] = [:]
            try await session.forEachRow(
                """
                SELECT d.rule_id, SUM(d.matches)::int8 AS matches FROM rule_days d JOIN rules r ON r.id = d.rule_id
                WHERE r.user_id = \(user.rawValue) AND d.day >= \(day) GROUP BY d.rule_id
                """
            ) { row in
                let matches: Int64 = try row.get("matches")
                counts[try row.get("rule_id")] = Int(matches)
            }
            return counts
        }
    }
}

/// The SQL side of `RuleStore` on PostgreSQL.
enum PostgresRuleRows {
    static func rule(_ row: PostgresRandomAccessRow) throws -> Rule {
        let actions: String = try row.get("actions")
        let position: Int32 = try row.get("position")
        return Rule(
            id: try row.get("id"),
            draft: RuleDraft(
                name: try row.get("name"), query: try row.get("query"),
                scope: RuleColumns.scope(folder: try row.get("scope_folder"), feed: try row.get("scope_feed")),
                actions: RuleColumns.actions(actions), label: try row.get("label"), isPaused: try row.get("paused")),
            position: Int(position), createdAt: Date(timeIntervalSince1970: try row.get("created_at")),
            flag: try row.get("flag"))
    }

    /// Takes, in user order, the lock of each follower of `source` whose rules may act (the lock
    /// their read and star writes take), before the save's statement locks their counts' rows.
    /// Taken after, as the rules' writes would, it deadlocked with a mark read of that user in
    /// that feed: it holds the user's lock and waits for the count's row the save holds.
    /// Returns whether any follower has such rules (none: there is nothing for `arrive` to read).
    static func lockFollowersWithRules(of source: SourceID, in session: PostgresSession) async throws -> Bool {
        let locked: [Bool] = try await session.rows(
            """
            SELECT pg_advisory_xact_lock(\(PostgresStore.userLockClass), mod(u.user_id, 2147483648)::int4)::text FROM (
                SELECT DISTINCT r.user_id FROM rules r JOIN user_feeds f ON f.user_id = r.user_id
                WHERE f.source = \(source.rawValue) AND NOT r.paused ORDER BY r.user_id
            ) u
            """
        ) { _ in true }
        return !locked.isEmpty
    }

    /// Runs the rules of everyone who follows `source` on its new entries and writes what they
    /// decided: read and star state (counts kept), the day's match counts, flags. In the
    /// transaction that inserted the entries.
    static func arrive(_ entries: [(id: Int64, entry: Entry)], of source: SourceID, in session: PostgresSession, now: Date)
        async throws
    {
        guard !entries.isEmpty else { return }
        let rows = try await session.rows(
            """
            SELECT r.*, f.title AS feed_name, f.folder AS feed_folder, s.feed_title, s.url
            FROM user_feeds f JOIN rules r ON r.user_id = f.user_id JOIN subscriptions s ON s.id = f.source
            WHERE f.source = \(source.rawValue) AND NOT r.paused ORDER BY r.user_id, r.position, r.id
            """
        ) { row in
            (
                user: UserID(try row.get("user_id")),
                feedName: RuleColumns.feedName(
                    title: try row.get("feed_name"), feedTitle: try row.get("feed_title"), url: try row.get("url")),
                folder: try row.get("feed_folder") as String?, rule: try rule(row)
            )
        }
        let followers = RuleFollower.grouping(rows)
        guard !followers.isEmpty else { return }
        let verdicts = ArrivalRules.judge(entries, of: source, followers: followers, receivedAt: now, now: now)
        let day = ArrivalRules.day(of: now)
        for (user, verdict) in verdicts.sorted(by: { $0.key < $1.key }) {
            _ = try await PostgresReadingRows.setRead(true, ids: verdict.read, user: user, now: now, in: session)
            _ = try await PostgresReadingRows.setStarred(true, ids: verdict.starred, user: user, now: now, in: session)
            _ = try await PostgresReadingRows.setHidden(true, ids: verdict.hidden, user: user, now: now, in: session)
            try await PostgresPushRows.queue(verdict.notify, for: .user(user), now: now, in: session)
            for (label, ids) in verdict.labelled.sorted(by: { $0.key < $1.key }) {
                _ = try await PostgresLabelRows.set(label, true, ids: ids, user: user, now: now, in: session)
            }
            let counted = verdict.matches.sorted { $0.key < $1.key }
            if !counted.isEmpty {
                try await session.execute(
                    """
                    INSERT INTO rule_days (rule_id, day, matches)
                    SELECT c.rule_id, \(day), c.matches FROM unnest(\(counted.map(\.key)), \(counted.map { Int64($0.value) }))
                        AS c (rule_id, matches)
                    ON CONFLICT (rule_id, day) DO UPDATE SET matches = rule_days.matches + excluded.matches
                    """)
                try await session.execute(
                    "DELETE FROM rule_days WHERE rule_id = ANY(\(counted.map(\.key))) AND day < \(day - 8)")
            }
            for (rule, pattern) in verdict.flags.sorted(by: { $0.key < $1.key }) {
                try await session.execute(
                    "UPDATE rules SET flag = \(ArrivalRules.flagSentence(pattern: PostgresText.clean(pattern))) WHERE id = \(rule)")
            }
        }
    }
}
