/// `/login`: a name and a password. The error says what went wrong without telling which of
/// the two was wrong.
struct SignInPage: Sendable {
    var name = ""
    /// Where to go once signed in (a path of this Kiosk).
    var next = "/"
    var error: String?

    var page: Page {
        Page(
            title: "Sign in", kind: "login", tab: nil, hidesTabBarOnPhones: true,
            content: [
                el("section", .class("card stack-form sign-in")) {
                    el("h1") { "Sign in to Kiosk" }
                    ErrorBanner(id: "login-error", message: error).node
                    el("form", .id("login-form"), Attribute("method", "post"), Attribute("action", "/login")) {
                        void("input", .type("hidden"), .name("next"), Attribute("value", next))
                        el("label", Attribute("for", "login-name")) { "Name" }
                        void("input", .id("login-name"), .name("name"), .type("text"), Attribute("value", name),
                            Attribute("autocomplete", "username"), Attribute("autocapitalize", "none"),
                            Attribute("spellcheck", "false"), .flag("required"), .flag("autofocus", name.isEmpty))
                        el("label", Attribute("for", "login-password")) { "Password" }
                        void("input", .id("login-password"), .name("password"), .type("password"),
                            Attribute("autocomplete", "current-password"), .flag("required"), .flag("autofocus", !name.isEmpty))
                        el("button", .type("submit"), .class("button primary"), .id("login-submit")) { "Sign in" }
                    }
                }
            ])
    }
}
