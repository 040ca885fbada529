/// Caps that keep hostile or broken input from costing unbounded time or memory.
public struct ParserLimits: Sendable, Hashable {
    /// Largest input accepted, in bytes.
    public var maxBytes: Int
    /// Deepest element nesting accepted.
    public var maxDepth: Int
    /// Entries kept; later ones are ignored.
    public var maxEntries: Int

    public init(maxBytes: Int = 128 * 1024 * 1024, maxDepth: Int = 256, maxEntries: Int = 100_000) {
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
        self.maxEntries = maxEntries
    }

    /// Defaults suited to feeds fetched from the web.
    public static let `default` = ParserLimits()
}
