import Foundation
import KioskCore
import KioskModel
import KioskReader
import KioskSources
import KioskStore

/// A reading list: All unread, Starred, a folder or one feed. Rows are styled read or unread,
/// each with a star; "Mark all read" covers what the page showed, with undo.
struct ReaderListPage: Sendable {
    var scope: ReadingScope
    var title: String
    var entries: [StoredEntry]
    /// Names of the feeds, for each row's label.
    var names: [SourceID: String]
    /// The labels on each entry shown (entries with none absent).
    var labels: [Int64: [String]] = [:]
    /// How each feed's entries are drawn.
    var drawings: EntryDrawings
    var counts: ReaderCounts
    var folders: [String]
    /// Whether read entries are shown too (feeds and folders) or only unread (All unread).
    var showsRead: Bool
    /// Where the next page starts, when there is one.
    var next: String?
    /// The newest entry this list knows of (mark-all-read stops there).
    var newestID: Int64
    var subscription: Subscription?
    /// The feeds the list reads (nil: every feed), so the script knows which changes concern it.
    var sources: [SourceID]?
    var sequence: UInt64

    var page: Page {
        Page(
            title: titleWithCount, kind: "reader-list", tab: .reader, sequence: sequence,
            folders: folders,
            content: [
                BackLink(href: ReaderLinks.home, label: "Reader").node,
                ScreenHeader(title: title, titleID: "reader-title", trailing: trailing).node,
                toolbar,
                el("p", .id("reader-notice"), .class("banner banner-warning"), .role("status"), .flag("hidden")) {},
                el("p", .id("reader-new"), .class("banner banner-success"), .role("status"), .flag("hidden")) {},
                el("p", .class("empty-state"), .id("reader-empty"), .flag("hidden", !entries.isEmpty)) { emptyText },
                el("ul", .id("reader-list"), .class("entries reader-entries"), .data("scope", scopeKey),
                    .flag("data-unread-only", !showsRead),
                    .data("sources", scope == .starred || scope == .hidden || scope.label != nil ? "" : sources.map { $0.map(\.rawValue).joined(separator: " ") } ?? "*"),
                    .aria("label", title)) {
                    entries.map {
                        ReaderRow(
                            entry: $0, feedName: names[$0.source] ?? $0.source.rawValue,
                            drawing: drawings.drawing(of: $0.source), labels: labels[$0.id] ?? []
                        ).node
                    }
                },
                next.map { el("a", .class("button load-more-link"), .id("reader-more"), .href($0)) { "Older entries" } }
                    ?? Node.group([]),
                KeyboardHelp().node,
                LabelDialog(known: counts.labels.keys.sorted(), back: backPath).node,
            ])
    }

    /// Where a form sent without the script comes back to: this list.
    private var backPath: String {
        switch scope {
        case .all: ReaderLinks.all
        case .starred: ReaderLinks.starred
        case .folder(let name): ReaderLinks.folder(name)
        case .feed(let id): ReaderLinks.feed(id)
        case .search(let id): ReaderLinks.search(id)
        case .label(let name): ReaderLinks.label(name)
        case .hidden: ReaderLinks.hidden
        }
    }

    /// The title with the unread count in front: a saved search's own (it is a list of its own,
    /// not a part of All unread), every other list's All unread.
    private var titleWithCount: String {
        guard case .search(let id) = scope else { return ReaderCounts.title(title, unread: counts.all) }
        let count = counts.searches[String(id)] ?? 0
        return ReaderCounts.title(title, unread: count, count: ReaderCounts.text(count, key: scopeKey))
    }

    var scopeKey: String {
        switch scope {
        case .all: "all"
        case .starred: "starred"
        case .folder(let name): "folder:\(name)"
        case .feed(let id): "feed:\(id.rawValue)"
        case .search(let id): "search:\(id)"
        case .label(let name): "label:\(name)"
        case .hidden: "hidden"
        }
    }

    private var emptyText: String {
        switch scope {
        case .starred: "Nothing starred yet. Star an entry to keep it here for good."
        case .all: "All caught up: nothing unread."
        case .search: showsRead ? "Nothing matches this search yet. New entries that do appear here." : "Nothing unread matches this search."
        case .label: showsRead ? "No entry has this label any more." : "Nothing unread has this label."
        case .hidden: "Nothing hidden. Entries a rule hides are kept here, out of every other list."
        default: showsRead ? "No entries yet. New ones appear when the feed is next checked." : "Nothing unread here."
        }
    }

    private var trailing: [Node] {
        var nodes: [Node] = []
        if case .search(let id) = scope {
            nodes.append(
                el("form", .class("inline-form"), Attribute("method", "post"), Attribute("action", ReaderLinks.deleteSearch(id)),
                    .id("delete-search-form")) {
                    el("button", .type("submit"), .class("icon-button"), .id("delete-search"),
                        .aria("label", "Delete this search"), .title("Delete this search")) {
                        Icon(path: "M5 7h14M10 7V4h4v3M7 7l1 13h8l1-13M10 11v6M14 11v6").node
                    }
                })
        }
        if let subscription {
            nodes.append(
                el("a", .class("icon-button"), .href(ReaderLinks.settings(subscription.id)), .id("feed-settings"),
                    .aria("label", "Feed settings"), .title("Feed settings")) {
                    Icon(path: "M12 8.5a3.5 3.5 0 1 0 0 7 3.5 3.5 0 0 0 0-7zM19 12l2-1.5-2-3.5-2.4.6-1.7-1-.6-2.6h-4l-.6 2.6-1.7 1L5.6 7l-2 3.5L5.6 12l-2 1.5 2 3.5 2.4-.6 1.7 1 .6 2.6h4l.6-2.6 1.7-1 2.4.6 2-3.5z").node
                })
        }
        return nodes
    }

    private var toolbar: Node {
        el("div", .class("reader-toolbar")) {
            if offersMarkAll {
                el("form", .class("inline-form"), Attribute("method", "post"), Attribute("action", "/reader/mark-all"),
                    .id("mark-all-form")) {
                    void("input", .type("hidden"), .name("scope"), .value(scopeKey))
                    void("input", .type("hidden"), .name("upTo"), .value(String(newestID)))
                    el("button", .type("submit"), .class("button"), .id("mark-all-read")) { "Mark all read" }
                }
            }
            switch scope {
            case .feed, .folder, .search, .label: showToggle
            case .all, .starred, .hidden: Node.group([])
            }
            el("button", .type("button"), .class("icon-button"), .id("shortcuts-button"),
                .aria("label", "Keyboard shortcuts"), .title("Keyboard shortcuts (?)")) { "?" }
        }
    }

    /// Starred and saved searches are not a set of feeds to mark read up to an entry.
    private var offersMarkAll: Bool {
        switch scope {
        case .starred, .search, .hidden: false
        case .all, .folder, .feed, .label: true
        }
    }

    private var showToggle: Node {
        el("nav", .class("segmented segmented-small"), .aria("label", "Show")) {
            el("a", .href("?show=unread"), showsRead ? nil : .aria("current", "page")) { "Unread" }
            el("a", .href("?show=all"), showsRead ? .aria("current", "page") : nil) { "All" }
        }
    }
}

/// One row of a reading list.
struct ReaderRow: Sendable {
    var entry: StoredEntry
    var feedName: String
    var drawing: SourceKind.Drawing
    var labels: [String] = []

    var node: Node {
        let drawn = EntryDrawing(style: drawing, entry: entry.entry)
        return el("li", .class(drawn.rowClass + (entry.isRead ? " reader-entry is-read" : " reader-entry")),
            .data("id", String(entry.id)), .data("key", entry.key), .data("source", entry.source.rawValue)) {
            el("a", .class("entry-link"), .href(ReaderLinks.entry(entry.source, key: entry.key))) {
                drawn.rowText(
                    marker: el("span", .class("unread-dot"), .aria("hidden", "true")),
                    summary: entry.entry.summary ?? entry.entry.content)
                el("span", .class("entry-meta")) {
                    el("span", .class("entry-part")) { feedName }
                    DateText.node(entry.sortDate)
                    el("span", .class("visually-hidden read-state")) { entry.isRead ? "read" : "unread" }
                }
            }
            LabelChips(id: entry.id, labels: labels, removable: false).node
            // A row's own buttons: a touch screen labels a row without a keyboard's `l`.
            el("div", .class("row-actions")) {
                StarButton(id: entry.id, isStarred: entry.isStarred).node
                LabelButton(id: entry.id).node
            }
        }
    }
}

/// The star toggle of an entry (a real button: the script sends it, Space and Enter press it).
struct StarButton: Sendable {
    var id: Int64
    var isStarred: Bool

    var node: Node {
        el("button", .type("button"), .class("icon-button star"), .data("star", String(id)),
            .aria("pressed", isStarred ? "true" : "false"), .aria("label", "Star"), .title("Star (s)")) {
            Icon(path: ReaderHomePage.starPath).node
        }
    }
}

/// A row's "Add a label": the label dialog for that row, as `l` opens it for the focused row
/// (a button the script answers, as the star is).
struct LabelButton: Sendable {
    var id: Int64

    var node: Node {
        el("button", .type("button"), .class("icon-button label-button"), .data("label-ask", String(id)),
            .aria("label", "Add a label"), .aria("haspopup", "dialog"), .title("Add a label (l)")) {
            Icon(path: ReaderHomePage.labelPath).node
        }
    }
}

/// The keyboard shortcuts, in a dialog `?` opens.
struct KeyboardHelp: Sendable {
    var node: Node {
        el("dialog", .id("shortcuts"), .class("card shortcuts"), .aria("labelledby", "shortcuts-title")) {
            el("h2", .id("shortcuts-title")) { "Keyboard shortcuts" }
            el("dl") {
                for (keys, what) in [
                    ("j / k", "next / previous entry"), ("o or Enter", "open"), ("m", "mark read or unread"),
                    ("s", "star or unstar"), ("l", "add a label"), ("r", "refresh"), ("?", "this help"),
                ] {
                    el("dt") { el("kbd") { keys } }
                    el("dd") { what }
                }
            }
            el("form", Attribute("method", "dialog")) {
                el("button", .class("button"), .id("shortcuts-close")) { "Close" }
            }
        }
    }
}
