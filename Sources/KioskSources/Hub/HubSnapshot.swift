import KioskCore
import KioskModel

/// Everything a subscriber needs to redraw from scratch: the last good entries of every source,
/// which are being checked, and the last failure of those failing.
public struct HubSnapshot: Sendable, Hashable {
    /// The sequence number of the last event included.
    public var sequence: UInt64
    public var entries: [SourceID: [Entry]]
    /// For each merged source, the feed of each of its entries (see `EngineEvent.Kind.changed`).
    public var origins: [SourceID: [SourceID]] = [:]
    public var checking: Set<SourceID>
    public var failures: [SourceID: SourceError]

    public init(
        sequence: UInt64 = 0, entries: [SourceID: [Entry]] = [:], checking: Set<SourceID> = [],
        failures: [SourceID: SourceError] = [:]
    ) {
        self.sequence = sequence
        self.entries = entries
        self.checking = checking
        self.failures = failures
    }

    /// Folds `event` in: the hub keeps its snapshot this way, and so can a subscriber its copy.
    public mutating func apply(_ event: EngineEvent) {
        sequence = event.sequence
        switch event.kind {
        case .checking(let id): checking.insert(id)
        case .idle(let id): checking.remove(id)
        case .changed(let id, let list, let from):
            entries[id] = list
            origins[id] = from.isEmpty ? nil : from
            failures[id] = nil
        case .failed(let id, let error): failures[id] = error
        }
    }
}
