/// The "About Canada" facts feed: a title and its rows, in feed order.
public struct FactSheet: Sendable, Hashable, Codable {
    /// The feed's title, e.g. "About Canada".
    public var title: String?
    /// The rows that have at least one field; all-null rows are dropped.
    public var rows: [Fact]

    /// Creates a fact sheet.
    public init(title: String? = nil, rows: [Fact] = []) {
        self.title = title
        self.rows = rows
    }
}
