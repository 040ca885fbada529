import Foundation
import KioskCore
import KioskModel

/// The article of an entry's page as Kiosk read it (the reader view), or why it could not: kept
/// with the entry, so a page is fetched once, its words are found by search, and retention
/// removes it with its entry.
public struct StoredArticle: Sendable, Hashable {
    public enum Outcome: Sendable, Hashable {
        case found(ReaderArticle)
        /// Why there is no article, as a sentence a person can read ("the site refused (HTTP 403)").
        case failed(String)
    }

    public var outcome: Outcome
    /// The page the article was read from, after redirects (relative links resolve against it);
    /// nil when no page was read.
    public var url: String?
    /// When the page was read, to the millisecond: the precision both stores keep, so an article
    /// read back equals the one that was saved.
    public var fetchedAt: Date

    public init(_ outcome: Outcome, url: String? = nil, fetchedAt: Date) {
        self.outcome = outcome
        self.url = url
        self.fetchedAt = Self.toTheMillisecond(fetchedAt)
    }

    static func toTheMillisecond(_ date: Date) -> Date {
        let seconds = date.timeIntervalSince1970
        guard seconds.isFinite, abs(seconds) < 1e12 else { return date }
        return Date(timeIntervalSince1970: (seconds * 1000).rounded() / 1000)
    }

    /// The article, when one was found.
    public var article: ReaderArticle? {
        if case .found(let article) = outcome { article } else { nil }
    }
}

/// A feed read as full articles, with its interval: its new entries' pages are fetched over it.
public struct FullArticleFeed: Sendable, Hashable {
    public var id: SourceID
    public var interval: Duration

    public init(id: SourceID, interval: Duration) {
        self.id = id
        self.interval = interval
    }
}

/// An entry whose article is wanted and not kept yet.
public struct ArticleWanted: Sendable, Hashable {
    public var entry: Int64
    public var link: String?

    public init(entry: Int64, link: String?) {
        self.entry = entry
        self.link = link
    }
}

/// Where fetched articles are kept, by entry (`StoredEntry.id`).
public protocol ArticleStore: Sendable {
    /// Feeds at least one follower reads as full articles ("Show full articles"), by id.
    func fullArticleFeeds() async throws -> [FullArticleFeed]
    /// Up to `limit` of `source`'s entries still in its feed with no article kept (found or
    /// failed), newest first.
    func entriesWithoutArticles(of source: SourceID, limit: Int) async throws -> [ArticleWanted]
    /// The article kept for `entry`, found or failed; nil when none was fetched.
    func article(entry: Int64) async throws -> StoredArticle?
    /// The articles kept for `entries`, by entry (a page of synced items in one read).
    func articles(entries: [Int64]) async throws -> [Int64: StoredArticle]
    /// Keeps `article` for `entry`, replacing what was kept; an entry that no longer exists
    /// keeps nothing.
    func saveArticle(_ article: StoredArticle, entry: Int64) async throws
    /// Claims the fetching of `entry`'s page until `until`: true when the caller may fetch it,
    /// false while another (a replica sharing the database) holds an unexpired claim. Saving the
    /// article ends the claim; one left by a replica that died ends at `until`.
    func claimArticleFetch(entry: Int64, until: Date, now: Date) async throws -> Bool
}

/// How both stores write an article's columns: the same JSON, the same searchable text.
package enum ArticleColumns {
    /// The article as stored JSON, nil for a failure.
    package static func json(of article: StoredArticle) throws -> String? {
        guard let found = article.article else { return nil }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        return String(decoding: try encoder.encode(found), as: UTF8.self)
    }

    /// The failure's sentence, nil for an article.
    package static func error(of article: StoredArticle) -> String? {
        if case .failed(let reason) = article.outcome { reason } else { nil }
    }

    /// The text search reads: the article's plain text ("" for a failure).
    package static func text(of article: StoredArticle) -> String { article.article?.text ?? "" }

    /// The stored row back as a value; a row whose JSON no longer decodes reads as a failure
    /// (so the article is fetched again rather than shown broken).
    package static func read(json: String?, error: String?, url: String?, fetchedAt: Double) -> StoredArticle {
        let date = Date(timeIntervalSince1970: fetchedAt)
        if let json {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .secondsSince1970
            if let found = try? decoder.decode(ReaderArticle.self, from: Data(json.utf8)) {
                return StoredArticle(.found(found), url: url, fetchedAt: date)
            }
            return StoredArticle(.failed("the stored article could not be read"), url: url, fetchedAt: .distantPast)
        }
        return StoredArticle(.failed(error ?? "no article"), url: url, fetchedAt: date)
    }
}
