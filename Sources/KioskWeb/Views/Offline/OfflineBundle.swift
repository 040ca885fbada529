import Foundation
import KioskCore
import KioskHTML
import KioskStore

/// What the installed app keeps on the device for reading without a network
/// (`GET /reader/offline.json`): the newest unread entries of the reader in use, each with its
/// kept article (or its summary) as sanitized HTML whose images go through the image proxy, and
/// the images' proxy addresses so the app can keep those too. `account` names whose reader it is,
/// so a device never shows one account's copy to another.
struct OfflineBundle: Encodable, Sendable {
    struct Feed: Encodable, Sendable {
        var id: String
        var title: String
        var unread: Int
    }

    struct Item: Encodable, Sendable {
        var id: Int64
        var feed: String
        var feedTitle: String
        var title: String
        /// ISO 8601.
        var date: String
        /// The entry page, for when the network is back.
        var path: String
        var link: String?
        var starred: Bool
        /// The article when one is kept, else the summary; sanitized, images through `/img`.
        var html: String
        /// Whether `html` is the whole article.
        var full: Bool
        /// The `/img?…` addresses `html` loads.
        var images: [String]
    }

    var account: String
    var savedAt: String
    var limit: Int
    var unread: Int
    var feeds: [Feed]
    var entries: [Item]

    /// How many entries a device may keep: the number in Settings, within these bounds.
    static let limits = [50, 100, 200, 500]
    static let defaultLimit = 200

    static func limit(_ asked: Int?) -> Int {
        guard let asked else { return defaultLimit }
        return min(max(asked, limits[0]), limits[limits.count - 1])
    }

    /// Each entry's body as the entry page draws it, and the images it loads.
    static func item(
        _ entry: StoredEntry, feedTitle: String, drawing: SourceKind.Drawing, article: StoredArticle?, signer: ImageSigner,
        siteURL: String?
    ) -> Item {
        let html: String
        let full: Bool
        if let found = article?.article {
            let view = ArticleView(stored: article, signer: signer, entryPath: "")
            html = Node.group(view.body(summary: [])).render()
            full = !found.text.isEmpty
        } else {
            let body = [entry.entry.content, entry.entry.summary].compactMap { $0 }.first { !$0.isEmpty }
            let sanitizer = HTMLSanitizer(baseURL: entry.entry.link ?? siteURL, imageProxy: { signer.path(for: $0) })
            html = body.map { SanitizedHTML($0, sanitizer: sanitizer).markup } ?? ""
            full = false
        }
        return Item(
            id: entry.id, feed: entry.source.rawValue, feedTitle: feedTitle,
            title: EntryDrawing(style: drawing, entry: entry.entry).title, date: ISO8601DateFormatter().string(from: entry.sortDate),
            path: ReaderLinks.entry(entry.source, key: entry.key), link: SafeLink.http(entry.entry.link),
            starred: entry.isStarred, html: html, full: full, images: images(in: html))
    }

    /// Every `src="/img?…"` in `html` (the sanitizer writes no other image source).
    static func images(in html: String) -> [String] {
        var found: [String] = []
        var rest = Substring(html)
        while let start = rest.range(of: "src=\"/img?") {
            let value = rest[rest.index(start.lowerBound, offsetBy: 5)...]
            guard let end = value.firstIndex(of: "\"") else { break }
            let address = String(value[..<end]).replacingOccurrences(of: "&amp;", with: "&")
            if !found.contains(address) { found.append(address) }
            rest = value[end...]
        }
        return found
    }
}
