import KioskStore

/// An entry's labels as links to their lists (`removable`: each with a button taking it off,
/// on the entry's page). The script keeps them current (`data-labels-for`).
struct LabelChips: Sendable {
    var id: Int64
    var labels: [String]
    var removable: Bool

    var node: Node {
        el("ul", .class("label-chips"), .data("labels-for", String(id)), .flag("data-removable", removable),
            .aria("label", "Labels"), .flag("hidden", labels.isEmpty)) {
            labels.map { label in
                el("li", .class("label-chip"), .data("label", label)) {
                    el("a", .href(ReaderLinks.label(label))) { label }
                    if removable {
                        el("form", .class("inline-form"), Attribute("method", "post"), Attribute("action", ReaderLinks.setLabel)) {
                            void("input", .type("hidden"), .name("ids"), .value(String(id)))
                            void("input", .type("hidden"), .name("label"), .value(label))
                            void("input", .type("hidden"), .name("on"), .value("false"))
                            el("button", .type("submit"), .class("label-remove"), .data("label-remove", label),
                                .aria("label", "Remove the label \(label)"), .title("Remove")) { "×" }
                        }
                    }
                }
            }
        }
    }
}

/// "Add a label": a field offering the user's labels, for one entry (`ids`, on its page) or the
/// focused row of a list (the script fills `ids` when `l` opens the dialog).
struct LabelForm: Sendable {
    var ids: String
    var known: [String]
    var formID: String
    var back: String

    var node: Node {
        el("form", .class("label-form"), .id(formID), Attribute("method", "post"), Attribute("action", ReaderLinks.setLabel)) {
            void("input", .type("hidden"), .name("ids"), .value(ids))
            void("input", .type("hidden"), .name("on"), .value("true"))
            void("input", .type("hidden"), .name("back"), .value(back))
            el("label", Attribute("for", formID + "-name"), .class("visually-hidden")) { "Add a label" }
            void("input", .type("text"), .name("label"), .id(formID + "-name"), Attribute("list", formID + "-known"),
                Attribute("maxlength", String(LabelName.maxLength)), Attribute("autocomplete", "off"),
                Attribute("placeholder", "Add a label (l)"), .flag("required"))
            el("datalist", .id(formID + "-known")) { known.map { void("option", .value($0)) } }
            el("button", .type("submit"), .class("button")) { "Add" }
        }
    }
}

/// The dialog `l` opens on a list: a label for the focused row.
struct LabelDialog: Sendable {
    var known: [String]
    var back: String

    var node: Node {
        el("dialog", .id("label-dialog"), .class("card label-dialog"), .aria("labelledby", "label-dialog-title")) {
            el("h2", .id("label-dialog-title")) { "Add a label" }
            LabelForm(ids: "", known: known, formID: "label-dialog-form", back: back).node
            el("form", Attribute("method", "dialog")) {
                el("button", .class("link-button"), .id("label-dialog-close")) { "Cancel" }
            }
        }
    }
}
