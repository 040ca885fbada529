import Foundation
import GRDB
import KioskCore
import KioskModel
import KioskStore

// `SubscriptionStore`: the feeds and who follows which: the public methods, then their SQL.
extension SQLiteStore {
    public func feeds() async throws(StoreError) -> [Subscription] {
        try await read { db in try SubscriptionRows.feeds(in: db) }
    }

    public func saveFeeds(_ feeds: [Subscription]) async throws(StoreError) {
        try await write { db in try SubscriptionRows.saveFeeds(feeds, in: db) }
    }

    public func subscriptions(user: UserID) async throws(StoreError) -> [Subscription] {
        try await read { db in try SubscriptionRows.subscriptions(of: user, in: db) }
    }

    public func saveSubscriptions(_ subscriptions: [Subscription], user: UserID) async throws(StoreError) {
        try await write { db in try SubscriptionRows.save(subscriptions, user: user, in: db) }
    }

    @discardableResult
    public func removeSubscription(_ id: SourceID, user: UserID) async throws(StoreError) -> Bool {
        try await write { db in try SubscriptionRows.remove(id, user: user, in: db) }
    }

    public func followers(of id: SourceID) async throws(StoreError) -> [UserID] {
        try await read { db in try SubscriptionRows.followers(of: id, in: db) }
    }

    public func feedHealth() async throws(StoreError) -> [SourceID: FeedHealth] {
        try await read { db in try SubscriptionRows.health(in: db) }
    }

    public func subscriptionsVersion(user: UserID) async throws(StoreError) -> Int64 {
        try await read { db in try SubscriptionRows.version(of: user, in: db) }
    }

    public func touchSubscriptions(user: UserID) async throws(StoreError) {
        try await write { db in try SubscriptionRows.bumpVersion(of: [user], in: db) }
    }

    public func removeFeed(_ id: SourceID) async throws(StoreError) {
        try await write { db in try SubscriptionRows.removeFeed(id, in: db) }
    }
}

/// The SQL side of `Subscription`: feeds (`subscriptions`, one row per address, shared) and who
/// follows them under which name and folder (`user_feeds`).
enum SubscriptionRows {
    /// Every feed anyone follows, with no user's name or folder.
    static func feeds(in db: Database) throws -> [Subscription] {
        try load(
            db,
            sql: """
                SELECT id, url, NULL AS title, feed_title, site_url, NULL AS folder, interval_seconds, built_in, added_at,
                    0 AS full_articles
                FROM subscriptions ORDER BY added_at, rowid
                """,
            arguments: [])
    }

    /// The feeds `user` follows, as they named and filed them, in the order they were added.
    static func subscriptions(of user: UserID, in db: Database) throws -> [Subscription] {
        try load(
            db,
            sql: """
                SELECT s.id, s.url, f.title, s.feed_title, s.site_url, f.folder, s.interval_seconds, s.built_in, f.added_at,
                    f.full_articles
                FROM user_feeds f JOIN subscriptions s ON s.id = f.source
                WHERE f.user_id = ? ORDER BY f.added_at, s.rowid
                """,
            arguments: [user.rawValue])
    }

    /// Who follows `source`.
    static func followers(of source: SourceID, in db: Database) throws -> [UserID] {
        try Int64.fetchAll(db, sql: "SELECT user_id FROM user_feeds WHERE source = ?", arguments: [source.rawValue])
            .map(UserID.init)
    }

    private static func load(_ db: Database, sql: String, arguments: StatementArguments) throws -> [Subscription] {
        var list: [Subscription] = []
        let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
        while let row = try rows.next() {
            // A row whose URL no longer parses (edited by hand) is skipped, not fatal.
            guard let url = URL(string: row["url"]) else { continue }
            let seconds: Double = row["interval_seconds"]
            list.append(
                Subscription(
                    id: SourceID(rawValue: row["id"]), url: url, title: row["title"], feedTitle: row["feed_title"],
                    siteURL: row["site_url"], folder: row["folder"], interval: .milliseconds(Int64(seconds * 1000)),
                    isBuiltIn: row["built_in"], addedAt: Date(timeIntervalSince1970: row["added_at"]),
                    fullArticles: row["full_articles"]))
        }
        return list
    }

    /// Adds or updates each feed (address, its own title and site, interval, built in).
    static func saveFeeds(_ feeds: [Subscription], in db: Database) throws {
        let upsert = try db.cachedStatement(
            sql: """
                INSERT INTO subscriptions (id, url, feed_title, site_url, interval_seconds, built_in, added_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET
                    url = excluded.url, feed_title = COALESCE(excluded.feed_title, feed_title),
                    site_url = COALESCE(excluded.site_url, site_url),
                    interval_seconds = excluded.interval_seconds, built_in = excluded.built_in
                """)
        for feed in feeds {
            try upsert.execute(arguments: [
                feed.id.rawValue, feed.url.absoluteString, feed.feedTitle, feed.siteURL, feed.interval / .seconds(1),
                feed.isBuiltIn, feed.addedAt.timeIntervalSince1970,
            ])
        }
    }

    /// Has `user` follow each feed under its title and folder, adding the feeds that are new. A
    /// feed that exists is shared: one user's save never changes its address, title, site or
    /// interval for the others (`saveFeeds` does, for the operator's feeds and a sole follower's
    /// interval). An id taken by another address is refused. A new follower of a feed Kiosk
    /// already keeps finds every kept entry unread.
    static func health(in db: Database) throws -> [SourceID: FeedHealth] {
        var found: [SourceID: FeedHealth] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT id, last_success, last_failure, last_error FROM sources") {
            let success: Double? = row["last_success"]
            let failure: Double? = row["last_failure"]
            found[SourceID(rawValue: row["id"])] = FeedHealth(
                lastSuccess: success.map(Date.init(timeIntervalSince1970:)),
                lastFailure: failure.map(Date.init(timeIntervalSince1970:)), lastError: row["last_error"])
        }
        return found
    }

    /// `user`'s subscriptions version (0 before any change).
    static func version(of user: UserID, in db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT version FROM list_versions WHERE user_id = ?", arguments: [user.rawValue]) ?? 0
    }

    /// One more change of `users`' subscriptions.
    static func bumpVersion(of users: [UserID], in db: Database) throws {
        for user in users {
            try db.execute(
                sql: "INSERT INTO list_versions (user_id, version) VALUES (?, 1) ON CONFLICT (user_id) DO UPDATE SET version = version + 1",
                arguments: [user.rawValue])
        }
    }

    static func save(_ subscriptions: [Subscription], user: UserID, in db: Database) throws {
        try bumpVersion(of: [user], in: db)
        let existing = try db.cachedStatement(sql: "SELECT url FROM subscriptions WHERE id = ?")
        let insert = try db.cachedStatement(
            sql: """
                INSERT INTO subscriptions (id, url, feed_title, site_url, interval_seconds, built_in, added_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """)
        for feed in subscriptions {
            if let url = try String.fetchOne(existing, arguments: [feed.id.rawValue]) {
                guard url == feed.url.absoluteString else {
                    throw StoreError.conflict("another feed already has the id \(feed.id.rawValue)")
                }
                continue
            }
            try insert.execute(arguments: [
                feed.id.rawValue, feed.url.absoluteString, feed.feedTitle, feed.siteURL, feed.interval / .seconds(1),
                feed.isBuiltIn, feed.addedAt.timeIntervalSince1970,
            ])
        }
        let follow = try db.cachedStatement(
            sql: """
                INSERT INTO user_feeds (user_id, source, title, folder, added_at, full_articles) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (user_id, source) DO UPDATE SET title = excluded.title, folder = excluded.folder,
                    full_articles = excluded.full_articles
                """)
        let mark = try db.cachedStatement(
            sql: """
                INSERT INTO user_marks (user_id, source, read_up_to, unread)
                VALUES (?, ?, 0, (SELECT COUNT(*) FROM entries WHERE source = ?))
                ON CONFLICT (user_id, source) DO NOTHING
                """)
        for subscription in subscriptions {
            let id = subscription.id.rawValue
            try follow.execute(arguments: [
                user.rawValue, id, subscription.title, subscription.folder, subscription.addedAt.timeIntervalSince1970,
                subscription.fullArticles,
            ])
            try mark.execute(arguments: [user.rawValue, id, id])
        }
    }

    /// `user` stops following `id` and forgets what they did with its entries. A feed nobody
    /// follows any more (and not built in) is forgotten too; returns whether it was.
    static func remove(_ id: SourceID, user: UserID, in db: Database) throws -> Bool {
        let source = id.rawValue
        try bumpVersion(of: [user], in: db)
        try db.execute(sql: "DELETE FROM user_feeds WHERE user_id = ? AND source = ?", arguments: [user.rawValue, source])
        try db.execute(sql: "DELETE FROM user_marks WHERE user_id = ? AND source = ?", arguments: [user.rawValue, source])
        try db.execute(
            sql: "DELETE FROM entry_states WHERE user_id = ? AND source = ?", arguments: [user.rawValue, source])
        for table in ["entry_labels", "hidden_entries", "playback_positions"] {
            try db.execute(
                sql: "DELETE FROM \(table) WHERE user_id = ? AND entry_id IN (SELECT id FROM entries WHERE source = ?)",
                arguments: [user.rawValue, source])
        }
        let followed = try Bool.fetchOne(
            db, sql: "SELECT EXISTS (SELECT 1 FROM user_feeds WHERE source = ?)", arguments: [source]) ?? false
        let builtIn = try Bool.fetchOne(
            db, sql: "SELECT built_in FROM subscriptions WHERE id = ?", arguments: [source]) ?? false
        guard !followed && !builtIn else { return false }
        try removeFeed(id, in: db)
        return true
    }

    /// Forgets a feed for everyone: its followers, entries and validators.
    static func removeFeed(_ id: SourceID, in db: Database) throws {
        try bumpVersion(of: try followers(of: id, in: db), in: db)
        try db.execute(sql: "DELETE FROM subscriptions WHERE id = ?", arguments: [id.rawValue])
        try EntryRows.removeAll(of: id, in: db)
        try db.execute(sql: "DELETE FROM sources WHERE id = ?", arguments: [id.rawValue])
    }
}
