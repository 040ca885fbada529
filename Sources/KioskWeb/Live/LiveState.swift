import KioskCore
import KioskModel
import KioskSources
import KioskStore

/// What the pages show of the live sources, as of one live sequence number: drawn into a page
/// at request time, then kept current by the event stream from that number on.
public struct LiveState: Sendable {
    /// The live stream's own number (what pages resume from), not the hub's.
    public var sequence: UInt64 = 0
    /// The sources' entries, checks and failures, folded from the hub's events exactly as the hub
    /// folds them, so the two cannot drift apart. Its `sequence` is the hub's.
    public var sources = HubSnapshot()
    /// Each shown list as last rendered for the event stream, so pages reuse it until it changes.
    public var lists: [SourceID: RenderedList] = [:]

    public init() {}

    /// Every source's last good entries.
    public var entries: [SourceID: [Entry]] { sources.entries }
    /// The sources being checked now.
    public var checking: Set<SourceID> { sources.checking }
    /// The last failure of each failing source.
    public var failures: [SourceID: SourceError] { sources.failures }
}
