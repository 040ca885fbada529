import KioskModel
import KioskReader
import KioskSources
import KioskStore

/// `/reader`: the user's feeds by folder with their unread counts, All unread, Starred, saved
/// searches and labels.
struct ReaderHomePage: Sendable {
    var subscriptions: [Subscription]
    var counts: ReaderCounts
    var sequence: UInt64
    /// How each feed's checks have gone: a feed never checked, or failing, says so in its row.
    var health: [SourceID: FeedHealth] = [:]
    /// The user's saved searches, listed under Starred.
    var searches: [SavedSearch] = []
    /// Whether a rule hid anything: then Hidden is listed, last.
    var hasHidden = false
    /// Whether any feed has episodes: then Listen is listed, after Starred.
    var hasListen = false

    var page: Page {
        Page(
            title: ReaderCounts.title("Reader", unread: counts.all), kind: "reader", tab: .reader, sequence: sequence,
            folders: folders,
            content: [
                ScreenHeader(title: "Reader", trailing: [
                    el("a", .class("icon-button"), .href(ReaderLinks.add), .id("add-feed"), .aria("label", "Add a feed"),
                        .title("Add a feed")) { Icon(path: "M12 5v14M5 12h14").node },
                    el("a", .class("icon-button"), .href(ReaderLinks.rules), .id("rules-link"), .aria("label", "Rules"),
                        .title("Rules")) { Icon(path: "M4 5h16l-6 7.5V18l-4 2v-7.5z").node },
                    el("a", .class("icon-button"), .href(ReaderLinks.notifications), .id("notifications-link"),
                        .aria("label", "Notifications"), .title("Notifications")) {
                        Icon(path: "M6 16V11a6 6 0 0 1 12 0v5l1.5 2h-15zM10 20.5a2 2 0 0 0 4 0").node
                    },
                    el("a", .class("icon-button"), .href(ReaderLinks.opml), .id("opml-link"),
                        .aria("label", "Import or export OPML"), .title("Import or export OPML")) {
                        Icon(path: "M12 4v11m-4-4 4 4 4-4M5 19h14").node
                    },
                ]).node,
                el("div", .id("reader-home"), .data("live-reader", "home")) { body },
                // "Offline: 200 articles saved", once the app has kept them (offline.js).
                el("p", .id("offline-saved"), .class("muted offline-saved"), .role("status"), .flag("hidden")) {},
            ])
    }

    /// The part the script redraws when subscriptions change in another tab.
    var body: [Node] {
        [
            el("ul", .class("streams"), .aria("label", "Reading lists")) {
                streamRow(href: ReaderLinks.all, label: "All unread", icon: "M4 6h16M4 12h16M4 18h10", key: "all", count: counts.all)
                streamRow(href: ReaderLinks.starred, label: "Starred", icon: Self.starPath, key: "starred", count: counts.starred)
                if hasListen {
                    streamRow(href: ReaderLinks.listen, label: "Listen", icon: Self.listenPath, key: "listen", count: 0)
                }
                for search in searches {
                    streamRow(
                        href: ReaderLinks.search(search.id), label: search.name, icon: Self.searchPath, key: "search:\(search.id)",
                        count: counts.searches[String(search.id)] ?? 0)
                }
                for label in counts.labels.keys.sorted() {
                    streamRow(
                        href: ReaderLinks.label(label), label: label, icon: Self.labelPath, key: "label:\(label)",
                        count: counts.labels[label] ?? 0)
                }
                if hasHidden {
                    streamRow(href: ReaderLinks.hidden, label: "Hidden", icon: Self.hiddenPath, key: "hidden", count: 0)
                }
            },
            el("p", .class("empty-state"), .flag("hidden", !subscriptions.isEmpty)) {
                "No feeds yet. "
                el("a", .href(ReaderLinks.add)) { "Add one" }
                " or import an OPML file."
            },
            Node.group(folders.map { folderSection($0) }),
            topLevel.isEmpty ? Node.group([]) : el("section", .class("folder"), .aria("label", "Feeds")) {
                el("h2", .class("folder-title")) { "Feeds" }
                el("ul", .class("feeds")) { topLevel.map(feedRow) }
            },
        ]
    }

    static let listenPath = "M4 14v-2a8 8 0 0 1 16 0v2M4 14h3v6H4zM17 14h3v6h-3z"
    static let searchPath = "M10.5 4a6.5 6.5 0 1 0 0 13 6.5 6.5 0 0 0 0-13zM15.5 15.5 20 20"
    static let hiddenPath = "M3 12s3.5-6 9-6 9 6 9 6-3.5 6-9 6-9-6-9-6zM4 4l16 16"
    static let labelPath = "M3.5 12.5V4.5h8l9 9-8 8zM8 8.5h.01"
    static let starPath = "M12 3.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8-5.2-2.7-5.2 2.7 1-5.8-4.3-4.1 5.9-.9z"

    private var folders: [String] {
        var seen = Set<String>()
        return subscriptions.compactMap(\.folder).filter { seen.insert($0).inserted }
    }

    private var topLevel: [Subscription] { subscriptions.filter { $0.folder == nil } }

    private func streamRow(href: String, label: String, icon: String, key: String, count: Int) -> Node {
        el("li") {
            el("a", .class("stream"), .href(href), .data("stream", key)) {
                Icon(path: icon).node
                el("span", .class("stream-name")) { label }
                CountBadge(key: key, count: count).node
            }
        }
    }

    private func folderSection(_ name: String) -> Node {
        let feeds = subscriptions.filter { $0.folder == name }
        return el("section", .class("folder"), .data("folder", name)) {
            el("h2", .class("folder-title")) {
                el("a", .href(ReaderLinks.folder(name))) {
                    el("span") { name }
                    CountBadge(key: "folder:\(name)", count: counts.folders[name] ?? 0).node
                }
            }
            el("ul", .class("feeds")) { feeds.map(feedRow) }
        }
    }

    private func feedRow(_ subscription: Subscription) -> Node {
        el("li") {
            el("a", .class("feed"), .href(ReaderLinks.feed(subscription.id)), .data("feed-id", subscription.id.rawValue)) {
                el("span", .class("feed-name")) {
                    subscription.displayName
                    FeedState(health: health[subscription.id]).node
                }
                CountBadge(key: "feed:\(subscription.id.rawValue)", count: counts.feeds[subscription.id.rawValue] ?? 0).node
            }
        }
    }
}

/// A feed's state under its name when it is not simply fine: "Not checked yet", or "Failing:"
/// and the last error in its own words (an imported feed that cannot be fetched must not look
/// like a healthy empty one).
struct FeedState: Sendable {
    var health: FeedHealth?

    var node: Node {
        guard let health, !health.isUnchecked else {
            return el("span", .class("feed-state muted"), .data("feed-state", "unchecked")) { "Not checked yet" }
        }
        guard health.isFailing else { return Node.group([]) }
        let reason = health.lastError.map { String($0.prefix(160)) } ?? "no answer"
        return el("span", .class("feed-state feed-failing"), .data("feed-state", "failing"), .title(reason)) {
            "Failing: \(reason)"
        }
    }
}
