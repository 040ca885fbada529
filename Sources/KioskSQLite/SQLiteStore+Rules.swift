import Foundation
import GRDB
import KioskCore
import KioskModel
import KioskStore

// `RuleStore`: each user's rules, and running them on a feed's new entries (`RuleRows.arrive`,
// called by `EntryRows.replace` in the transaction that inserts them): the public methods, then
// their SQL.
extension SQLiteStore {
    public func rules(user: UserID) async throws(StoreError) -> [Rule] {
        try await read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM rules WHERE user_id = ? ORDER BY position, id", arguments: [user.rawValue]
            ).map(RuleRows.rule)
        }
    }

    public func addRule(_ draft: RuleDraft, user: UserID, now: Date, most: Int) async throws(StoreError) -> Rule? {
        try await write { db in
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM rules WHERE user_id = ?", arguments: [user.rawValue]) ?? 0
            guard count < most else { return nil }
            let position =
                try Int.fetchOne(
                    db, sql: "SELECT COALESCE(MAX(position), 0) + 1 FROM rules WHERE user_id = ?",
                    arguments: [user.rawValue]) ?? 1
            try db.execute(
                sql: """
                    INSERT INTO rules (user_id, position, name, query, scope_folder, scope_feed, actions, label, paused, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    user.rawValue, position, draft.name, draft.query, RuleColumns.folder(of: draft.scope),
                    RuleColumns.feed(of: draft.scope), RuleColumns.actions(draft.actions), draft.label, draft.isPaused,
                    now.timeIntervalSince1970,
                ])
            return Rule(id: db.lastInsertedRowID, draft: draft, position: position, createdAt: now)
        }
    }

    @discardableResult
    public func updateRule(_ id: Int64, to draft: RuleDraft, user: UserID) async throws(StoreError) -> Bool {
        try await write { db in
            try db.execute(
                sql: """
                    UPDATE rules SET name = ?, query = ?, scope_folder = ?, scope_feed = ?, actions = ?, label = ?,
                        paused = ?, flag = NULL
                    WHERE id = ? AND user_id = ?
                    """,
                arguments: [
                    draft.name, draft.query, RuleColumns.folder(of: draft.scope), RuleColumns.feed(of: draft.scope),
                    RuleColumns.actions(draft.actions), draft.label, draft.isPaused, id, user.rawValue,
                ])
            return db.changesCount > 0
        }
    }

    @discardableResult
    public func deleteRule(_ id: Int64, user: UserID) async throws(StoreError) -> Bool {
        try await write { db in
            try db.execute(sql: "DELETE FROM rules WHERE id = ? AND user_id = ?", arguments: [id, user.rawValue])
            return db.changesCount > 0
        }
    }

    public func moveRule(_ id: Int64, earlier: Bool, user: UserID) async throws(StoreError) {
        try await write { db in
            let order = try Int64.fetchAll(
                db, sql: "SELECT id FROM rules WHERE user_id = ? ORDER BY position, id", arguments: [user.rawValue])
            let update = try db.cachedStatement(sql: "UPDATE rules SET position = ? WHERE id = ?")
            for (position, rule) in RuleOrder.moving(id, earlier: earlier, in: order).enumerated() {
                try update.execute(arguments: [position + 1, rule])
            }
        }
    }

    public func ruleMatches(user: UserID, since: Date) async throws(StoreError) -> [Int64: Int] {
        try await read { db in
            var counts: [Int64: Int] = [:]
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT d.rule_id, SUM(d.matches) AS matches FROM rule_days d JOIN rules r ON r.id = d.rule_id
                    WHERE r.user_id = ? AND d.day >= ? GROUP BY d.rule_id
                    """,
                arguments: [user.rawValue, ArrivalRules.day(of: since)])
            while let row = try rows.next() { counts[row["rule_id"]] = row["matches"] }
            return counts
        }
    }
}

/// The SQL side of `RuleStore`.
enum RuleRows {
    static func rule(_ row: Row) -> Rule {
        Rule(
            id: row["id"],
            draft: RuleDraft(
                name: row["name"], query: row["query"],
                scope: RuleColumns.scope(folder: row["scope_folder"], feed: row["scope_feed"]),
                actions: RuleColumns.actions(row["actions"] as String), label: row["label"], isPaused: row["paused"]),
            position: row["position"], createdAt: Date(timeIntervalSince1970: row["created_at"]), flag: row["flag"])
    }

    /// Runs the rules of everyone who follows `source` on its new entries and writes what they
    /// decided: read and star state (counts kept), the day's match counts, flags.
    static func arrive(_ entries: [(id: Int64, entry: Entry)], of source: SourceID, in db: Database, now: Date) throws {
        guard !entries.isEmpty else { return }
        let rows = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT r.*, f.title AS feed_name, f.folder AS feed_folder, s.feed_title, s.url
                    FROM user_feeds f JOIN rules r ON r.user_id = f.user_id JOIN subscriptions s ON s.id = f.source
                    WHERE f.source = ? AND r.paused = 0 ORDER BY r.user_id, r.position, r.id
                    """),
            arguments: [source.rawValue])
        guard !rows.isEmpty else { return }
        let followers = RuleFollower.grouping(
            rows.map { row in
                (
                    UserID(row["user_id"] as Int64),
                    RuleColumns.feedName(title: row["feed_name"], feedTitle: row["feed_title"], url: row["url"]),
                    row["feed_folder"], rule(row)
                )
            })
        let verdicts = ArrivalRules.judge(entries, of: source, followers: followers, receivedAt: now, now: now)
        let day = ArrivalRules.day(of: now)
        let count = try db.cachedStatement(
            sql: """
                INSERT INTO rule_days (rule_id, day, matches) VALUES (?, ?, ?)
                ON CONFLICT (rule_id, day) DO UPDATE SET matches = matches + excluded.matches
                """)
        let forget = try db.cachedStatement(sql: "DELETE FROM rule_days WHERE rule_id = ? AND day < ?")
        let flag = try db.cachedStatement(sql: "UPDATE rules SET flag = ? WHERE id = ?")
        for (user, verdict) in verdicts.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            _ = try ReadingRows.setRead(true, ids: verdict.read, user: user, now: now, in: db)
            _ = try ReadingRows.setStarred(true, ids: verdict.starred, user: user, now: now, in: db)
            _ = try ReadingRows.setHidden(true, ids: verdict.hidden, user: user, now: now, in: db)
            try PushRows.queue(verdict.notify, for: .user(user), now: now, in: db)
            for (label, ids) in verdict.labelled.sorted(by: { $0.key < $1.key }) {
                _ = try LabelRows.set(label, true, ids: ids, user: user, now: now, in: db)
            }
            for (rule, matches) in verdict.matches {
                try count.execute(arguments: [rule, day, matches])
                try forget.execute(arguments: [rule, day - 8])
            }
            for (rule, pattern) in verdict.flags {
                try flag.execute(arguments: [ArrivalRules.flagSentence(pattern: pattern), rule])
            }
        }
    }
}
