/// A page that only says something: not found, offline, a failure.
struct MessagePage: Sendable {
    var kind: String
    var title: String
    var message: String
    var tab: Screen?

    var page: Page {
        Page(
            title: title, kind: kind, tab: tab,
            content: [
                el("section", .class("message")) {
                    el("h1") { title }
                    el("p") { message }
                    el("a", .class("button"), .href("/")) { "Go to Home" }
                }
            ])
    }

    static let notFound = MessagePage(kind: "not-found", title: "Not found", message: "There is nothing at this address.")

    static let offline = MessagePage(
        kind: "offline", title: "You are offline",
        message: "Kiosk cannot reach its server right now. Pages you opened before still work; this one will load when you are back online.")
}
