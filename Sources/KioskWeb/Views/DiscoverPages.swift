import Foundation
import KioskCore
import KioskModel
import KioskSources

/// NewsAPI's categories, in the order Discover shows them.
enum DiscoverCategory: String, Sendable, CaseIterable {
    case general, business, entertainment, health, science, sports, technology

    var label: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }
}

/// What a Discover list shows: a category's headlines, or a search of NewsAPI or of the news
/// Kiosk has stored (the "saved" scope, and the only one without a NewsAPI key).
enum DiscoverQuery: Sendable, Hashable {
    case category(DiscoverCategory)
    case search(String, SearchScope)

    /// From `?category=`, `?q=` and `?scope=`; a non-blank search wins.
    init(category: String?, search: String?, scope: String?, hasAPIKey: Bool) {
        if let text = search?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty {
            let scope: SearchScope = !hasAPIKey || scope == SearchScope.saved.rawValue ? .saved : .web
            self = .search(String(text.prefix(200)), scope)
        } else {
            self = .category(category.flatMap(DiscoverCategory.init(rawValue:)) ?? .general)
        }
    }

    /// The query string that asks for this list again.
    var queryString: String {
        var components = URLComponents()
        switch self {
        case .category(let category): components.queryItems = [URLQueryItem(name: "category", value: category.rawValue)]
        case .search(let text, let scope):
            components.queryItems = [URLQueryItem(name: "q", value: text), URLQueryItem(name: "scope", value: scope.rawValue)]
        }
        return (components.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
    }
}

/// Where a search looks: NewsAPI, or the entries Kiosk stored from its feeds.
enum SearchScope: String, Sendable, Hashable {
    case web
    case saved
}

/// Rows for stored entries found by a saved search: the News sources' open as News details,
/// the user's own feeds' in the reader.
struct SavedRows: Sendable {
    var hits: [(source: String, key: String, entry: KioskCore.Entry)]
    /// Each feed's display name (from the subscriptions).
    var names: [SourceID: String] = [:]
    /// Which feeds News shows (their hits open as News details).
    var news: NewsSections?

    var items: [Node] {
        hits.map { source, key, entry in
            el("li", .class("article saved"), .data("key", key)) {
                el("a", .class("article-link"), .href(link(source: SourceID(source), key: key))) {
                    el("span", .class("article-text")) {
                        el("span", .class("article-title")) { entry.title ?? "Untitled" }
                        el("span", .class("entry-meta")) {
                            el("span", .class("entry-part")) { "Saved · \(names[SourceID(source)] ?? source)" }
                            if let date = entry.published ?? entry.updated { DateText.node(date) }
                        }
                    }
                }
            }
        }
    }
}

extension SavedRows {
    /// Where a hit opens: News shows its own three sources; every other feed is the reader's.
    func link(source: SourceID, key: String) -> String {
        news?.shows(source) == true
            ? "/news/\(source.rawValue)/\(key)" : ReaderLinks.entry(source, key: key)
    }
}

/// Rows of a Discover list (the page and the "more"/search fragments share them).
struct ArticleRows: Sendable {
    var articles: [(key: String, article: Article)]
    var images: ImageSigner

    var items: [Node] {
        articles.map { key, article in
            el("li", .class("article"), .data("key", key)) {
                el("a", .class("article-link"), .href("/discover/articles/\(key)")) {
                    if let image = images.path(for: article.urlToImage) {
                        LazyImage(src: image, className: "article-thumb", width: 96, height: 64).node
                    }
                    el("span", .class("article-text")) {
                        el("span", .class("article-title")) { article.title ?? "Untitled" }
                        el("span", .class("entry-meta")) {
                            if let source = article.sourceName { el("span") { source } }
                            if let date = article.publishedAt { DateText.node(date) }
                        }
                    }
                }
            }
        }
    }
}

/// `/discover`: categories, a search box, and a list that grows as it scrolls.
struct DiscoverScreenPage: Sendable {
    var query: DiscoverQuery
    var rows: ArticleRows
    var page: Int
    var hasMore: Bool
    var error: String?
    /// Whether NewsAPI can be searched (else every search is of saved news).
    var hasAPIKey: Bool
    var saved: SavedRows?
    /// Why the search box's query does not read, said under the box.
    var queryError: String? = nil
    /// The news API has not answered yet: the screen shows at once, saying so, and the script
    /// loads the list.
    var loading = false

    var document: Page {
        let searchText: String = if case .search(let text, _) = query { text } else { "" }
        let scope: SearchScope = if case .search(_, let scope) = query { scope } else { hasAPIKey ? .web : .saved }
        return Page(
            title: "Discover", kind: "discover", tab: .discover,
            content: nodes {
                ScreenHeader(title: "Discover", trailing: [RefreshButton().node]).node
                el("form", .id("search-form"), .class("search"), Attribute("action", "/discover"), Attribute("method", "get"),
                    .role("search")) {
                    el("label", Attribute("for", "search"), .class("visually-hidden")) { "Search news" }
                    void("input", .id("search"), .type("search"), .name("q"), .value(searchText),
                        Attribute("placeholder", "Search news"), Attribute("autocomplete", "off"),
                        Attribute("enterkeyhint", "search"), .aria("describedby", "query-error"),
                        .aria("invalid", queryError == nil ? "false" : "true"))
                    el("p", .id("query-error"), .class("field-error"), .role("alert"), .flag("hidden", queryError == nil)) {
                        queryError ?? ""
                    }
                    if hasAPIKey {
                        el("fieldset", .class("scopes")) {
                            el("legend", .class("visually-hidden")) { "Search in" }
                            for (value, label) in [(SearchScope.web, "All news"), (.saved, "Saved")] {
                                el("label") {
                                    void("input", .type("radio"), .name("scope"), .value(value.rawValue),
                                        .flag("checked", scope == value))
                                    el("span") { label }
                                }
                            }
                        }
                    } else {
                        void("input", .type("hidden"), .name("scope"), .value(SearchScope.saved.rawValue))
                    }
                }
                // Saved news found by a query that reads can be kept as a reading list of its own.
                el("form", .id("save-search"), .class("save-search"), Attribute("method", "post"),
                    Attribute("action", ReaderLinks.searches),
                    .flag("hidden", scope != .saved || searchText.trimmingCharacters(in: .whitespaces).isEmpty || queryError != nil)) {
                    void("input", .type("hidden"), .name("q"), .value(searchText))
                    el("button", .type("submit"), .class("button"), .id("save-search-button")) { "Save this search" }
                }
                SearchHelp().node
                el("nav", .class("categories"), .aria("label", "Categories")) {
                    for category in DiscoverCategory.allCases {
                        el("a", .href("/discover?category=\(category.rawValue)"), .data("category", category.rawValue),
                            query == .category(category) ? .aria("current", "page") : nil) { category.label }
                    }
                }
                el("div", .class("pull-indicator"), .aria("hidden", "true")) { el("span", .class("spinner")) }
                ErrorBanner(id: "api-error", message: error).node
                el("ul", .id("articles"), .class("articles"), .data("query", query.queryString), .data("page", String(page)),
                    .data("has-more", hasMore ? "true" : "false"), .aria("busy", loading ? "true" : "false"),
                    .flag("data-loading", loading), .aria("label", "Articles")) {
                    if let saved { saved.items } else { rows.items }
                }
                el("p", .id("discover-loading"), .class("loading-state muted"), .role("status"), .flag("hidden", !loading)) {
                    el("span", .class("spinner"), .aria("hidden", "true"))
                    el("span") { loading ? "Loading the news…" : "" }
                }
                el("p", .class("empty-state"),
                    .flag("hidden", loading || !((saved?.hits.isEmpty ?? rows.articles.isEmpty) && error == nil && queryError == nil))) {
                    "No articles."
                }
                el("div", .id("load-more"), .class("load-more"), .flag("hidden", !hasMore)) {
                    el("span", .class("spinner"), .aria("hidden", "true"))
                    el("button", .type("button"), .class("button"), .id("load-more-button")) { "Load more" }
                }
            })
    }
}

/// `/discover/articles/<key>`: one article in full.
struct ArticleDetailPage: Sendable {
    var article: Article
    var images: ImageSigner

    var page: Page {
        Page(
            title: article.title ?? "Article", kind: "discover-detail", tab: .discover,
            content: nodes {
                BackLink(href: "/discover", label: "Discover").node
                el("article", .class("detail")) {
                    if let image = images.path(for: article.urlToImage) {
                        void("img", .id("article-image"), .class("detail-image"), .src(image), .alt(""),
                            Attribute("width", "1200"), Attribute("height", "675"))
                    }
                    el("p", .id("article-source"), .class("eyebrow")) { article.sourceName ?? "" }
                    el("h1", .id("article-title")) { article.title ?? "Untitled" }
                    el("p", .class("detail-meta")) {
                        el("span", .id("article-author"), .flag("hidden", (article.author ?? "").isEmpty)) {
                            article.author ?? ""
                        }
                        el("span", .id("article-date")) {
                            if let date = article.publishedAt { DateText.node(date) }
                        }
                    }
                    el("p", .id("article-description"), .class("lead")) { article.description ?? "" }
                    el("p", .id("article-content")) { ArticleText.content(article.content) }
                    if let link = SafeLink.http(article.url) {
                        el("a", .id("article-link"), .class("button"), .href(link), .rel("noopener noreferrer"),
                            Attribute("target", "_blank")) { "Read the full article" }
                    }
                }
            })
    }
}

enum ArticleText {
    /// NewsAPI cuts `content` and appends "… [+1234 chars]"; the marker means nothing to a reader.
    static func content(_ text: String?) -> String {
        guard let text else { return "" }
        guard let range = text.range(of: #"\s*\[\+\d+ chars\]$"#, options: .regularExpression) else { return text }
        return String(text[..<range.lowerBound])
    }
}

/// The search box's help: what saved news searches understand (the query language of rules),
/// one example a line, opened by a tap (a disclosure: no script).
struct SearchHelp {
    static let examples: [(query: String, meaning: String)] = [
        ("climate summit", "both words, in any case and with or without accents"),
        ("\"green new deal\"", "the exact phrase"),
        ("oil -pipeline", "without a word (or -\"a phrase\")"),
        ("brexit OR eu", "either word; (parentheses) group"),
        ("intitle:storm", "in the title; also content:, author:, feed:, folder:, label:, inurl:"),
        ("is:unread", "also is:read, is:starred and is:hidden (what rules hid)"),
        ("date:P7D", "the last seven days; date:2026-11-01/2026-11-20 for days"),
        ("intitle:/^\\[Sponsored\\]/", "a regular expression"),
    ]

    var node: Node {
        el("details", .class("search-help")) {
            el("summary") { "Search tips" }
            el("p", .class("muted")) { "Saved news understands:" }
            el("dl") {
                for (query, meaning) in Self.examples {
                    el("dt") { el("code") { query } }
                    el("dd") { meaning }
                }
            }
        }
    }
}
