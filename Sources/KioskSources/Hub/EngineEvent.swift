import KioskCore
import KioskModel

/// What the engine announces, numbered in the order it happened.
public struct EngineEvent: Sendable, Hashable {
    /// Increases by one with every event the hub publishes; a gap tells a subscriber it fell behind.
    public let sequence: UInt64
    public let kind: Kind

    public enum Kind: Sendable, Hashable {
        /// A check of the source started (drives the activity indicator).
        case checking(SourceID)
        /// The check ended, whatever its outcome.
        case idle(SourceID)
        /// The source's entries changed; here is the whole current list, in display order. For
        /// a merged source, `origins` is the feed of each entry, in the same order (empty for a feed:
        /// its entries are its own).
        case changed(SourceID, [Entry], origins: [SourceID] = [])
        /// The check failed; the source keeps its last good entries.
        case failed(SourceID, SourceError)
    }

    public init(sequence: UInt64, kind: Kind) {
        self.sequence = sequence
        self.kind = kind
    }

    /// The source the event is about.
    public var source: SourceID {
        switch kind {
        case .checking(let id), .idle(let id), .changed(let id, _, _), .failed(let id, _): id
        }
    }
}
