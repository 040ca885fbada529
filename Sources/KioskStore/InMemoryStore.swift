import Foundation
import KioskCore
import KioskSources

/// A `KioskStore` in dictionaries, for tests: the same promises as `SQLiteStore` (entries
/// deduplicated by identity, a stable device UUID, word-prefix search), no file.
public actor InMemoryStore: KioskStore {
    private var states: [SourceID: Engine.SourceState] = [:]
    private var opened: OpenedHeadline?
    private var device: UUID?
    private var images: [String: ImageRecord] = [:]
    private var subscribed: [Subscription] = []

    /// A store remembering `states` (as if each had been saved).
    public init(states: [SourceID: Engine.SourceState] = [:]) {
        self.states = states.mapValues(Self.deduplicated)
    }

    public func loadSourceStates() -> [SourceID: Engine.SourceState] { states }

    public func saveSourceState(_ state: Engine.SourceState, for id: SourceID) {
        states[id] = Self.deduplicated(state)
    }

    public func entries(for source: SourceID) -> [Entry] { states[source]?.entries ?? [] }

    public func subscriptions() -> [Subscription] { subscribed }

    public func saveSubscriptions(_ subscriptions: [Subscription]) throws(StoreError) {
        var next = subscribed
        for subscription in subscriptions {
            if let index = next.firstIndex(where: { $0.id == subscription.id }) {
                next[index] = subscription
            } else {
                next.append(subscription)
            }
        }
        // The same promise as SQLite's UNIQUE (url): all or nothing.
        guard Set(next.map(\.url)).count == next.count else {
            throw .other("a feed with that address is already subscribed")
        }
        subscribed = next
    }

    public func removeSubscription(_ id: SourceID) {
        subscribed.removeAll { $0.id == id }
        states[id] = nil
    }

    public func lastOpened() -> OpenedHeadline? { opened }

    public func setLastOpened(_ headline: OpenedHeadline) { opened = headline }

    public func deviceID() -> UUID {
        if let device { return device }
        let id = UUID()
        device = id
        return id
    }

    /// Entries where every word of `text` starts a word of the title or plain-text summary,
    /// case and diacritics ignored; in source order, then display order.
    public func search(_ text: String, limit: Int) -> [SearchHit] {
        let words = SearchText.words(of: text).prefix(SearchText.maxWords).map { SearchText.folded($0) }
        guard limit > 0, !words.isEmpty else { return [] }
        var hits: [SearchHit] = []
        for id in states.keys.sorted() {
            for entry in states[id]?.entries ?? [] where SearchText.matches(entry, queryWords: words) {
                hits.append(SearchHit(source: id, entry: entry))
                if hits.count == limit { return hits }
            }
        }
        return hits
    }

    public func recordImage(_ record: ImageRecord) { images[record.url] = record }

    public func imageRecord(for url: String) -> ImageRecord? { images[url] }

    public func removeImageRecords(files: [String]) {
        let gone = Set(files)
        images = images.filter { !gone.contains($0.value.file) }
    }

    /// `state` with its entries deduplicated by identity, as the SQLite store keeps them.
    private static func deduplicated(_ state: Engine.SourceState) -> Engine.SourceState {
        var state = state
        state.entries = state.entries.map { EntryIdentity.deduplicated($0).map(\.entry) }
        return state
    }
}
