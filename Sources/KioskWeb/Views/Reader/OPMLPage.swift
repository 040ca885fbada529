import KioskCore
import KioskReader

/// `/reader/opml`: import an OPML file (the script sends it), export every subscription.
struct OPMLPage: Sendable {
    var folders: [String]
    var report: ImportReport?
    var error: String?
    /// What importing a rules file did, or why it could not.
    var rulesReport: Rules.ImportReport?
    var rulesError: String?

    var page: Page {
        Page(
            title: "Import and export", kind: "reader-opml", tab: .reader, folders: folders,
            content: [
                BackLink(href: ReaderLinks.home, label: "Reader").node,
                ScreenHeader(title: "Import and export").node,
                el("section", .class("card stack-form")) {
                    el("h2") { "Import" }
                    el("p", .class("muted")) {
                        "An OPML file from another reader (NetNewsWire, Feedly, Inoreader, Miniflux, FreshRSS…). Folders come along; feeds you already follow are skipped."
                    }
                    el("form", .id("import-form"), Attribute("method", "post"), Attribute("action", "/reader/import"),
                        Attribute("enctype", "multipart/form-data")) {
                        el("label", Attribute("for", "opml-file")) { "OPML file" }
                        void("input", .type("file"), .id("opml-file"), .name("file"),
                            Attribute("accept", ".opml,.xml,text/x-opml,text/xml,application/xml"), .flag("required"))
                        el("button", .type("submit"), .class("button primary"), .id("import-opml")) { "Import" }
                    }
                },
                ErrorBanner(id: "import-error", message: error).node,
                el("div", .id("import-report"), .aria("live", "polite")) { report.map { ImportReportView(report: $0).node } ?? Node.group([]) },
                el("section", .class("card stack-form")) {
                    el("h2") { "Export" }
                    el("p", .class("muted")) { "Every subscription, with its folder, as OPML." }
                    el("a", .class("button"), .href(ReaderLinks.export), .id("export-opml"), Attribute("download", "kiosk-subscriptions.opml")) {
                        "Download OPML"
                    }
                },
                el("section", .class("card stack-form"), .id("rules-file")) {
                    el("h2") { "Rules" }
                    el("p", .class("muted")) {
                        "Your rules as a JSON file, to bring to another Kiosk with the OPML (import the OPML first: a rule of one feed finds it by its address)."
                    }
                    el("a", .class("button"), .href(ReaderLinks.rulesFile), .id("export-rules"), Attribute("download", "kiosk-rules.json")) {
                        "Download rules"
                    }
                    el("form", .id("import-rules-form"), Attribute("method", "post"), Attribute("action", ReaderLinks.importRules),
                        Attribute("enctype", "multipart/form-data")) {
                        el("label", Attribute("for", "rules-file-input")) { "Rules file" }
                        void("input", .type("file"), .id("rules-file-input"), .name("file"), Attribute("accept", ".json,application/json"),
                            .flag("required"))
                        el("button", .type("submit"), .class("button"), .id("import-rules")) { "Import rules" }
                    }
                    ErrorBanner(id: "import-rules-error", message: rulesError).node
                    if let rulesReport {
                        el("p", .role("status"), .id("import-rules-summary")) {
                            "\(rulesReport.added) \(rulesReport.added == 1 ? "rule" : "rules") added, \(rulesReport.refused.count) not."
                        }
                        if !rulesReport.refused.isEmpty {
                            el("ul", .class("report-list"), .data("report", "rules-refused")) {
                                rulesReport.refused.map { item in el("li") { "\(item.name): \(item.why)" } }
                            }
                        }
                    }
                },
            ])
    }
}

/// What an import did: added, skipped and failed, each listed.
struct ImportReportView: Sendable {
    var report: ImportReport

    var node: Node {
        el("section", .class("card import-report"), .aria("label", "Import report")) {
            el("h2") { "Imported" }
            el("p", .id("import-summary")) {
                "\(report.added.count) added, \(report.skipped.count) skipped, \(report.failed.count) failed."
            }
            if !report.added.isEmpty {
                el("details", .flag("open", report.added.count <= 20)) {
                    el("summary") { "Added" }
                    el("ul", .class("report-list"), .data("report", "added")) {
                        report.added.map { subscription in
                            el("li") {
                                el("a", .href(ReaderLinks.feed(subscription.id))) { subscription.displayName }
                                if let folder = subscription.folder { el("span", .class("muted")) { " in \(folder)" } }
                            }
                        }
                    }
                }
            }
            if !report.skipped.isEmpty {
                el("details") {
                    el("summary") { "Skipped (already followed, or listed twice)" }
                    el("ul", .class("report-list"), .data("report", "skipped")) {
                        report.skipped.map { item in el("li") { item.title ?? item.feedURL } }
                    }
                }
            }
            if !report.failed.isEmpty {
                el("details", .flag("open")) {
                    el("summary") { "Failed" }
                    el("ul", .class("report-list"), .data("report", "failed")) {
                        report.failed.map { item, why in el("li") { "\(item.title ?? item.feedURL): \(why)" } }
                    }
                }
            }
            el("a", .class("button"), .href(ReaderLinks.home)) { "Go to the reader" }
        }
    }
}
