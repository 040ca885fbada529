import Foundation
import KioskCore
import KioskHTML
import KioskReader
import KioskSources
import KioskStore

/// `/reader/entry/<feed>/<key>`: one entry, its content sanitized, with read and star toggles
/// and its labels.
/// Opening it marks it read, by a POST from the script (a GET never changes anything).
struct ReaderEntryPage: Sendable {
    var entry: StoredEntry
    var feedName: String
    var drawing: SourceKind.Drawing
    var sanitizer: HTMLSanitizer
    /// The full article, when asked for (`…/article`), and the link that asks.
    var article: ArticleView
    var folders: [String]
    var unread: Int
    var sequence: UInt64
    /// The entry's labels, and every label the user has (offered when adding one).
    var labels: [String] = []
    var knownLabels: [String] = []
    /// The episode's player, when the entry has audio or video.
    var player: EpisodePlayer?

    var page: Page {
        let title = EntryDrawing(style: drawing, entry: entry.entry).title
        let body = [entry.entry.content, entry.entry.summary].compactMap { $0 }.first { !$0.isEmpty }
        return Page(
            title: ReaderCounts.title(title, unread: unread), kind: "reader-entry", tab: .reader,
            sequence: sequence, folders: folders,
            content: [
                BackLink(href: ReaderLinks.feed(entry.source), label: feedName).node,
                el("article", .class("detail reader-detail"), .data("id", String(entry.id)),
                    .data("read", entry.isRead ? "true" : "false"), .id("reader-entry")) {
                    el("p", .class("eyebrow")) { feedName }
                    el("h1", .id("entry-title")) { title }
                    if entry.isHidden {
                        el("div", .class("banner banner-warning hidden-banner"), .id("hidden-banner"), .role("note")) {
                            "A rule hid this entry: it is out of every list but Hidden. "
                            el("form", .class("inline-form"), Attribute("method", "post"), Attribute("action", ReaderLinks.setHidden)) {
                                void("input", .type("hidden"), .name("ids"), .value(String(entry.id)))
                                void("input", .type("hidden"), .name("hidden"), .value("false"))
                                void("input", .type("hidden"), .name("back"), .value(ReaderLinks.entry(entry.source, key: entry.key)))
                                el("button", .type("submit"), .class("link-button"), .id("unhide")) { "Show it again" }
                            }
                        }
                    }
                    el("p", .class("detail-meta")) {
                        let authors = entry.entry.authors.compactMap(\.name).filter { !$0.isEmpty }
                        if !authors.isEmpty { el("span") { authors.joined(separator: ", ") } }
                        DateText.node(entry.sortDate)
                    }
                    if let player { player.node }
                    el("div", .class("reader-actions")) {
                        el("form", .class("inline-form"), Attribute("method", "post"), Attribute("action", "/reader/read")) {
                            void("input", .type("hidden"), .name("ids"), .value(String(entry.id)))
                            void("input", .type("hidden"), .name("read"), .value(entry.isRead ? "false" : "true"))
                            el("button", .type("submit"), .class("button"), .id("toggle-read"), .data("read-toggle", String(entry.id))) {
                                entry.isRead ? "Mark unread" : "Mark read"
                            }
                        }
                        StarButton(id: entry.id, isStarred: entry.isStarred).node
                        article.toggle
                    }
                    el("div", .class("entry-labels")) {
                        LabelChips(id: entry.id, labels: labels, removable: true).node
                        LabelForm(
                            ids: String(entry.id), known: knownLabels, formID: "label-form",
                            back: ReaderLinks.entry(entry.source, key: entry.key)
                        ).node
                    }
                    el("div", .id("entry-description"), .class("prose")) {
                        article.body(summary: nodes {
                            if let body {
                                Node.sanitized(SanitizedHTML(body, sanitizer: sanitizer))
                            } else {
                                el("p", .class("muted")) { "This entry has no text." }
                            }
                        })
                    }
                    if let link = SafeLink.http(entry.entry.link) {
                        el("a", .id("entry-link-out"), .class("button"), .href(link), .rel("noopener noreferrer"),
                            Attribute("target", "_blank")) {
                            "Read on the site"
                            el("span", .class("link-host")) { URL(string: link)?.host.map { " (\($0))" } ?? "" }
                        }
                    }
                },
                KeyboardHelp().node,
            ])
    }
}
