import Foundation
import GRDB
import KioskCore
import KioskSources

/// The SQL side of `Subscription`.
enum SubscriptionRows {
    static func loadAll(in db: Database) throws -> [Subscription] {
        var list: [Subscription] = []
        let rows = try Row.fetchCursor(db, sql: "SELECT * FROM subscriptions ORDER BY added_at, rowid")
        while let row = try rows.next() {
            // A row whose URL no longer parses (edited by hand) is skipped, not fatal.
            guard let url = URL(string: row["url"]) else { continue }
            let seconds: Double = row["interval_seconds"]
            list.append(
                Subscription(
                    id: SourceID(rawValue: row["id"]), url: url, title: row["title"], feedTitle: row["feed_title"],
                    siteURL: row["site_url"], folder: row["folder"], interval: .milliseconds(Int64(seconds * 1000)),
                    isBuiltIn: row["built_in"], addedAt: Date(timeIntervalSince1970: row["added_at"])))
        }
        return list
    }

    static func save(_ subscriptions: [Subscription], in db: Database) throws {
        let upsert = try db.cachedStatement(
            sql: """
                INSERT INTO subscriptions (id, url, title, feed_title, site_url, folder, interval_seconds, built_in, added_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET
                    url = excluded.url, title = excluded.title, feed_title = excluded.feed_title,
                    site_url = excluded.site_url, folder = excluded.folder,
                    interval_seconds = excluded.interval_seconds, built_in = excluded.built_in
                """)
        for subscription in subscriptions {
            try upsert.execute(arguments: [
                subscription.id.rawValue, subscription.url.absoluteString, subscription.title, subscription.feedTitle,
                subscription.siteURL, subscription.folder, seconds(subscription.interval), subscription.isBuiltIn,
                subscription.addedAt.timeIntervalSince1970,
            ])
        }
    }

    static func remove(_ id: SourceID, in db: Database) throws {
        try db.execute(sql: "DELETE FROM subscriptions WHERE id = ?", arguments: [id.rawValue])
        try EntryRows.removeAll(of: id, in: db)
        try db.execute(sql: "DELETE FROM sources WHERE id = ?", arguments: [id.rawValue])
    }

    private static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
