import KioskCore
import KioskModel

/// One entry found by `KioskStore.search`, with the source it belongs to and the store's number
/// for it (so the hits' reading state is read in one call, `ReadingStore.storedEntries(ids:user:)`).
public struct SearchHit: Sendable, Hashable {
    public var id: Int64
    public var source: SourceID
    public var entry: Entry

    public init(id: Int64, source: SourceID, entry: Entry) {
        self.id = id
        self.source = source
        self.entry = entry
    }
}

/// The order search hits come in (and so which ones a limit keeps).
public enum SearchOrder: Sendable, Hashable {
    /// The best matches first (full-text ranking): a search box's answer.
    case relevance
    /// The newest received first, unranked: a saved search's list and count, which want the
    /// newest matches and must not rank every match of a common word in a large store.
    case newest
}
