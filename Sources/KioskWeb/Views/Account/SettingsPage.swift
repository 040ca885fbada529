import Foundation
import KioskStore

/// `/settings`: who is signed in, the name Home greets, app passwords for sync clients (create,
/// shown once; revoke), the address to give those clients, and signing out.
struct SettingsPage: Sendable {
    var account: Account?
    var appPasswords: [AppPassword] = []
    /// The server's own address as the browser reached it, for the sync instructions.
    var origin: String
    /// An app password just made: its secret, shown this once.
    var created: (name: String, secret: String)?
    var message: String?
    var error: String?
    /// The server's "Load media through Kiosk" for accounts that have not chosen; nil when there
    /// is no media proxy.
    var mediaThroughKiosk: Bool?

    var page: Page {
        Page(
            title: "Settings", kind: "settings", tab: .home,
            content: [
                BackLink(href: "/", label: "Home").node,
                ScreenHeader(title: "Settings").node,
                ErrorBanner(id: "settings-error", message: error).node,
                // A new app password first, where the eye is when the page comes back (on a
                // phone the app passwords' card is below the fold).
                created.map { created in
                    el("div", .class("banner new-secret"), .id("new-secret"), .role("status")) {
                        el("p") { "The password for \(created.name), shown only now:" }
                        el("p") { el("code", .id("new-app-password")) { created.secret } }
                    }
                } ?? Node.group([]),
                el("p", .id("settings-message"), .class("banner"), .role("status"), .flag("hidden", message == nil)) {
                    message ?? ""
                },
                account.map(accountSections) ?? ownerSection,
                notificationsSection,
                offlineSection,
            ])
    }

    /// Where "Notify me on this device" and the devices notified are.
    private var notificationsSection: Node {
        el("section", .class("card"), .id("notification-settings")) {
            el("h2") { "Notifications" }
            el("p", .class("muted")) {
                "Your rules can notify this phone, tablet or computer when something you care about arrives."
            }
            el("a", .class("button"), .href(ReaderLinks.notifications), .id("notifications-settings-link")) {
                "Notify me on this device…"
            }
        }
    }

    /// How many unread entries this device keeps for reading offline: a choice of the device
    /// (its storage), kept by the script in the browser.
    private var offlineSection: Node {
        el("section", .class("card stack-form"), .id("offline-settings")) {
            el("h2") { "Offline reading" }
            el("p", .class("muted")) {
                "The installed app keeps the newest unread entries of your reader on this device, with their articles and images, so they open without a network. Read and star changes made offline are sent when it is back."
            }
            el("label", Attribute("for", "offline-limit")) { "Entries kept on this device" }
            el("select", .id("offline-limit"), .name("limit")) {
                for count in OfflineBundle.limits {
                    el("option", .value(String(count)), .flag("selected", count == OfflineBundle.defaultLimit)) { String(count) }
                }
            }
            el("p", .id("offline-saved"), .class("muted"), .role("status"), .flag("hidden")) {}
            // Episodes saved with the player's "Save for offline": player.js keeps them under
            // this limit and says what they use.
            el("label", Attribute("for", "media-limit")) { "Space for saved episodes" }
            el("select", .id("media-limit"), .name("mediaLimit")) {
                for megabytes in Self.mediaLimits {
                    el("option", .value(String(megabytes)), .flag("selected", megabytes == Self.defaultMediaLimit)) {
                        megabytes >= 1_000 ? "\(megabytes / 1_000) GB" : "\(megabytes) MB"
                    }
                }
            }
            el("p", .id("media-used"), .class("muted"), .role("status"), .flag("hidden")) {}
        }
    }

    /// "Load media through Kiosk": where this account's episodes are played from.
    private func mediaForm(_ account: Account) -> Node {
        guard let serverDefault = mediaThroughKiosk else { return .group([]) }
        return el("form", .id("media-form"), .class("stack-form"), Attribute("method", "post"), Attribute("action", "/settings/media")) {
                el("label", .class("check-row"), Attribute("for", "media-through-kiosk")) {
                    void("input", .type("checkbox"), .id("media-through-kiosk"), .name("through"),
                        .flag("checked", account.mediaThroughKiosk ?? serverDefault))
                    "Load media through Kiosk"
                }
                el("p", .class("muted")) {
                    "Episodes then play through this server, so their publishers do not see your address; otherwise they play straight from the publisher, as podcast apps do."
                }
                el("button", .type("submit"), .class("button"), .id("media-save")) { "Save" }
            }
    }

    /// The choices of space for saved episodes, in MB (player.js reads the same default).
    static let mediaLimits = [100, 250, 500, 1_000, 2_000, 5_000]
    static let defaultMediaLimit = 500

    private var ownerSection: Node {
        el("section", .class("card")) {
            el("h2") { "No accounts yet" }
            el("p") {
                "Kiosk serves you alone, on this machine. To sign in from other devices or sync with NetNewsWire, Reeder or newsboat, add an account on the server:"
            }
            el("pre", .class("command")) { "printf '%s\\n' 'PASSWORD' | kiosk user add NAME --password-stdin --admin" }
        }
    }

    private func accountSections(_ account: Account) -> Node {
        .group([
            el("section", .class("card stack-form")) {
                el("h2") { "Account" }
                el("p") { "Signed in as "; el("strong", .id("settings-account")) { account.name } }
                el("form", .id("home-name-form"), Attribute("method", "post"), Attribute("action", "/settings/home-name")) {
                    el("label", Attribute("for", "home-name")) { "Name shown on Home" }
                    void("input", .id("home-name"), .name("name"), .type("text"), Attribute("maxlength", "100"),
                        Attribute("value", account.homeName ?? ""), Attribute("placeholder", account.name))
                    el("button", .type("submit"), .class("button")) { "Save" }
                }
                mediaForm(account)
                el("form", .id("logout-form"), Attribute("method", "post"), Attribute("action", "/logout")) {
                    el("button", .type("submit"), .class("button"), .id("logout")) { "Sign out" }
                }
            },
            el("section", .class("card stack-form"), .id("app-passwords")) {
                el("h2") { "App passwords" }
                el("p", .class("muted")) {
                    "Give each app its own password, so you can revoke one device without changing your password. Sign in with your name and the app password, at:"
                }
                el("dl", .class("sync-addresses")) {
                    el("dt") { "Google Reader API (NetNewsWire: FreshRSS; Reeder, ReadYou: Google Reader or FreshRSS; newsboat)" }
                    el("dd") { el("code", .id("greader-url")) { origin + "/api/greader" } }
                    el("dt") { "Fever (Reeder, Unread; app passwords only)" }
                    el("dd") { el("code", .id("fever-url")) { origin + "/api/fever" } }
                }
                if appPasswords.isEmpty {
                    el("p", .class("muted"), .id("no-app-passwords")) { "No app passwords yet." }
                } else {
                    el("ul", .class("app-password-list")) {
                        appPasswords.map { password in
                            el("li", .data("app-password", String(password.id))) {
                                el("span", .class("app-password-name")) { password.name }
                                el("span", .class("muted")) {
                                    password.lastUsedAt.map { "last used \(DateText.fallback($0, style: .date))" } ?? "never used"
                                }
                                el("form", .class("inline-form"), Attribute("method", "post"),
                                    Attribute("action", "/settings/app-passwords/\(password.id)/revoke")) {
                                    el("button", .type("submit"), .class("button"),
                                        .aria("label", "Revoke \(password.name)")) { "Revoke" }
                                }
                            }
                        }
                    }
                }
                el("form", .id("app-password-form"), Attribute("method", "post"), Attribute("action", "/settings/app-passwords")) {
                    el("label", Attribute("for", "app-password-name")) { "Device" }
                    void("input", .id("app-password-name"), .name("name"), .type("text"), Attribute("maxlength", "100"),
                        Attribute("placeholder", "iPhone"), .flag("required"))
                    el("button", .type("submit"), .class("button primary")) { "Create app password" }
                }
            },
        ])
    }
}
