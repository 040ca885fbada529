/// A whole document: the shell every screen shares (head, navigation, live region) around a
/// screen's content.
struct Page: Sendable {
    /// The document title (escaped like any text).
    var title: String
    /// `body[data-page]`, which the script and the tests key on.
    var kind: String
    /// The tab shown as current.
    var tab: Screen?
    /// A detail page: a back link above the content, and on phones no tab bar where asked.
    var hidesTabBarOnPhones = false
    /// The live hub's sequence number when the page was drawn (`html[data-seq]`): the script
    /// resumes the event stream from there, so nothing that happens in between is missed.
    var sequence: UInt64 = 0
    /// The reader's folders, listed under its tab in the tablet sidebar.
    var folders: [String] = []
    var content: [Node]
    /// Who is signed in (nil: the local owner, or nobody yet): named in the shell, and their
    /// anti-forgery token in `meta[name=csrf-token]` for the script and the forms.
    var viewer: Viewer? = nil

    func render() -> String {
        var out = "<!DOCTYPE html>"
        out.reserveCapacity(16_384)
        document.write(to: &out)
        return out
    }

    private var document: Node {
        el("html", Attribute("lang", "en"), .data("seq", String(sequence))) {
            el("head") {
                void("meta", Attribute("charset", "utf-8"))
                if let viewer { void("meta", .name("csrf-token"), Attribute("content", viewer.csrf)) }
                void("meta", .name("viewport"), Attribute("content", "width=device-width, initial-scale=1, viewport-fit=cover"))
                void("meta", .name("color-scheme"), Attribute("content", "light dark"))
                void("meta", .name("theme-color"), Attribute("content", "#f6f6f3"), Attribute("media", "(prefers-color-scheme: light)"))
                void("meta", .name("theme-color"), Attribute("content", "#17181a"), Attribute("media", "(prefers-color-scheme: dark)"))
                void("meta", .name("apple-mobile-web-app-capable"), Attribute("content", "yes"))
                void("meta", .name("mobile-web-app-capable"), Attribute("content", "yes"))
                void("meta", .name("apple-mobile-web-app-title"), Attribute("content", "Kiosk"))
                el("title") { title == "Kiosk" ? "Kiosk" : "\(title) · Kiosk" }
                void("link", .rel("stylesheet"), .href("/static/app.css"))
                void("link", .rel("manifest"), .href("/manifest.webmanifest"))
                void("link", .rel("icon"), .type("image/png"), .href("/static/icons/icon-192.png"))
                void("link", .rel("apple-touch-icon"), .href("/static/icons/apple-touch-icon.png"))
                el("script", .type("module"), .src("/static/app.js"))
            }
            el("body", .data("page", kind), .flag("data-hide-tabs", hidesTabBarOnPhones)) {
                el("a", .class("skip-link"), .href("#main")) { "Skip to content" }
                TabBar(current: tab, folders: folders, viewer: viewer).node
                el("main", .id("main"), Attribute("tabindex", "-1")) { content }
                el("div", .id("live-status"), .class("visually-hidden"), .aria("live", "polite"), .role("status"))
            }
        }
    }
}

/// The navigation between screens: a bottom tab bar on phones, a sidebar on wide screens (CSS).
struct TabBar: Sendable {
    var current: Screen?
    /// Listed under the Reader tab on wide screens (CSS hides them on phones).
    var folders: [String] = []
    var viewer: Viewer? = nil

    var node: Node {
        el("nav", .class("tabs"), .aria("label", "Sections")) {
            el("span", .class("brand"), .aria("hidden", "true")) { "Kiosk" }
            if let viewer {
                el("a", .class("account-link"), .href("/settings"), .id("account-link"),
                    .aria("label", "Account settings: signed in as \(viewer.name)")) { viewer.name }
            }
            el("ul") {
                for screen in Screen.allCases {
                    el("li") {
                        el("a", .href(screen.path), .data("tab", screen.rawValue),
                            screen == current ? .aria("current", "page") : nil) {
                            Icon(path: screen.iconPath).node
                            el("span", .class("tab-label")) { screen.label }
                        }
                        if screen == .reader && !folders.isEmpty {
                            el("ul", .class("sidebar-folders"), .aria("label", "Folders")) {
                                folders.map { name in
                                    el("li") { el("a", .href(ReaderLinks.folder(name)), .data("folder-link", name)) { name } }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// A line icon in a 24×24 box (inline SVG: markup, not script, so the CSP allows it).
struct Icon: Sendable {
    var path: String

    var node: Node {
        el("svg", .class("icon"), Attribute("viewBox", "0 0 24 24"), .aria("hidden", "true"),
            Attribute("focusable", "false")) {
            el("path", Attribute("d", path))
        }
    }
}
