/// `/jokes`: a button, a spinner shown only while fetching, and the joke (empty at first).
struct JokesPage: Sendable {
    var page: Page {
        Page(
            title: "Jokes", kind: "jokes", tab: .jokes,
            content: [
                ScreenHeader(title: "Jokes").node,
                el("section", .class("jokes card")) {
                    el("p", .id("joke-text"), .class("joke-text"), .aria("live", "polite")) { "" }
                    el("div", .id("joke-spinner"), .class("spinner large"), .role("status"), .aria("label", "Fetching a joke"),
                        .flag("hidden"))
                    ErrorBanner(id: "joke-error", message: nil).node
                    el("button", .id("joke-button"), .type("button"), .class("button primary")) { "Tell me a joke" }
                },
            ])
    }
}
