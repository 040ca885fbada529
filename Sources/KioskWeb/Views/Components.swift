import KioskModel
import KioskSources

/// The small per-source activity indicator: a spinner beside a header, shown (by class) while
/// any of its sources is being checked. It takes no clicks and covers nothing.
struct ActivityIndicator: Sendable {
    var sources: [SourceID]
    var active: Bool

    var node: Node {
        el("span", .class(active ? "activity is-active" : "activity"),
            .data("sources", sources.map(\.rawValue).joined(separator: " ")), .role("status"),
            .aria("label", "Checking for news"), .aria("hidden", active ? "false" : "true")) {
            el("span", .class("spinner"), .aria("hidden", "true"))
        }
    }
}

/// A screen's header: its title, with room on the trailing side for actions.
struct ScreenHeader: Sendable {
    var title: String
    var titleID: String?
    var trailing: [Node] = []

    var node: Node {
        el("header", .class("screen-header")) {
            el("h1", titleID.map(Attribute.id)) { title }
            if !trailing.isEmpty {
                el("div", .class("header-actions")) { trailing }
            }
        }
    }
}

/// A back link for detail pages.
struct BackLink: Sendable {
    var href: String
    var label: String

    var node: Node {
        el("a", .class("back"), .href(href)) {
            Icon(path: "M15 5l-7 7 7 7").node
            el("span") { label }
        }
    }
}

/// A banner saying a source failed, with the reason in the source's own words.
struct ErrorBanner: Sendable {
    var id: String?
    var message: String?

    var node: Node {
        el("p", id.map(Attribute.id), .class("banner banner-error"), .role("alert"), .flag("hidden", message == nil)) {
            message ?? ""
        }
    }
}

/// Said while a refresh goes on behind the data shown (`[data-refreshing]`: the script then asks
/// for the outcome, `?landed=1`, and draws it when it lands).
struct RefreshStatus: Sendable {
    var refreshing: Bool

    var node: Node {
        el("p", .id("refresh-status"), .class("refresh-status muted"), .role("status"),
            .flag("data-refreshing", refreshing), .flag("hidden", !refreshing)) {
            refreshing ? "Refreshing… the last copy is shown meanwhile." : ""
        }
    }
}

/// A refresh button (the same action as pull-to-refresh on touch screens).
struct RefreshButton: Sendable {
    var node: Node {
        el("button", .id("refresh"), .type("button"), .class("icon-button"), .aria("label", "Refresh")) {
            Icon(path: "M20 11a8 8 0 1 0-2.3 5.7M20 4v7h-7").node
        }
    }
}
