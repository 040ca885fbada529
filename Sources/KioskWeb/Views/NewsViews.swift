import Foundation
import KioskCore
import KioskHTML
import KioskModel
import KioskSources

/// The rows of a News list, shared by the page and the live updates (one rendering of both).
struct NewsList: Sendable {
    var feed: NewsSection
    var sections: NewsSections
    var sources: HubSnapshot

    /// Each entry with the feed it came from (for the merged list's labels and detail links):
    /// a merged source's events say which feed each entry is from.
    var rows: [(part: SourceID, entry: Entry)] {
        let list = sources.entries[feed.source] ?? []
        let origins = sources.origins[feed.source] ?? []
        guard origins.count == list.count else { return list.map { (feed.parts.first ?? feed.source, $0) } }
        return Array(zip(origins, list))
    }

    /// Rows a list shows; older ones are a link away (`/news/older`). Every change sends the
    /// list to every open page, so its size is bounded whatever a feed holds.
    static let shown = 100

    /// The rows from `offset` on, at most `shown` of them.
    func items(from offset: Int) -> [Node] {
        let all = rows
        let start = min(max(0, offset), all.count)
        return row(Array(all[start..<min(start + Self.shown, all.count)])).map(\.node)
    }

    /// What the live list shows: the newest `shown`, then a link to the older ones.
    var items: [Node] { keyedItems.map(\.node) }

    /// The live list's rows by their `data-key` (what changes are sent as, see ``RenderedList``).
    var keyedItems: [(key: String, node: Node)] {
        let all = rows
        var nodes = row(Array(all.prefix(Self.shown)))
        if all.count > Self.shown {
            nodes.append(
                (
                    "more",
                    el("li", .class("entry more-entries"), .data("key", "more")) {
                        el("a", .class("button"), .href("/news/older?feed=\(feed.slug)&from=\(Self.shown)")) {
                            "Older headlines (\(all.count - Self.shown) more)"
                        }
                    }
                ))
        }
        return nodes
    }

    /// Each row keyed by its entry; an entry both feeds of a merged list carry is keyed by its
    /// feed the second time, so every row of a list has a key of its own.
    private func row(_ rows: [(part: SourceID, entry: Entry)]) -> [(key: String, node: Node)] {
        var seen: Set<String> = []
        return rows.map { part, entry in
            let key = EntryIdentity.key(of: entry)
            let rowKey = seen.insert(key).inserted ? key : "\(key)@\(part.rawValue)"
            let drawing = EntryDrawing(style: sections.drawings.drawing(of: part), entry: entry)
            return (rowKey, el("li", .class(drawing.rowClass), .data("key", rowKey), .data("source", part.rawValue)) {
                el("a", .class("entry-link"), .href("/news/\(part.rawValue)/\(key)")) {
                    drawing.rowText(summary: entry.summary)
                    el("span", .class("entry-meta")) {
                        if feed.parts.count > 1 {
                            el("span", .class("entry-part")) { sections.name(of: part) }
                        }
                        if let date = entry.published ?? entry.updated { DateText.node(date) }
                    }
                }
            })
        }
    }
}

/// `/news?feed=…`: the segmented control and the live list.
struct NewsPage: Sendable {
    var feed: NewsSection
    var sections: NewsSections
    var state: LiveState

    var page: Page {
        let failures = feed.parts.compactMap { part in
            state.failures[part].map { (part, "\(sections.name(of: part)) could not be refreshed (\($0.description)); showing the last news received.") }
        }
        let list = NewsList(feed: feed, sections: sections, sources: state.sources)
        let hasEntries = !(state.entries[feed.source] ?? []).isEmpty
        return Page(
            title: "News", kind: "news", tab: .news, sequence: state.sequence,
            content: [
                ScreenHeader(title: "News", trailing: [
                    ActivityIndicator(sources: feed.parts, active: !state.checking.isDisjoint(with: feed.parts)).node
                ]).node,
                el("nav", .class("segmented"), .aria("label", "Feed")) {
                    for choice in sections.sections {
                        el("a", .href("/news?feed=\(choice.slug)"), .data("feed", choice.slug),
                            choice == feed ? .aria("current", "page") : nil) { choice.label }
                    }
                },
                el("p", .class("banner banner-warning feed-status"), .data("sources", feed.parts.map(\.rawValue).joined(separator: " ")),
                    .role("status"), .flag("hidden", failures.isEmpty)) {
                    for (part, message) in failures { el("span", .data("source", part.rawValue)) { message } }
                },
                el("p", .class("empty-state"), .id("news-empty"), .flag("hidden", hasEntries)) {
                    "Fetching the latest news…"
                },
                el("ul", .id("news-list"), .class("entries"), .data("live-list", feed.source.rawValue),
                    .aria("label", "\(feed.label) news")) {
                    // Rendered once per change for the event stream; every page until the next reuses it.
                    if let rendered = state.lists[feed.source] { Node.rendered(rendered.html) } else { list.items }
                },
            ])
    }
}

/// `/news/<source>/<key>`: one entry's description, sanitized, and a link out.
struct NewsDetailPage: Sendable {
    var source: SourceID
    var sections: NewsSections
    var entry: Entry
    var sanitizer: HTMLSanitizer
    var sequence: UInt64
    /// The full article, when asked for, and the link that asks; nil for an entry the store does
    /// not hold (nothing to keep an article with).
    var article: ArticleView?

    var page: Page {
        let back = sections.section(containing: source).map { "/news?feed=\($0.slug)" } ?? "/news"
        let title = EntryDrawing(style: sections.drawings.drawing(of: source), entry: entry).title
        let body = entry.summary ?? entry.content
        return Page(
            title: title, kind: "news-detail", tab: .news, sequence: sequence,
            content: [
                BackLink(href: back, label: "News").node,
                el("article", .class("detail")) {
                    el("p", .class("eyebrow")) { sections.name(of: source) }
                    el("h1", .id("entry-title")) { title }
                    el("p", .class("detail-meta")) {
                        let authors = entry.authors.compactMap(\.name).filter { !$0.isEmpty }
                        if !authors.isEmpty { el("span") { authors.joined(separator: ", ") } }
                        if let date = entry.published ?? entry.updated { DateText.node(date) }
                    }
                    if let article {
                        el("div", .class("reader-actions")) { article.toggle }
                    }
                    el("div", .id("entry-description"), .class("prose")) {
                        let summary = nodes {
                            if let body, !body.isEmpty {
                                Node.sanitized(SanitizedHTML(body, sanitizer: sanitizer))
                            } else {
                                el("p", .class("muted")) { "This item has no description." }
                            }
                        }
                        if let article { article.body(summary: summary) } else { summary }
                    }
                    if let link = SafeLink.http(entry.link) {
                        el("a", .id("entry-link-out"), .class("button"), .href(link), .rel("noopener noreferrer"),
                            Attribute("target", "_blank")) {
                            "Read the full story"
                            el("span", .class("link-host")) { URL(string: link)?.host.map { " on \($0)" } ?? "" }
                        }
                    }
                }
            ])
    }
}

/// `/news/older?feed=…&from=N`: the headlines after the live list's first `NewsList.shown`, a
/// page at a time (not live: what was there when it was asked for).
struct NewsOlderPage: Sendable {
    var feed: NewsSection
    var sections: NewsSections
    var sources: HubSnapshot
    var from: Int

    var page: Page {
        let list = NewsList(feed: feed, sections: sections, sources: sources)
        let total = list.rows.count
        let next = from + NewsList.shown
        return Page(
            title: "Older headlines", kind: "news-older", tab: .news,
            content: [
                BackLink(href: "/news?feed=\(feed.slug)", label: "News").node,
                ScreenHeader(title: "\(feed.label): older headlines").node,
                el("ul", .id("older-list"), .class("entries"), .aria("label", "Older \(feed.label) news")) {
                    list.items(from: from)
                },
                el("p", .class("muted older-range")) {
                    total > from ? "\(from + 1)–\(min(next, total)) of \(total)" : "No older headlines."
                },
                next < total
                    ? el("a", .class("button"), .id("older-next"), .href("/news/older?feed=\(feed.slug)&from=\(next)")) {
                        "Older"
                    } : Node.group([]),
            ])
    }
}
