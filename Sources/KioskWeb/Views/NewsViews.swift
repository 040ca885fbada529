import Foundation
import KioskCore
import KioskSources

/// The rows of a News list, shared by the page and the live updates (one rendering of both).
struct NewsList: Sendable {
    var feed: NewsFeed
    var entries: [SourceID: [Entry]]

    /// Each entry with the feed it came from (for the merged list's labels and detail links).
    var rows: [(part: SourceID, entry: Entry)] {
        let list = entries[feed.source] ?? []
        var owner: [String: SourceID] = [:]
        for part in feed.parts.reversed() {
            for entry in entries[part] ?? [] { owner[EntryIdentity.key(of: entry)] = part }
        }
        return list.map { (owner[EntryIdentity.key(of: $0)] ?? feed.parts.first ?? feed.source, $0) }
    }

    var items: [Node] {
        rows.map { part, entry in
            let key = EntryIdentity.key(of: entry)
            return el("li", .class("entry"), .data("key", key), .data("source", part.rawValue)) {
                el("a", .class("entry-link"), .href("/news/\(part.rawValue)/\(key)")) {
                    el("span", .class("entry-title")) { entry.title.flatMap { $0.isEmpty ? nil : $0 } ?? "Untitled" }
                    if let snippet = Snippet.of(entry.summary) {
                        el("span", .class("entry-snippet")) { snippet }
                    }
                    el("span", .class("entry-meta")) {
                        if feed.parts.count > 1 {
                            el("span", .class("entry-part")) { NewsFeed.partName(part) }
                        }
                        if let date = entry.published ?? entry.updated { DateText.node(date) }
                    }
                }
            }
        }
    }

}

/// `/news?feed=…`: the segmented control and the live list.
struct NewsPage: Sendable {
    var feed: NewsFeed
    var state: LiveState

    var page: Page {
        let failures = feed.parts.compactMap { part in
            state.failures[part].map { (part, "\(NewsFeed.partName(part)) could not be refreshed (\($0.description)); showing the last news received.") }
        }
        let list = NewsList(feed: feed, entries: state.entries)
        let hasEntries = !(state.entries[feed.source] ?? []).isEmpty
        return Page(
            title: "News", kind: "news", tab: .news, sequence: state.sequence,
            content: [
                ScreenHeader(title: "News", trailing: [
                    ActivityIndicator(sources: feed.parts, active: !state.checking.isDisjoint(with: feed.parts)).node
                ]).node,
                el("nav", .class("segmented"), .aria("label", "Feed")) {
                    for choice in NewsFeed.allCases {
                        el("a", .href("/news?feed=\(choice.rawValue)"), .data("feed", choice.rawValue),
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
                    if let rendered = state.lists[feed.source] { Node.rendered(rendered) } else { list.items }
                },
            ])
    }
}

/// `/news/<source>/<key>`: one entry's description, sanitized, and a link out.
struct NewsDetailPage: Sendable {
    var source: SourceID
    var entry: Entry
    var sanitizer: HTMLSanitizer
    var sequence: UInt64

    var page: Page {
        let feed = NewsFeed.allCases.first(where: { $0.parts.contains(source) }) ?? .business
        let title = entry.title.flatMap { $0.isEmpty ? nil : $0 } ?? "Untitled"
        let body = entry.summary ?? entry.content
        return Page(
            title: title, kind: "news-detail", tab: .news, sequence: sequence,
            content: [
                BackLink(href: "/news?feed=\(feed.rawValue)", label: "News").node,
                el("article", .class("detail")) {
                    el("p", .class("eyebrow")) { NewsFeed.partName(source) }
                    el("h1", .id("entry-title")) { title }
                    el("p", .class("detail-meta")) {
                        let authors = entry.authors.compactMap(\.name).filter { !$0.isEmpty }
                        if !authors.isEmpty { el("span") { authors.joined(separator: ", ") } }
                        if let date = entry.published ?? entry.updated { DateText.node(date) }
                    }
                    el("div", .id("entry-description"), .class("prose")) {
                        if let body, !body.isEmpty {
                            Node.sanitized(SanitizedHTML(body, sanitizer: sanitizer))
                        } else {
                            el("p", .class("muted")) { "This item has no description." }
                        }
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
