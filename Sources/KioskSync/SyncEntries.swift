import Foundation
import KioskCore
import KioskHTML
import KioskModel
import KioskStore

// What every sync answer (Google Reader contents, newsboat's Atom, Fever items) says of an entry,
// written once.

extension StoredEntry {
    /// The title as text (titles are text: tags only tags, entities decoded).
    var syncTitle: String { entry.title.map { HTMLText.plainText(fromTitle: $0) } ?? "" }

    var syncAuthor: String? { entry.authors.compactMap(\.name).first }

    /// The entry's date: published, else updated, else when Kiosk received it.
    var syncPublished: Date { entry.published ?? entry.updated ?? receivedAt }

    /// The content (else the summary) through the allow-list sanitizer, relative links read
    /// against the entry's link, else `base`.
    func syncHTML(base: String? = nil) -> String {
        HTMLSanitizer(baseURL: entry.link ?? base).sanitize(entry.content ?? entry.summary ?? "")
    }

    /// The content to sync: the whole article when the user reads this feed as full articles
    /// and one is kept (`articles`, from `ArticleStore.syncArticles`), else ``syncHTML(base:)``.
    func syncHTML(base: String? = nil, articles: [Int64: StoredArticle]) -> String {
        guard let kept = articles[id], let article = kept.article else { return syncHTML(base: base) }
        return HTMLSanitizer(baseURL: kept.url ?? entry.link ?? base).sanitize(article.html)
    }
}

extension ArticleStore {
    /// The articles kept for those of `entries` whose feeds the user reads as full articles
    /// (`fullArticleFeeds`), by entry; none when there are none (one read for a page).
    func syncArticles(for entries: [StoredEntry], fullArticleFeeds: Set<SourceID>) async throws -> [Int64: StoredArticle] {
        let wanted = entries.filter { fullArticleFeeds.contains($0.source) }.map(\.id)
        guard !wanted.isEmpty else { return [:] }
        return try await articles(entries: wanted)
    }
}

extension ReadingStore {
    /// The entries of `ids` that the user may read, in the order of `ids`.
    func storedEntries(inOrder ids: [Int64], user: UserID) async throws -> [StoredEntry] {
        let byID = Dictionary(
            try await storedEntries(ids: ids, user: user).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return ids.compactMap { byID[$0] }
    }
}
