import KioskCore
import KioskSources
import KioskStore

/// What the pages show of the live sources, as of one live sequence number: drawn into a page
/// at request time, then kept current by the event stream from that number on.
public struct LiveState: Sendable {
    public var sequence: UInt64 = 0
    public var entries: [SourceID: [Entry]] = [:]
    public var checking: Set<SourceID> = []
    public var failures: [SourceID: SourceError] = [:]
    public var lastOpened: OpenedHeadline?
    /// Each shown list as last rendered for the event stream, so pages reuse it until it changes.
    public var lists: [SourceID: RenderedHTML] = [:]

    public init() {}
}
