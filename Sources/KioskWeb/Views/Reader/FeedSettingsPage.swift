import KioskModel
import KioskReader
import KioskSources

/// `/reader/feed/<id>/settings`: rename, file in a folder, how often to check, unsubscribe.
struct FeedSettingsPage: Sendable {
    var subscription: Subscription
    var folders: [String]
    var message: String?
    var error: String?
    var sequence: UInt64 = 0
    /// Why "Show full articles" is suggested for this feed, when it is (its entries are summaries).
    var suggestion: FullArticleSuggestion?
    /// Whether a notification is sent for each new entry (a rule: see `Rules.notifiesOfEvery`).
    var notifies = false
    /// Whether the feed has episodes (a file to play), so a device may keep its next ones.
    var hasEpisodes = false

    static let intervals: [(seconds: Int, label: String)] = [
        (300, "Every 5 minutes"), (900, "Every 15 minutes"), (1_800, "Every 30 minutes"), (3_600, "Every hour"),
        (21_600, "Every 6 hours"), (86_400, "Once a day"),
    ]

    /// "Keep the next 3 unplayed episodes on this device": a choice of the device (its storage),
    /// kept and acted on by player.js, which shows it; no form of the server's.
    private var keepEpisodes: Node {
        el("section", .class("card stack-form"), .id("keep-episodes"), .data("feed", subscription.id.rawValue),
            Attribute("hidden", nil)) {
            el("h2") { "On this device" }
            el("label", .class("check-row"), Attribute("for", "feed-keep-episodes")) {
                void("input", .type("checkbox"), .id("feed-keep-episodes"))
                "Keep the next 3 unplayed episodes"
            }
            el("p", .class("muted"), .id("keep-episodes-status"), .role("status")) {
                "Saved for offline as they arrive, and removed once played, within the space set in Settings."
            }
        }
    }

    var page: Page {
        let id = subscription.id
        let current = Int(subscription.interval.components.seconds)
        return Page(
            title: "\(subscription.displayName) settings", kind: "reader-settings", tab: .reader, sequence: sequence,
            folders: folders,
            content: [
                BackLink(href: ReaderLinks.feed(id), label: subscription.displayName).node,
                ScreenHeader(title: "Feed settings").node,
                el("p", .class("banner banner-success"), .role("status"), .id("settings-saved"), .flag("hidden", message == nil)) {
                    message ?? ""
                },
                ErrorBanner(id: "settings-error", message: error).node,
                el("form", .class("card stack-form"), Attribute("method", "post"), Attribute("action", ReaderLinks.settings(id)),
                    .id("settings-form")) {
                    el("p", .class("muted candidate-url")) { subscription.url.absoluteString }
                    el("label", Attribute("for", "feed-title")) { "Name" }
                    void("input", .type("text"), .id("feed-title"), .name("title"), .value(subscription.title ?? ""),
                        Attribute("placeholder", subscription.feedTitle ?? subscription.displayName), Attribute("maxlength", "200"))
                    el("label", Attribute("for", "feed-folder")) { "Folder" }
                    void("input", .type("text"), .id("feed-folder"), .name("folder"), .value(subscription.folder ?? ""),
                        Attribute("list", "folder-names"), Attribute("placeholder", "No folder"), Attribute("maxlength", "200"))
                    el("datalist", .id("folder-names")) { folders.map { el("option", .value($0)) } }
                    if subscription.isBuiltIn {
                        el("p", .class("muted")) { "One of the News sources: checked every 5 seconds." }
                    } else {
                        el("label", Attribute("for", "feed-interval")) { "Check for new entries" }
                        el("select", .id("feed-interval"), .name("interval")) {
                            Self.choices(current: current).map { seconds, label in
                                el("option", .value(String(seconds)), .flag("selected", seconds == current)) { label }
                            }
                        }
                    }
                    el("label", .class("check-row"), Attribute("for", "feed-full-articles")) {
                        void("input", .type("checkbox"), .id("feed-full-articles"), .name("fullArticles"),
                            .flag("checked", subscription.fullArticles))
                        "Show full articles"
                    }
                    el("p", .class("muted"), .id("full-articles-help")) {
                        "Each new entry's page is fetched when it arrives and its whole article shown here and in synced apps."
                    }
                    if let suggestion, !subscription.fullArticles {
                        el("p", .class("banner banner-info"), .id("full-articles-suggestion"), .role("note")) { suggestion.sentence }
                    }
                    void("input", .type("hidden"), .name("notifyWas"), .value(notifies ? "on" : "off"))
                    el("label", .class("check-row"), Attribute("for", "feed-notify")) {
                        void("input", .type("checkbox"), .id("feed-notify"), .name("notify"), .flag("checked", notifies))
                        "Notify on new entries"
                    }
                    el("p", .class("muted"), .id("notify-help")) {
                        "Each new entry is sent to your "
                        el("a", .href(ReaderLinks.notifications)) { "devices and webhook" }
                        " (a burst summed up in one). It is a rule, listed with your others."
                    }
                    el("button", .type("submit"), .class("button primary"), .id("save-settings")) { "Save" }
                },
                hasEpisodes ? keepEpisodes : Node.group([]),
                subscription.isBuiltIn ? Node.group([]) : el("section", .class("danger-zone")) {
                    el("a", .class("button danger"), .href(ReaderLinks.unsubscribe(id)), .id("unsubscribe")) { "Unsubscribe…" }
                },
            ])
    }

    /// The usual intervals, and the feed's own when it is none of them.
    static func choices(current: Int) -> [(Int, String)] {
        var list = intervals.map { ($0.seconds, $0.label) }
        if !list.contains(where: { $0.0 == current }) { list.insert((current, "Every \(current) seconds"), at: 0) }
        return list
    }
}

/// The confirmation before unsubscribing: what goes, and one button that does it.
struct UnsubscribePage: Sendable {
    var subscription: Subscription
    var folders: [String]

    var page: Page {
        Page(
            title: "Unsubscribe from \(subscription.displayName)", kind: "reader-unsubscribe", tab: .reader,
            folders: folders,
            content: [
                BackLink(href: ReaderLinks.settings(subscription.id), label: "Settings").node,
                el("section", .class("message")) {
                    el("h1") { "Unsubscribe from \(subscription.displayName)?" }
                    el("p") { "Its entries go with it, starred ones included. You can subscribe again at any time." }
                    el("form", Attribute("method", "post"), Attribute("action", ReaderLinks.unsubscribe(subscription.id))) {
                        el("button", .type("submit"), .class("button danger"), .id("confirm-unsubscribe")) { "Unsubscribe" }
                        " "
                        el("a", .class("button"), .href(ReaderLinks.settings(subscription.id))) { "Keep it" }
                    }
                }
            ])
    }
}
