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
    /// Why the webhook typed was not added, and what was typed.
    var webhookError: String?
    var webhookURL = ""
    /// Demo mode: its own push service can be tried with no network.
    var isDemo = false
    /// What each of the demo push service's devices received, newest first.
    var inboxes: [Int64: [DemoPush.Received]] = [:]

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
                isDemo ? demoCard : Node.group([]),
                el("h2", .class("section-title")) { "Devices" },
                el("p", .class("empty-state"), .id("devices-empty"), .flag("hidden", !devices.isEmpty)) {
                    "No device yet."
                },
                el("ul", .class("devices"), .id("devices")) { devices.map(row) },
                el("h2", .class("section-title")) { "Webhook" },
                el("form", .class("card stack-form"), Attribute("method", "post"), Attribute("action", ReaderLinks.webhooks),
                    .id("webhook-form")) {
                    el("p", .class("muted")) {
                        "For ntfy, Apprise, Home Assistant or a script of yours: the same notifications, POSTed as JSON "
                        "(title, body and the entries), signed with HMAC-SHA256 in the "
                        el("code") { "X-Kiosk-Signature" }
                        " header."
                    }
                    el("label", Attribute("for", "webhook-url")) { "Address" }
                    void("input", .type("text"), .id("webhook-url"), .name("url"), .value(webhookURL),
                        Attribute("placeholder", "https://ntfy.example.org/kiosk"), Attribute("inputmode", "url"),
                        Attribute("autocapitalize", "off"), Attribute("spellcheck", "false"), Attribute("maxlength", "2048"),
                        .aria("describedby", "webhook-error"), .flag("required"))
                    el("p", .id("webhook-error"), .class("field-error"), .role("alert"), .flag("hidden", webhookError == nil)) {
                        webhookError ?? ""
                    }
                    el("button", .type("submit"), .class("button"), .id("add-webhook")) { "Add the webhook" }
                },
            ])
    }

    private var demoCard: Node {
        el("section", .class("card notify-card"), .id("demo-push")) {
            el("p") {
                "Demo mode: a browser's push service needs the network, so a push service on this machine "
                "stands in for one. Its demo device opens each notification with its own key, as a phone "
                "would, and lists it here."
            }
            el("form", .class("inline-form"), Attribute("method", "post"), Attribute("action", ReaderLinks.demoDevice)) {
                el("button", .type("submit"), .class("button"), .id("add-demo-device")) { "Add the demo device" }
            }
        }
    }

    private func row(_ device: PushDevice) -> Node {
        el("li", .class("card device"), .data("device-id", String(device.id))) {
            el("h3", .class("device-name")) { device.name }
            if device.kind == .webhook {
                el("p", .class("muted device-url")) { device.endpoint }
                el("details", .class("webhook-secret")) {
                    el("summary") { "Signing secret" }
                    el("code", .data("secret", String(device.id))) { device.auth }
                }
            }
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
            if let inbox = inboxes[device.id] {
                el("h4", .class("device-inbox-title")) { "Received" }
                if inbox.isEmpty {
                    el("p", .class("muted")) { "Nothing yet." }
                } else {
                    el("ul", .class("device-inbox"), .data("inbox", String(device.id))) {
                        inbox.prefix(5).map { received in
                            el("li") {
                                el("strong") { received.title }
                                " "
                                el("span", .class("muted")) { received.body }
                                " · "
                                DateText.node(received.receivedAt)
                            }
                        }
                    }
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
