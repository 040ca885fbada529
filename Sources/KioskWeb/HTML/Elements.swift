/// Builds an element: `el("p", .class("lead")) { "Hello" }`.
public func el(_ name: String, _ attributes: Attribute?..., @HTMLBuilder children: () -> [Node] = { [] }) -> Node {
    .element(name: name, attributes: attributes.compactMap { $0 }, children: children())
}

/// Builds a void element: `void("img", .src(url), .alt(""))`.
public func void(_ name: String, _ attributes: Attribute?...) -> Node {
    .void(name: name, attributes: attributes.compactMap { $0 })
}

extension Attribute {
    public static func `class`(_ value: String) -> Attribute { Attribute("class", value) }
    public static func id(_ value: String) -> Attribute { Attribute("id", value) }
    public static func href(_ value: String) -> Attribute { Attribute("href", value) }
    public static func src(_ value: String) -> Attribute { Attribute("src", value) }
    public static func alt(_ value: String) -> Attribute { Attribute("alt", value) }
    public static func type(_ value: String) -> Attribute { Attribute("type", value) }
    public static func name(_ value: String) -> Attribute { Attribute("name", value) }
    public static func value(_ value: String) -> Attribute { Attribute("value", value) }
    public static func role(_ value: String) -> Attribute { Attribute("role", value) }
    public static func rel(_ value: String) -> Attribute { Attribute("rel", value) }
    public static func title(_ value: String) -> Attribute { Attribute("title", value) }
    /// `data-<name>`.
    public static func data(_ name: String, _ value: String) -> Attribute { Attribute("data-\(name)", value) }
    /// `aria-<name>`.
    public static func aria(_ name: String, _ value: String) -> Attribute { Attribute("aria-\(name)", value) }
    /// A boolean attribute, present when `on`.
    public static func flag(_ name: String, _ on: Bool = true) -> Attribute? { on ? Attribute(name, nil) : nil }
}
