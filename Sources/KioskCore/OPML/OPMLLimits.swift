/// Caps that keep a hostile or broken upload from costing unbounded time or memory.
///
/// The defaults are far above real subscription lists (a heavy reader's export is a few hundred
/// kilobytes, a few thousand outlines, four or five levels deep) and far below what could hurt.
public struct OPMLLimits: Sendable, Hashable {
    /// Largest file accepted, in bytes as uploaded (before any transcoding).
    public var maxBytes: Int
    /// Most `<outline>` elements accepted, folders included.
    public var maxOutlines: Int
    /// Deepest element nesting accepted, the `<opml>` element counting as one.
    public var maxDepth: Int

    public init(maxBytes: Int = 4 * 1024 * 1024, maxOutlines: Int = 10_000, maxDepth: Int = 32) {
        self.maxBytes = maxBytes
        self.maxOutlines = maxOutlines
        self.maxDepth = maxDepth
    }

    /// Defaults suited to a file a user uploads.
    public static let `default` = OPMLLimits()
}
