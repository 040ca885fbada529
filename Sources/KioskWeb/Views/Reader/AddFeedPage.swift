import KioskCore
import KioskReader

/// `/reader/add`: type a feed or site address, see what it holds, subscribe.
struct AddFeedPage: Sendable {
    var address: String = ""
    var error: String?
    var found: [FoundFeed] = []
    var folders: [String]
    var sequence: UInt64 = 0

    var page: Page {
        Page(
            title: "Add a feed", kind: "reader-add", tab: .reader, sequence: sequence, folders: folders,
            content: [
                BackLink(href: ReaderLinks.home, label: "Reader").node,
                ScreenHeader(title: "Add a feed").node,
                el("form", .class("card stack-form"), Attribute("method", "post"), Attribute("action", ReaderLinks.add),
                    .id("find-form")) {
                    el("label", Attribute("for", "address")) { "Feed or website address" }
                    // Text, not `url`: a browser refuses `example.com` in a URL field, and Kiosk
                    // reads a bare site name (the keyboard is still the URL one).
                    void("input", .type("text"), .id("address"), .name("address"), .value(address),
                        Attribute("placeholder", "https://example.com/"), Attribute("inputmode", "url"),
                        Attribute("autocomplete", "url"), Attribute("autocapitalize", "off"), Attribute("spellcheck", "false"),
                        .flag("required"))
                    el("button", .type("submit"), .class("button primary"), .id("find-feeds")) { "Find feeds" }
                },
                ErrorBanner(id: "add-error", message: error).node,
                found.isEmpty ? Node.group([]) : el("section", .id("candidates"), .aria("label", "Feeds found")) {
                    if found.count > 1 {
                        el("p", .class("lead")) { "This site has \(found.count) feeds. Pick one:" }
                    }
                    found.enumerated().map { index, feed in candidate(feed, index: index) }
                },
            ])
    }

    private func candidate(_ feed: FoundFeed, index: Int) -> Node {
        el("article", .class("card candidate"), .data("feed-url", feed.url.absoluteString)) {
            el("h2", .class("candidate-title")) { feed.title ?? feed.url.host ?? feed.url.absoluteString }
            el("p", .class("muted candidate-url")) { feed.url.absoluteString }
            el("p", .class("muted")) { feed.entryCount == 1 ? "1 entry" : "\(feed.entryCount) entries" }
            if !feed.entries.isEmpty {
                el("ul", .class("preview"), .aria("label", "Latest entries")) {
                    feed.entries.map { entry in el("li") { entry.title.flatMap { $0.isEmpty ? nil : $0 } ?? "Untitled" } }
                }
            }
            el("form", .class("stack-form"), Attribute("method", "post"), Attribute("action", "/reader/subscribe")) {
                void("input", .type("hidden"), .name("url"), .value(feed.url.absoluteString))
                void("input", .type("hidden"), .name("feedTitle"), .value(feed.title ?? ""))
                void("input", .type("hidden"), .name("siteURL"), .value(feed.siteURL ?? ""))
                el("label", Attribute("for", "folder-\(index)")) { "Folder (optional)" }
                void("input", .type("text"), .id("folder-\(index)"), .name("folder"), Attribute("list", "folder-names"),
                    Attribute("autocomplete", "off"))
                el("datalist", .id("folder-names")) { folders.map { el("option", .value($0)) } }
                el("button", .type("submit"), .class("button primary subscribe")) { "Subscribe" }
            }
        }
    }
}
