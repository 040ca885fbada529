import KioskCore

extension Node {
    /// The node as HTML, every text and attribute value escaped.
    public func render() -> String {
        var out = ""
        out.reserveCapacity(4096)
        write(to: &out)
        return out
    }

    /// Writes the node's HTML onto `out`.
    public func write(to out: inout String) {
        switch self {
        case .element(let name, let attributes, let children):
            open(name, attributes, into: &out)
            for child in children { child.write(to: &out) }
            out += "</\(name)>"
        case .void(let name, let attributes):
            open(name, attributes, into: &out)
        case .text(let text):
            out += HTMLEscaping.escape(text)
        case .sanitized(let html):
            out += html.markup
        case .rendered(let html):
            out += html.markup
        case .group(let nodes):
            for node in nodes { node.write(to: &out) }
        }
    }

    private func open(_ name: String, _ attributes: [Attribute], into out: inout String) {
        out += "<\(name)"
        for attribute in attributes {
            out += " \(attribute.name)"
            if let value = attribute.value {
                out += "=\"\(HTMLEscaping.escape(value))\""
            }
        }
        out += ">"
    }
}

extension Array where Element == Node {
    /// The nodes' HTML, one after the other.
    public func render() -> String { Node.group(self).render() }
}
