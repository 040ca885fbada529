import Foundation
import KioskStore

/// `/reader/notifications`: "Notify me on this device" and the devices notified, each with
/// Test and Remove.
struct NotificationsPage: Sendable {
    var devices: [PushDevice]
    /// The server's VAPID public key, for the browser's `applicationServerKey`.
    var publicKey: String
    var message: String?
    var folders: [String]

    var page: Page {
        Page(
            title: "Notifications", kind: "reader-notifications", tab: .reader, folders: folders,
            content: [
                BackLink(href: ReaderLinks.home, label: "Reader").node,
                ScreenHeader(title: "Notifications").node,
                el("p", .class("banner banner-success"), .id("notify-message"), .role("status"), .flag("hidden", message == nil)) {
                    message ?? ""
                },
                el("section", .class("card notify-card")) {
                    el("p") {
                        "Kiosk can tell this phone, tablet or computer when a rule asks it to, with no service "
                        "of anyone else's in between: the notification is encrypted for this device alone."
                    }
                    el("button", .type("button"), .class("button primary"), .id("notify-me"), .data("key", publicKey),
                        .flag("hidden")) { "Notify me on this device" }
                    el("p", .class("muted"), .id("notify-status"), .role("status"), .flag("hidden")) {}
                },
                el("h2", .class("section-title")) { "Devices" },
                el("p", .class("empty-state"), .id("devices-empty"), .flag("hidden", !devices.isEmpty)) {
                    "No device yet."
                },
                el("ul", .class("devices"), .id("devices")) { devices.map(row) },
            ])
    }

    private func row(_ device: PushDevice) -> Node {
        el("li", .class("card device"), .data("device-id", String(device.id))) {
            el("h3", .class("device-name")) { device.name }
            el("p", .class("muted device-state")) {
                if let error = device.lastError {
                    el("span", .class("field-error")) { error }
                } else if let sent = device.lastSentAt {
                    "Last notified "
                    DateText.node(sent)
                } else {
                    "Added "
                    DateText.node(device.createdAt)
                }
            }
            el("div", .class("rule-buttons")) {
                el("form", .class("inline-form"), Attribute("method", "post"),
                    Attribute("action", ReaderLinks.notificationDevice(device.id, "test"))) {
                    el("button", .type("submit"), .class("button"), .data("test-device", String(device.id))) { "Test" }
                }
                el("form", .class("inline-form"), Attribute("method", "post"),
                    Attribute("action", ReaderLinks.notificationDevice(device.id, "delete"))) {
                    el("button", .type("submit"), .class("button"), .data("remove-device", String(device.id))) { "Remove" }
                }
            }
        }
    }
}
