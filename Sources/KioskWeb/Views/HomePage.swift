import Foundation
import KioskStore

/// `/`: the owner's name, a clock ticking every second, and the last headline opened anywhere.
struct HomePage: Sendable {
    var ownerName: String
    var lastOpened: OpenedHeadline?
    var now: Date
    var sequence: UInt64
    /// Who is signed in (nil: the local owner): Home names them beside the settings link.
    var signedInAs: String? = nil

    var page: Page {
        Page(
            title: "Kiosk", kind: "home", tab: .home, sequence: sequence,
            content: [
                el("section", .class("home")) {
                    el("p", .class("eyebrow")) { "Welcome" }
                    el("h1", .id("owner-name")) { ownerName }
                    el("p", .class("clock")) {
                        el("time", .id("clock"), Attribute("datetime", DateText.iso(now)), .aria("live", "off")) {
                            DateText.fallback(now, style: .dateTime)
                        }
                    }
                    el("section", .class("card last-opened"), .aria("labelledby", "last-opened-label")) {
                        el("h2", .id("last-opened-label"), .class("card-label")) { "Last headline opened" }
                        el("a", .id("last-opened"), .href(lastOpened?.path ?? "/news"), .aria("live", "polite"),
                            .flag("hidden", lastOpened == nil)) {
                            lastOpened?.title ?? ""
                        }
                        el("p", .class("muted last-opened-hint"), .flag("hidden", lastOpened != nil)) {
                            "Open a headline in News or Discover and it shows here."
                        }
                    }
                    el("p", .class("home-links muted")) {
                        if let signedInAs { "Signed in as \(signedInAs) · " }
                        el("a", .href("/settings"), .id("settings-link")) { signedInAs == nil ? "Settings and sync" : "Settings" }
                    }
                }
            ])
    }
}
