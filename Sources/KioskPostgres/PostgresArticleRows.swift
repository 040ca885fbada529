import Foundation
import KioskModel
import KioskStore
import PostgresNIO

/// The SQL side of `StoredArticle`: one `articles` row per entry, its folded words in
/// `search_text` (as `entries.search_text`, see `PostgresSearchText`).
enum PostgresArticleRows {
    static func load(entry: Int64, in session: PostgresSession) async throws -> StoredArticle? {
        try await session.rows("SELECT fetched_at, url, json, error FROM articles WHERE entry_id = \(entry)") { row in
            ArticleColumns.read(
                json: try row.get("json"), error: try row.get("error"), url: try row.get("url"),
                fetchedAt: try row.get("fetched_at"))
        }.first
    }

    static func load(entries: [Int64], in session: PostgresSession) async throws -> [Int64: StoredArticle] {
        var found: [Int64: StoredArticle] = [:]
        try await session.forEachRow(
            "SELECT entry_id, fetched_at, url, json, error FROM articles WHERE entry_id = ANY(\(entries))"
        ) { row in
            found[try row.get("entry_id")] = ArticleColumns.read(
                json: try row.get("json"), error: try row.get("error"), url: try row.get("url"),
                fetchedAt: try row.get("fetched_at"))
        }
        return found
    }

    static func fullArticleFeeds(in session: PostgresSession) async throws -> [FullArticleFeed] {
        try await session.rows(
            """
            SELECT DISTINCT s.id, s.interval_seconds FROM user_feeds f JOIN subscriptions s ON s.id = f.source
            WHERE f.full_articles ORDER BY s.id
            """
        ) { row in
            let seconds: Double = try row.get("interval_seconds")
            return FullArticleFeed(id: SourceID(rawValue: try row.get("id")), interval: .milliseconds(Int64(seconds * 1000)))
        }
    }

    static func entriesWithoutArticles(of source: SourceID, limit: Int, in session: PostgresSession) async throws
        -> [ArticleWanted]
    {
        try await session.rows(
            """
            SELECT e.id, e.link FROM entries e
            WHERE e.source = \(source.rawValue) AND e.in_feed
                AND NOT EXISTS (SELECT 1 FROM articles a WHERE a.entry_id = e.id)
            ORDER BY e.sort_date DESC, e.id DESC LIMIT \(limit)
            """
        ) { ArticleWanted(entry: try $0.get("id"), link: try $0.get("link")) }
    }

    /// Takes the claim on `entry`'s page when nobody holds an unexpired one (one statement, so
    /// two replicas asking at once cannot both win).
    static func claim(entry: Int64, until: Date, now: Date, in session: PostgresSession) async throws -> Bool {
        let until = until.timeIntervalSince1970
        let now = now.timeIntervalSince1970
        return try await !session.rows(
            """
            INSERT INTO article_claims (entry_id, until) SELECT id, \(until) FROM entries WHERE id = \(entry)
            ON CONFLICT (entry_id) DO UPDATE SET until = excluded.until WHERE article_claims.until <= \(now)
            RETURNING entry_id
            """
        ) { row -> Int64 in try row.get("entry_id") }.isEmpty
    }

    /// Upserts the article of `entry`; nothing when the entry is gone (retention may have run).
    static func save(_ article: StoredArticle, entry: Int64, in session: PostgresSession) async throws {
        let text = PostgresText.clean(ArticleColumns.text(of: article))
        let json = PostgresText.clean(try ArticleColumns.json(of: article))
        let error = PostgresText.clean(ArticleColumns.error(of: article))
        let url = PostgresText.clean(article.url)
        let search = PostgresSearchText.indexed(title: nil, summaryText: text)
        let fetchedAt = article.fetchedAt.timeIntervalSince1970
        try await session.execute("DELETE FROM article_claims WHERE entry_id = \(entry)")
        try await session.execute(
            """
            INSERT INTO articles (entry_id, fetched_at, url, json, error, text, search_text)
            SELECT id, \(fetchedAt), \(url), \(json), \(error), \(text), \(search) FROM entries WHERE id = \(entry)
            ON CONFLICT (entry_id) DO UPDATE SET
                fetched_at = excluded.fetched_at, url = excluded.url, json = excluded.json,
                error = excluded.error, text = excluded.text, search_text = excluded.search_text
            """)
    }
}
