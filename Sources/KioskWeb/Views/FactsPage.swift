import KioskCore
import KioskModel
import KioskSources

/// `/facts`: the feed's own title and its rows, each as tall as its content; images load only
/// as they come into view, into space reserved for them.
struct FactsPage: Sendable {
    var sheet: FactSheet?
    var error: SourceError?
    var images: ImageSigner
    /// A refresh goes on behind what is shown.
    var refreshing = false

    var page: Page {
        let rows = (sheet?.rows ?? []).filter { ($0.title ?? $0.description ?? $0.imageURL) != nil }
        return Page(
            title: sheet?.title ?? "Facts", kind: "facts", tab: .facts,
            content: [
                ScreenHeader(title: sheet?.title ?? "Facts", titleID: "facts-title", trailing: [RefreshButton().node]).node,
                el("div", .class("pull-indicator"), .aria("hidden", "true")) { el("span", .class("spinner")) },
                ErrorBanner(id: "api-error", message: error.map { "Facts could not be refreshed: \($0.description)" }).node,
                RefreshStatus(refreshing: refreshing).node,
                el("ul", .id("facts"), .class("facts")) {
                    for fact in rows {
                        el("li", .class("fact")) {
                            if let image = images.path(for: fact.imageURL) {
                                LazyImage(src: image, className: "fact-image", width: 96, height: 72).node
                            }
                            el("div", .class("fact-text")) {
                                if let title = fact.title { el("h2", .class("fact-title")) { title } }
                                if let description = fact.description {
                                    el("p", .class("fact-description")) { description }
                                }
                            }
                        }
                    }
                },
            ])
    }
}

/// An image that loads when it nears the viewport (the script sets `src` from `data-src`), in a
/// box of fixed size so nothing moves when it arrives; a failed one shows a placeholder.
struct LazyImage: Sendable {
    var src: String
    var className: String
    var width: Int
    var height: Int
    var alt = ""

    var node: Node {
        void("img", .class("\(className) lazy"), .data("src", src), .alt(alt), Attribute("width", String(width)),
            Attribute("height", String(height)), Attribute("decoding", "async"))
    }
}
