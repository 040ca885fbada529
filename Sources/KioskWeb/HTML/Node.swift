import KioskCore
import KioskHTML

/// A piece of an HTML document. Text and attribute values are escaped when rendered; the only
/// way to insert markup as is goes through ``SanitizedHTML``, which only the sanitizer makes.
public enum Node: Sendable {
    /// An element. Its name and attribute names come from Kiosk's own code, never from a source.
    case element(name: String, attributes: [Attribute], children: [Node])
    /// A void element (`img`, `input`, `meta`...): no children, no end tag.
    case void(name: String, attributes: [Attribute])
    /// Text, escaped on output.
    case text(String)
    /// Markup already made safe by the allow-list sanitizer.
    case sanitized(SanitizedHTML)
    /// Nodes rendered earlier (and escaped then), kept to be inserted again without redoing the work.
    case rendered(RenderedHTML)
    /// Several nodes side by side.
    case group([Node])
}

/// An attribute; a nil value writes a boolean attribute (`hidden`, `disabled`).
public struct Attribute: Sendable, Hashable {
    public var name: String
    public var value: String?

    public init(_ name: String, _ value: String?) {
        self.name = name
        self.value = value
    }
}

/// HTML that went through ``HTMLSanitizer``: the one kind of markup a page inserts as is.
public struct SanitizedHTML: Sendable, Hashable {
    public let markup: String

    /// Sanitizes `html` (from a source) with `sanitizer`.
    public init(_ html: String, sanitizer: HTMLSanitizer) {
        markup = sanitizer.sanitize(html)
    }
}

/// The output of rendering nodes, kept as text: a live list rendered once for the event stream is
/// inserted as is into the pages drawn until it changes. Only ``Node`` rendering makes one.
public struct RenderedHTML: Sendable, Hashable {
    public let markup: String

    /// Renders `nodes` (escaping as always).
    public init(_ nodes: [Node]) {
        markup = nodes.render()
    }

    /// `parts` side by side (each rendered already).
    public init(joining parts: [RenderedHTML]) {
        markup = parts.map(\.markup).joined()
    }
}
