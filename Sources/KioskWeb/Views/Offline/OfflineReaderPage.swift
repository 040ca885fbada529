/// `/offline/reader`: the reader without a network. The same for everyone and holding nothing of
/// anyone (the service worker keeps it with the app's shell); `offline.js` fills it from the
/// entries the device saved (``OfflineBundle``), and queues read and star changes until the
/// network is back.
struct OfflineReaderPage: Sendable {
    var page: Page {
        Page(
            title: "Reader (offline)", kind: "reader-offline", tab: .reader,
            content: [
                ScreenHeader(title: "Saved for offline", titleID: "offline-title").node,
                el("p", .id("offline-status"), .class("banner"), .role("status")) {
                    "Kiosk cannot reach its server. Looking for the articles saved on this device…"
                },
                el("ul", .id("offline-list"), .class("entries reader-entries"), .aria("label", "Saved for offline")) {},
                el("article", .id("offline-entry"), .class("detail reader-detail"), Attribute("hidden", "")) {},
                el("noscript") { el("p") { "Reading offline needs JavaScript." } }
            ])
    }
}
