import Foundation
import GRDB
import KioskStore

/// The SQL side of `StoredArticle`: one `articles` row per entry, indexed by `articles_fts`.
enum ArticleRows {
    static func load(entry: Int64, in db: Database) throws -> StoredArticle? {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT fetched_at, url, json, error FROM articles WHERE entry_id = ?"),
                arguments: [entry])
        else { return nil }
        return ArticleColumns.read(json: row["json"], error: row["error"], url: row["url"], fetchedAt: row["fetched_at"])
    }

    /// Upserts the article of `entry`; nothing when the entry is gone (retention may have run).
    static func save(_ article: StoredArticle, entry: Int64, in db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO articles (entry_id, fetched_at, url, json, error, text)
                SELECT id, ?, ?, ?, ?, ? FROM entries WHERE id = ?
                ON CONFLICT (entry_id) DO UPDATE SET
                    fetched_at = excluded.fetched_at, url = excluded.url, json = excluded.json,
                    error = excluded.error, text = excluded.text
                """
        ).execute(arguments: [
            article.fetchedAt.timeIntervalSince1970, article.url, try ArticleColumns.json(of: article),
            ArticleColumns.error(of: article), ArticleColumns.text(of: article), entry,
        ])
    }
}
