import Foundation
import KioskCore
import KioskModel
import KioskStore
import Logging
import PostgresNIO

// `ArticleStore`: full articles fetched for entries: the public methods, then their SQL.
extension PostgresStore {
    public func article(entry: Int64) async throws(StoreError) -> StoredArticle? {
        try await connection { session in try await PostgresArticleRows.load(entry: entry, in: session) }
    }

    public func saveArticle(_ article: StoredArticle, entry: Int64) async throws(StoreError) {
        try await connection { session in try await PostgresArticleRows.save(article, entry: entry, in: session) }
    }

    public func articles(entries: [Int64]) async throws(StoreError) -> [Int64: StoredArticle] {
        guard !entries.isEmpty else { return [:] }
        return try await connection { session in try await PostgresArticleRows.load(entries: entries, in: session) }
    }

    public func claimArticleFetch(entry: Int64, until: Date, now: Date) async throws(StoreError) -> Bool {
        try await connection { session in
            try await PostgresArticleRows.claim(entry: entry, until: until, now: now, in: session)
        }
    }

    public func fullArticleFeeds() async throws(StoreError) -> [FullArticleFeed] {
        try await connection { session in try await PostgresArticleRows.fullArticleFeeds(in: session) }
    }

    public func entriesWithoutArticles(of source: SourceID, limit: Int) async throws(StoreError) -> [ArticleWanted] {
        try await connection { session in
            try await PostgresArticleRows.entriesWithoutArticles(of: source, limit: limit, in: session)
        }
    }
}

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
