import Foundation
import KioskCore
import KioskHTML
import KioskStore

/// An entry page's reader view: the whole article in place of the summary, or, when it cannot be
/// had, a plain sentence saying why above the summary. Reader entries and News details both
/// draw it. The article's HTML goes through the sanitizer again here, with its images (and its
/// lead image) sent through the image proxy, so the page loads nothing from the site itself.
struct ArticleView: Sendable {
    /// What was read; nil when the page shows the summary and offers the article.
    var stored: StoredArticle?
    var signer: ImageSigner
    /// The entry page's own address; the article is that with `/article` after it.
    var entryPath: String
    /// Where "Summary" goes: the entry page, or for a feed read as full articles that page
    /// with `?summary=1` (it shows the article by default).
    var summaryPath: String

    init(stored: StoredArticle?, signer: ImageSigner, entryPath: String, summaryPath: String? = nil) {
        self.stored = stored
        self.signer = signer
        self.entryPath = entryPath
        self.summaryPath = summaryPath ?? entryPath
    }

    var articlePath: String { entryPath + "/article" }

    /// "Full article", or "Summary" while the article is shown.
    var toggle: Node {
        if stored?.article != nil {
            return el("a", .id("article-toggle"), .class("button"), .href(summaryPath)) { "Summary" }
        }
        return el("a", .id("article-toggle"), .class("button"), .href(articlePath), .data("article", "fetch")) {
            "Full article"
        }
    }

    /// The text of the page: the article, or `summary` (with why there is no article, when it failed).
    func body(summary: [Node]) -> [Node] {
        guard let stored else { return summary }
        guard let article = stored.article else {
            let reason: String =
                if case .failed(let why) = stored.outcome { why } else { "no article was found" }
            return nodes {
                el("p", .id("article-status"), .class("banner banner-warning"), .role("status")) {
                    "Kiosk could not show the full article: \(reason)."
                }
                summary
            }
        }
        let signer = signer
        let sanitizer = HTMLSanitizer(baseURL: stored.url, imageProxy: { signer.path(for: $0) })
        let lead = article.image.flatMap { image in article.html.contains(image) ? nil : signer.path(for: image) }
        return nodes {
            el("div", .id("entry-article"), .class("article")) {
                if let lead {
                    el("figure", .class("article-lead")) {
                        void("img", .src(lead), .alt(""), Attribute("loading", "lazy"), Attribute("decoding", "async"))
                    }
                }
                el("p", .class("detail-meta article-meta")) {
                    if let byline = article.byline, !byline.isEmpty { el("span") { byline } }
                    if let site = article.siteName, !site.isEmpty { el("span") { site } }
                    el("span") { Self.readingTime(words: article.wordCount) }
                }
                Node.sanitized(SanitizedHTML(article.html, sanitizer: sanitizer))
            }
        }
    }

    /// "4 min read" at 230 words a minute, "1 min read" at least.
    static func readingTime(words: Int) -> String {
        "\(max(1, Int((Double(words) / 230).rounded()))) min read"
    }
}
