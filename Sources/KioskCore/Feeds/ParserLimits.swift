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

    /// Defaults suited to reading any feed document once (`kiosk parse`, the corpus).
    public static let `default` = ParserLimits()

    /// What a polled feed keeps: its first 1,000 entries (a feed lists its newest first). A feed
    /// of 163,000 tiny items was taken as 100,000 entries, stored, held in memory and sent to
    /// every open page at every change; no reader wants more than the reader keeps (retention's
    /// cap per feed is 1,000 too).
    public static let polled = ParserLimits(maxEntries: 1_000)
}
