import KioskCore
import KioskModel

/// One entry found by `KioskStore.search`, with the source it belongs to.
public struct SearchHit: Sendable, Hashable {
    public var source: SourceID
    public var entry: Entry

    public init(source: SourceID, entry: Entry) {
        self.source = source
        self.entry = entry
    }
}
