/// What a browser sees of a Kiosk without accounts until its owner opens the link printed at
/// start: where to find it, and nothing of the owner's reader.
struct OwnerLinkPage: Sendable {
    var page: Page {
        Page(
            title: "Open Kiosk", kind: "owner-link", tab: nil, hidesTabBarOnPhones: true,
            content: [
                el("section", .class("card stack-form sign-in"), .id("owner-link")) {
                    el("h1") { "This Kiosk is its owner's" }
                    el("p") {
                        "To open it in this browser, use the link Kiosk printed when it started (the line that says "
                        el("code") { "open" }
                        ")."
                    }
                    el("p") {
                        "To let others in, give each an account: "
                        el("code") { "kiosk user add NAME --password-stdin" }
                        "."
                    }
                }
            ])
    }
}
