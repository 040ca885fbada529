/// Lets views write markup as nested blocks, with `if`, `for` and plain strings (as text).
@resultBuilder
public enum HTMLBuilder {
    public static func buildBlock(_ parts: [Node]...) -> [Node] { parts.flatMap { $0 } }
    public static func buildExpression(_ node: Node) -> [Node] { [node] }
    public static func buildExpression(_ nodes: [Node]) -> [Node] { nodes }
    public static func buildExpression(_ text: String) -> [Node] { [.text(text)] }
    public static func buildOptional(_ nodes: [Node]?) -> [Node] { nodes ?? [] }
    public static func buildEither(first nodes: [Node]) -> [Node] { nodes }
    public static func buildEither(second nodes: [Node]) -> [Node] { nodes }
    public static func buildArray(_ parts: [[Node]]) -> [Node] { parts.flatMap { $0 } }
}

/// Nodes written as a block: `nodes { header; if x { y } }`.
public func nodes(@HTMLBuilder _ content: () -> [Node]) -> [Node] { content() }
