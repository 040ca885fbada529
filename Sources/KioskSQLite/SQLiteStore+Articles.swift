import Foundation
import GRDB
import KioskCore
import KioskModel
import KioskStore

// `ArticleStore`: full articles fetched for entries: the public methods, then their SQL.
extension SQLiteStore {
    public func article(entry: Int64) async throws(StoreError) -> StoredArticle? {
        try await read { db in try ArticleRows.load(entry: entry, in: db) }
    }

    public func saveArticle(_ article: StoredArticle, entry: Int64) async throws(StoreError) {
        try await write { db in try ArticleRows.save(article, entry: entry, in: db) }
    }

    public func articles(entries: [Int64]) async throws(StoreError) -> [Int64: StoredArticle] {
        guard !entries.isEmpty else { return [:] }
        return try await read { db in try ArticleRows.load(entries: entries, in: db) }
    }

    public func claimArticleFetch(entry: Int64, until: Date, now: Date) async throws(StoreError) -> Bool {
        try await write { db in try ArticleRows.claim(entry: entry, until: until, now: now, in: db) }
    }

    public func fullArticleFeeds() async throws(StoreError) -> [FullArticleFeed] {
        try await read { db in try ArticleRows.fullArticleFeeds(in: db) }
    }

    public func entriesWithoutArticles(of source: SourceID, limit: Int) async throws(StoreError) -> [ArticleWanted] {
        try await read { db in try ArticleRows.entriesWithoutArticles(of: source, limit: limit, in: db) }
    }
}

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

    static func load(entries: [Int64], in db: Database) throws -> [Int64: StoredArticle] {
        var found: [Int64: StoredArticle] = [:]
        for chunk in ReadingRows.chunks(of: entries) {
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT entry_id, fetched_at, url, json, error FROM articles
                    WHERE entry_id IN (\(databaseQuestionMarks(count: chunk.count)))
                    """,
                arguments: StatementArguments(chunk))
            while let row = try rows.next() {
                found[row["entry_id"]] = ArticleColumns.read(
                    json: row["json"], error: row["error"], url: row["url"], fetchedAt: row["fetched_at"])
            }
        }
        return found
    }

    static func fullArticleFeeds(in db: Database) throws -> [FullArticleFeed] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT DISTINCT s.id, s.interval_seconds FROM user_feeds f JOIN subscriptions s ON s.id = f.source
                WHERE f.full_articles ORDER BY s.id
                """
        ).map { row in
            let seconds: Double = row["interval_seconds"]
            return FullArticleFeed(id: SourceID(rawValue: row["id"]), interval: .milliseconds(Int64(seconds * 1000)))
        }
    }

    static func entriesWithoutArticles(of source: SourceID, limit: Int, in db: Database) throws -> [ArticleWanted] {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT e.id, e.link FROM entries e
                WHERE e.source = ? AND e.in_feed AND NOT EXISTS (SELECT 1 FROM articles a WHERE a.entry_id = e.id)
                ORDER BY e.sort_date DESC, e.id DESC LIMIT ?
                """,
            arguments: [source.rawValue, limit])
        return rows.map { ArticleWanted(entry: $0["id"], link: $0["link"]) }
    }

    /// Takes the claim on `entry`'s page when nobody holds an unexpired one.
    static func claim(entry: Int64, until: Date, now: Date, in db: Database) throws -> Bool {
        try db.cachedStatement(
            sql: """
                INSERT INTO article_claims (entry_id, until) SELECT id, ? FROM entries WHERE id = ?
                ON CONFLICT (entry_id) DO UPDATE SET until = excluded.until WHERE article_claims.until <= ?
                """
        ).execute(arguments: [until.timeIntervalSince1970, entry, now.timeIntervalSince1970])
        return db.changesCount > 0
    }

    /// Upserts the article of `entry`; nothing when the entry is gone (retention may have run).
    static func save(_ article: StoredArticle, entry: Int64, in db: Database) throws {
        try db.execute(sql: "DELETE FROM article_claims WHERE entry_id = ?", arguments: [entry])
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
