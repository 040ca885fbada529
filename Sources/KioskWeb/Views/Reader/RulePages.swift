import Foundation
import KioskCore
import KioskModel
import KioskReader
import KioskStore

/// `/reader/rules`: the user's rules in the order they run, each with what it does, how often
/// it matched this week, and its buttons (edit, apply to existing entries, pause, move, delete).
struct RulesPage: Sendable {
    var rules: [Rules.Summary]
    var subscriptions: [Subscription]
    var folders: [String]
    var message: String?
    var undo: (rule: Int64, token: String)?

    var page: Page {
        Page(
            title: "Rules", kind: "reader-rules", tab: .reader, folders: folders,
            content: [
                BackLink(href: ReaderLinks.home, label: "Reader").node,
                ScreenHeader(title: "Rules", trailing: [
                    el("a", .class("button primary"), .href(ReaderLinks.newRule), .id("new-rule")) { "New rule" }
                ]).node,
                el("p", .class("muted")) {
                    "Rules sort new entries the moment they arrive, before any page or app shows them: "
                    "mark read what you never read, star what you must not miss."
                },
                el("p", .class("banner banner-success"), .role("status"), .id("rules-message"), .flag("hidden", message == nil)) {
                    message ?? ""
                    if let undo {
                        el("form", .class("inline-form"), Attribute("method", "post"), Attribute("action", ReaderLinks.undoRule(undo.rule))) {
                            void("input", .type("hidden"), .name("token"), .value(undo.token))
                            " "
                            el("button", .type("submit"), .class("button"), .id("undo-rule")) { "Undo" }
                        }
                    }
                },
                el("p", .class("empty-state"), .flag("hidden", !rules.isEmpty)) {
                    "No rules yet. "
                    el("a", .href(ReaderLinks.newRule)) { "Write one" }
                    ": for example, star every entry with “storm” in its title."
                },
                el("ol", .class("rules"), .id("rules")) {
                    for (index, summary) in rules.enumerated() {
                        row(summary, first: index == 0, last: index == rules.count - 1)
                    }
                },
            ])
    }

    private func row(_ summary: Rules.Summary, first: Bool, last: Bool) -> Node {
        let rule = summary.rule
        let draft = rule.draft
        return el("li", .class("card rule"), .data("rule-id", String(rule.id)), .flag("data-paused", draft.isPaused)) {
            el("h2", .class("rule-name")) {
                draft.name
                if draft.isPaused { el("span", .class("badge paused-badge")) { "Paused" } }
            }
            if draft.name != draft.query, !draft.query.isEmpty { el("p", .class("rule-query")) { el("code") { draft.query } } }
            el("p", .class("muted rule-what")) {
                "\(RuleText.scope(draft.scope, subscriptions: subscriptions)) · \(RuleText.actions(draft))"
            }
            el("p", .class("muted rule-matches"), .data("matches", String(summary.matchedThisWeek))) {
                RuleText.matched(summary.matchedThisWeek)
            }
            if let flag = rule.flag { el("p", .class("banner banner-error rule-flag"), .role("note")) { flag } }
            el("div", .class("rule-buttons")) {
                el("a", .class("button"), .href(ReaderLinks.editRule(rule.id))) { "Edit" }
                el("a", .class("button"), .href(ReaderLinks.applyRule(rule.id))) { "Apply to existing…" }
                button(ReaderLinks.rule(rule.id, "pause"), draft.isPaused ? "Resume" : "Pause", name: "paused",
                    value: draft.isPaused ? "false" : "true")
                if !first { button(ReaderLinks.rule(rule.id, "move"), "Move up", name: "direction", value: "up") }
                if !last { button(ReaderLinks.rule(rule.id, "move"), "Move down", name: "direction", value: "down") }
                button(ReaderLinks.rule(rule.id, "delete"), "Delete", danger: true)
            }
        }
    }

    private func button(_ action: String, _ label: String, name: String? = nil, value: String? = nil, danger: Bool = false)
        -> Node
    {
        el("form", .class("inline-form"), Attribute("method", "post"), Attribute("action", action)) {
            if let name, let value { void("input", .type("hidden"), .name(name), .value(value)) }
            el("button", .type("submit"), .class(danger ? "button danger" : "button")) { label }
        }
    }
}

/// `/reader/rules/new` and `/reader/rules/<id>/edit`: the rule's query, where it looks and
/// what it does, with a preview of the entries it matches now (redrawn as the query is typed).
struct RuleFormPage: Sendable {
    var ruleID: Int64?
    var draft: RuleDraft
    var subscriptions: [Subscription]
    var folders: [String]
    var preview: Rules.Preview?
    var error: String?
    /// The user's labels, offered for "Add the label".
    var knownLabels: [String] = []

    var page: Page {
        let action = ruleID.map(ReaderLinks.editRule) ?? ReaderLinks.rules
        return Page(
            title: ruleID == nil ? "New rule" : "Edit rule", kind: "reader-rule-form", tab: .reader, folders: folders,
            content: [
                BackLink(href: ReaderLinks.rules, label: "Rules").node,
                ScreenHeader(title: ruleID == nil ? "New rule" : "Edit rule").node,
                el("form", .class("card stack-form"), Attribute("method", "post"), Attribute("action", action), .id("rule-form")) {
                    el("label", Attribute("for", "rule-query")) { "Entries matching" }
                    void("input", .type("text"), .id("rule-query"), .name("query"), .value(draft.query),
                        Attribute("maxlength", String(Rules.longestQuery)), Attribute("autocomplete", "off"),
                        Attribute("spellcheck", "false"), Attribute("placeholder", "intitle:storm -sponsored"),
                        .aria("describedby", "rule-query-error rule-query-help"), .aria("invalid", error == nil ? "false" : "true"))
                    el("p", .class("field-error"), .id("rule-query-error"), .role("alert"), .flag("hidden", error == nil)) {
                        error ?? ""
                    }
                    RulePreviewView(preview: preview, subscriptions: subscriptions).count
                    el("p", .class("muted"), .id("rule-query-help")) {
                        "Words, \"phrases\", -excluded, OR, intitle:, author:, inurl:, feed:, folder:, is:unread, "
                        "date:P7D and /regular expressions/, as in search."
                    }
                    el("label", Attribute("for", "rule-scope")) { "In" }
                    el("select", .id("rule-scope"), .name("scope")) { scopeOptions }
                    el("fieldset", .class("check-group")) {
                        el("legend") { "Then" }
                        for action in RuleAction.allCases {
                            el("label", .class("check-row")) {
                                void("input", .type("checkbox"), .name(action.rawValue), .id("rule-action-\(action.rawValue)"),
                                    .flag("checked", draft.actions.contains(action)))
                                action.label
                            }
                        }
                        el("label", Attribute("for", "rule-label")) { "Add the label" }
                        void("input", .type("text"), .id("rule-label"), .name("label"), .value(draft.label ?? ""),
                            Attribute("list", "rule-label-known"), Attribute("maxlength", String(LabelName.maxLength)),
                            Attribute("autocomplete", "off"), Attribute("placeholder", "None"))
                        el("datalist", .id("rule-label-known")) { knownLabels.map { void("option", .value($0)) } }
                    }
                    el("label", Attribute("for", "rule-name")) { "Name" }
                    void("input", .type("text"), .id("rule-name"), .name("name"), .value(draft.name == draft.query ? "" : draft.name),
                        Attribute("maxlength", String(Rules.longestName)), Attribute("placeholder", "The query"))
                    el("label", .class("check-row")) {
                        void("input", .type("checkbox"), .name("paused"), .id("rule-paused"), .flag("checked", draft.isPaused))
                        "Paused"
                    }
                    el("div", .class("rule-buttons")) {
                        el("button", .type("submit"), .class("button primary"), .id("save-rule")) { "Save rule" }
                        // Without the script, the preview is a round trip.
                        el("button", .type("submit"), .class("button"), .id("preview-rule"), Attribute("formmethod", "get"),
                            Attribute("formaction", ruleID.map(ReaderLinks.editRule) ?? ReaderLinks.newRule)) { "Preview" }
                    }
                },
                el("section", .class("rule-preview"), .id("rule-preview"), .aria("label", "Preview")) {
                    RulePreviewView(preview: preview, subscriptions: subscriptions).list
                },
            ])
    }

    private var scopeOptions: [Node] {
        var options = [option("all", "All feeds", draft.scope == .all)]
        for folder in Set(subscriptions.compactMap(\.folder)).sorted() {
            options.append(option("folder:\(folder)", "Folder: \(folder)", draft.scope == .folder(folder)))
        }
        for feed in subscriptions.sorted(by: { $0.displayName.localizedStandardCompare($1.displayName) == .orderedAscending }) {
            options.append(option("feed:\(feed.id.rawValue)", "Feed: \(feed.displayName)", draft.scope == .feed(feed.id)))
        }
        return options
    }

    private func option(_ value: String, _ label: String, _ selected: Bool) -> Node {
        el("option", .value(value), .flag("selected", selected)) { label }
    }
}

/// What a rule would match now: "Matches 37 of your 4,210 entries" (under the query, so it is
/// seen while typing) and the newest 20 (under the form).
struct RulePreviewView: Sendable {
    var preview: Rules.Preview?
    var subscriptions: [Subscription]

    var count: Node {
        guard let preview else {
            return el("p", .class("muted rule-count"), .id("rule-count"), .aria("live", "polite")) {
                "Type a query to see the entries it matches."
            }
        }
        return el("p", .class("rule-count"), .id("rule-count"), .aria("live", "polite"),
            .data("count", String(preview.matches.count))) { RuleText.previewCount(preview) }
    }

    var list: Node {
        let names = Dictionary(subscriptions.map { ($0.id, $0.displayName) }, uniquingKeysWith: { first, _ in first })
        return el("ul", .class("rule-matches-list"), .id("rule-matches"), .aria("label", "Entries the rule matches now")) {
            for stored in preview?.newest ?? [] {
                el("li") {
                    el("a", .href(ReaderLinks.entry(stored.source, key: stored.key))) { stored.entry.title ?? "Untitled" }
                    el("span", .class("muted")) {
                        " \(names[stored.source] ?? stored.source.rawValue) · "
                        DateText.node(stored.sortDate)
                    }
                }
            }
        }
    }
}

/// `/reader/rules/<id>/apply`: the question before a rule changes entries already there.
struct ApplyRulePage: Sendable {
    var rule: Rule
    var application: Rules.Application
    var folders: [String]

    var page: Page {
        let changes = !application.read.isEmpty || !application.starred.isEmpty
        return Page(
            title: "Apply \(rule.draft.name)", kind: "reader-rule-apply", tab: .reader, folders: folders,
            content: [
                BackLink(href: ReaderLinks.rules, label: "Rules").node,
                el("section", .class("message")) {
                    el("h1", .id("apply-question")) { application.question }
                    el("p", .class("muted")) {
                        "The rule “\(rule.draft.name)” matches \(RuleText.count(application.matched, capped: application.isCapped)) of your entries now. You can undo this."
                    }
                    if changes {
                        el("form", Attribute("method", "post"), Attribute("action", ReaderLinks.applyRule(rule.id))) {
                            el("button", .type("submit"), .class("button primary"), .id("confirm-apply")) { "Apply" }
                            " "
                            el("a", .class("button"), .href(ReaderLinks.rules)) { "Cancel" }
                        }
                    } else {
                        el("a", .class("button"), .href(ReaderLinks.rules)) { "Back to rules" }
                    }
                }
            ])
    }
}

/// The sentences the rule pages share.
enum RuleText {
    static func scope(_ scope: RuleScope, subscriptions: [Subscription]) -> String {
        switch scope {
        case .all: "All feeds"
        case .folder(let name): "Folder: \(name)"
        case .feed(let id): "Feed: \(subscriptions.first { $0.id == id }?.displayName ?? id.rawValue)"
        }
    }

    static func actions(_ draft: RuleDraft) -> String {
        (draft.actions.sorted().map(\.label) + (draft.label.map { ["Label “\($0)”"] } ?? [])).joined(separator: ", ")
    }

    static func matched(_ count: Int) -> String {
        switch count {
        case 0: "No matches in the last 7 days"
        case 1: "Matched 1 entry in the last 7 days"
        default: "Matched \(NumberText.grouped(count)) entries in the last 7 days"
        }
    }

    static func count(_ number: Int, capped: Bool) -> String {
        capped ? "at least \(NumberText.grouped(number))" : NumberText.grouped(number)
    }

    static func previewCount(_ preview: Rules.Preview) -> String {
        let total = "\(NumberText.grouped(preview.total)) \(preview.total == 1 ? "entry" : "entries")"
        if preview.matches.isEmpty { return "Matches none of your \(total) now." }
        let shown = preview.matches.count > Rules.previewed ? ", the newest \(Rules.previewed) below" : ""
        return "Matches \(count(preview.matches.count, capped: preview.isCapped)) of your \(total)\(shown)."
    }
}
