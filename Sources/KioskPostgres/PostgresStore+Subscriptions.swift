import Foundation
import KioskCore
import KioskModel
import KioskStore
import Logging
import PostgresNIO

// `SubscriptionStore`: the feeds and who follows which: the public methods, then their SQL.
extension PostgresStore {
    public func feeds() async throws(StoreError) -> [Subscription] {
        try await connection { session in try await PostgresSubscriptionRows.feeds(in: session) }
    }

    public func saveFeeds(_ feeds: [Subscription]) async throws(StoreError) {
        try await transaction { session in try await PostgresSubscriptionRows.saveFeeds(feeds, in: session) }
    }

    public func subscriptions(user: UserID) async throws(StoreError) -> [Subscription] {
        try await connection { session in try await PostgresSubscriptionRows.subscriptions(of: user, in: session) }
    }

    public func saveSubscriptions(_ subscriptions: [Subscription], user: UserID) async throws(StoreError) {
        try await transaction { session in
            try await PostgresSubscriptionRows.save(subscriptions, user: user, in: session)
        }
    }

    @discardableResult
    public func removeSubscription(_ id: SourceID, user: UserID) async throws(StoreError) -> Bool {
        try await transaction { session in try await PostgresSubscriptionRows.remove(id, user: user, in: session) }
    }

    public func followers(of id: SourceID) async throws(StoreError) -> [UserID] {
        try await connection { session in try await PostgresSubscriptionRows.followers(of: id, in: session) }
    }

    public func feedHealth() async throws(StoreError) -> [SourceID: FeedHealth] {
        try await connection { session in try await PostgresSubscriptionRows.health(in: session) }
    }

    public func subscriptionsVersion(user: UserID) async throws(StoreError) -> Int64 {
        try await connection { session in try await PostgresSubscriptionRows.version(of: user, in: session) }
    }

    public func touchSubscriptions(user: UserID) async throws(StoreError) {
        try await transaction { session in try await PostgresSubscriptionRows.bumpVersion(of: [user], in: session) }
    }

    public func removeFeed(_ id: SourceID) async throws(StoreError) {
        try await transaction { session in try await PostgresSubscriptionRows.removeFeed(id, in: session) }
    }
}

/// The SQL side of `Subscription`: feeds (`subscriptions`, one row per address, shared) and who
/// follows them under which name and folder (`user_feeds`).
enum PostgresSubscriptionRows {
    /// Every feed anyone follows, with no user's name or folder.
    static func feeds(in session: PostgresSession) async throws -> [Subscription] {
        try await load(
            session,
            """
            SELECT id, url, NULL::text AS title, feed_title, site_url, NULL::text AS folder, interval_seconds, built_in,
                added_at, false AS full_articles
            FROM subscriptions ORDER BY added_at, seq
            """)
    }

    /// The feeds `user` follows, as they named and filed them, in the order they were added.
    static func subscriptions(of user: UserID, in session: PostgresSession) async throws -> [Subscription] {
        try await load(
            session,
            """
            SELECT s.id, s.url, f.title, s.feed_title, s.site_url, f.folder, s.interval_seconds, s.built_in, f.added_at,
                f.full_articles
            FROM user_feeds f JOIN subscriptions s ON s.id = f.source
            WHERE f.user_id = \(user.rawValue) ORDER BY f.added_at, s.seq
            """)
    }

    /// Who follows `source`.
    static func followers(of source: SourceID, in session: PostgresSession) async throws -> [UserID] {
        try await session.rows("SELECT user_id FROM user_feeds WHERE source = \(source.rawValue) ORDER BY user_id") {
            UserID(try $0.get("user_id"))
        }
    }

    private static func load(_ session: PostgresSession, _ query: PostgresQuery) async throws -> [Subscription] {
        var list: [Subscription] = []
        try await session.forEachRow(query) { row in
            // A row whose URL no longer parses (edited by hand) is skipped, not fatal.
            guard let url = URL(string: try row.get("url", as: String.self)) else { return }
            let seconds: Double = try row.get("interval_seconds")
            list.append(
                Subscription(
                    id: SourceID(rawValue: try row.get("id")), url: url, title: try row.get("title"),
                    feedTitle: try row.get("feed_title"), siteURL: try row.get("site_url"), folder: try row.get("folder"),
                    interval: .milliseconds(Int64(seconds * 1000)), isBuiltIn: try row.get("built_in"),
                    addedAt: Date(timeIntervalSince1970: try row.get("added_at")),
                    fullArticles: try row.get("full_articles")))
        }
        return list
    }

    /// Adds or updates each feed (address, its own title and site, interval, built in).
    static func saveFeeds(_ feeds: [Subscription], in session: PostgresSession) async throws {
        for feed in feeds {
            try await session.execute(
                """
                INSERT INTO subscriptions (id, url, feed_title, site_url, interval_seconds, built_in, added_at)
                VALUES (\(feed.id.rawValue), \(feed.url.absoluteString), \(feed.feedTitle), \(feed.siteURL),
                    \(feed.interval / .seconds(1)), \(feed.isBuiltIn), \(feed.addedAt.timeIntervalSince1970))
                ON CONFLICT (id) DO UPDATE SET
                    url = excluded.url, feed_title = COALESCE(excluded.feed_title, subscriptions.feed_title),
                    site_url = COALESCE(excluded.site_url, subscriptions.site_url),
                    interval_seconds = excluded.interval_seconds, built_in = excluded.built_in
                """)
        }
    }

    /// Has `user` follow each feed under its title and folder, adding the feeds that are new. A
    /// feed that exists is shared: one user's save never changes its address, title, site or
    /// interval for the others. An id taken by another address is refused. A new follower of a
    /// feed Kiosk already keeps finds every kept entry unread. Runs inside the caller's
    /// transaction (all or nothing).
    static func health(in session: PostgresSession) async throws -> [SourceID: FeedHealth] {
        var found: [SourceID: FeedHealth] = [:]
        try await session.forEachRow("SELECT id, last_success, last_failure, last_error FROM sources") { row in
            let success: Double? = try row.get("last_success")
            let failure: Double? = try row.get("last_failure")
            found[SourceID(rawValue: try row.get("id"))] = FeedHealth(
                lastSuccess: success.map(Date.init(timeIntervalSince1970:)),
                lastFailure: failure.map(Date.init(timeIntervalSince1970:)), lastError: try row.get("last_error"))
        }
        return found
    }

    /// `user`'s subscriptions version (0 before any change).
    static func version(of user: UserID, in session: PostgresSession) async throws -> Int64 {
        try await session.value("SELECT version FROM list_versions WHERE user_id = \(user.rawValue)", as: Int64.self) ?? 0
    }

    /// One more change of `users`' subscriptions.
    static func bumpVersion(of users: [UserID], in session: PostgresSession) async throws {
        for user in users {
            try await session.execute(
                """
                INSERT INTO list_versions (user_id, version) VALUES (\(user.rawValue), 1)
                ON CONFLICT (user_id) DO UPDATE SET version = list_versions.version + 1
                """)
        }
    }

    static func save(_ subscriptions: [Subscription], user: UserID, in session: PostgresSession) async throws {
        try await bumpVersion(of: [user], in: session)
        for feed in subscriptions {
            let existing = try await session.value(
                "SELECT url FROM subscriptions WHERE id = \(feed.id.rawValue)", as: String.self)
            if let existing {
                guard existing == feed.url.absoluteString else {
                    throw StoreError.conflict("another feed already has the id \(feed.id.rawValue)")
                }
                continue
            }
            try await session.execute(
                """
                INSERT INTO subscriptions (id, url, feed_title, site_url, interval_seconds, built_in, added_at)
                VALUES (\(feed.id.rawValue), \(feed.url.absoluteString), \(feed.feedTitle), \(feed.siteURL),
                    \(feed.interval / .seconds(1)), \(feed.isBuiltIn), \(feed.addedAt.timeIntervalSince1970))
                """)
        }
        for subscription in subscriptions {
            let id = subscription.id.rawValue
            try await session.execute(
                """
                INSERT INTO user_feeds (user_id, source, title, folder, added_at, full_articles)
                VALUES (\(user.rawValue), \(id), \(subscription.title), \(subscription.folder),
                    \(subscription.addedAt.timeIntervalSince1970), \(subscription.fullArticles))
                ON CONFLICT (user_id, source) DO UPDATE SET title = excluded.title, folder = excluded.folder,
                    full_articles = excluded.full_articles
                """)
            try await session.execute(
                """
                INSERT INTO user_marks (user_id, source, read_up_to, unread)
                VALUES (\(user.rawValue), \(id), 0, (SELECT COUNT(*) FROM entries WHERE source = \(id)))
                ON CONFLICT (user_id, source) DO NOTHING
                """)
        }
    }

    /// `user` stops following `id` and forgets what they did with its entries. A feed nobody
    /// follows any more (and not built in) is forgotten too; returns whether it was.
    static func remove(_ id: SourceID, user: UserID, in session: PostgresSession) async throws -> Bool {
        let source = id.rawValue
        try await bumpVersion(of: [user], in: session)
        try await session.execute("DELETE FROM user_feeds WHERE user_id = \(user.rawValue) AND source = \(source)")
        try await session.execute("DELETE FROM user_marks WHERE user_id = \(user.rawValue) AND source = \(source)")
        try await session.execute("DELETE FROM entry_states WHERE user_id = \(user.rawValue) AND source = \(source)")
        for table in ["entry_labels", "hidden_entries", "playback_positions"] {
            try await session.execute(
                """
                DELETE FROM \(unescaped: table)
                WHERE user_id = \(user.rawValue) AND entry_id IN (SELECT id FROM entries WHERE source = \(source))
                """)
        }
        let followed = try await session.value(
            "SELECT EXISTS (SELECT 1 FROM user_feeds WHERE source = \(source))", as: Bool.self) ?? false
        let builtIn = try await session.value(
            "SELECT built_in FROM subscriptions WHERE id = \(source)", as: Bool.self) ?? false
        guard !followed && !builtIn else { return false }
        try await removeFeed(id, in: session)
        return true
    }

    /// Forgets a feed for everyone: its followers, entries and validators.
    static func removeFeed(_ id: SourceID, in session: PostgresSession) async throws {
        try await bumpVersion(of: try await followers(of: id, in: session), in: session)
        try await session.execute("DELETE FROM subscriptions WHERE id = \(id.rawValue)")
        try await PostgresEntryRows.removeAll(of: id, in: session)
        try await session.execute("DELETE FROM sources WHERE id = \(id.rawValue)")
    }
}
