import Foundation
import KioskCore
import KioskSources

/// A `KioskStore` in dictionaries, for tests: the same promises as `SQLiteStore` (entries
/// deduplicated by identity, a stable device UUID, word-prefix search), no file.
public actor InMemoryStore: KioskStore {
    private var states: [SourceID: SourceState] = [:]
    private var opened: OpenedHeadline?
    private var device: UUID?
    private var subscribed: [Subscription] = []
    private var table = ReadingTable()

    /// A store remembering `states` (as if each had been saved).
    public init(states: [SourceID: SourceState] = [:]) {
        self.states = states.mapValues(Self.deduplicated)
        var table = ReadingTable()
        for (id, state) in states { table.keep(state.entries ?? [], of: id, now: Date()) }
        self.table = table
    }

    public func loadSourceStates() -> [SourceID: SourceState] { states }

    public func saveSourceState(_ state: SourceState, for id: SourceID) {
        states[id] = Self.deduplicated(state)
        if let entries = state.entries {
            table.keep(entries, of: id, now: Date())
        } else {
            table.forget(id)
        }
    }

    // MARK: - Reading

    public func readingList(_ filter: EntryFilter) -> [StoredEntry] {
        let sources = filter.sources.map(Set.init)
        let matching = table.kept.values.filter { stored in
            (sources?.contains(stored.source) ?? true) && (!filter.unreadOnly || !stored.isRead)
                && (!filter.starredOnly || stored.isStarred)
                && filter.after.map { stored.sortDate < $0.sortDate || (stored.sortDate == $0.sortDate && stored.id < $0.id) } ?? true
        }
        return Array(
            matching.sorted { ($0.sortDate, $0.id) > ($1.sortDate, $1.id) }.prefix(max(0, filter.limit)))
    }

    public func storedEntry(source: SourceID, key: String) -> StoredEntry? {
        table.kept.values.filter { $0.source == source && $0.key == key }.max { (table.inFeed.contains($0.id) ? 1 : 0) < (table.inFeed.contains($1.id) ? 1 : 0) }
    }

    public func newestEntryID(sources: [SourceID]?) -> Int64 {
        let only = sources.map(Set.init)
        return table.kept.values.filter { only?.contains($0.source) ?? true }.map(\.id).max() ?? 0
    }

    public func unreadCounts() -> [SourceID: Int] {
        var counts: [SourceID: Int] = [:]
        for stored in table.kept.values where !stored.isRead { counts[stored.source, default: 0] += 1 }
        return counts
    }

    public func starredCount() -> Int { table.kept.values.filter(\.isStarred).count }

    public func setRead(_ read: Bool, ids: [Int64]) -> [Int64] {
        ids.filter { id in
            guard let stored = table.kept[id], stored.isRead != read else { return false }
            table.kept[id]?.isRead = read
            return true
        }
    }

    public func setStarred(_ starred: Bool, ids: [Int64]) -> [Int64] {
        ids.filter { id in
            guard let stored = table.kept[id], stored.isStarred != starred else { return false }
            table.kept[id]?.isStarred = starred
            return true
        }
    }

    public func markAllRead(sources: [SourceID]?, upTo: Int64) -> [Int64] {
        let only = sources.map(Set.init)
        let ids = table.kept.values.filter { !$0.isRead && $0.id <= upTo && (only?.contains($0.source) ?? true) }.map(\.id)
        for id in ids { table.kept[id]?.isRead = true }
        return ids.sorted()
    }

    @discardableResult
    public func prune(_ policy: RetentionPolicy, now: Date) -> Int {
        let cutoff = now.addingTimeInterval(-Double(policy.maxAge.components.seconds))
        var removed = 0
        for (id, stored) in table.kept where !table.inFeed.contains(id) && !stored.isStarred && stored.receivedAt < cutoff {
            table.kept[id] = nil
            removed += 1
        }
        for source in Set(table.kept.values.map(\.source)) {
            let newestFirst = table.kept.values.filter { $0.source == source }.sorted { ($0.sortDate, $0.id) > ($1.sortDate, $1.id) }
            for stored in newestFirst.dropFirst(max(0, policy.maxPerFeed))
            where !table.inFeed.contains(stored.id) && !stored.isStarred {
                table.kept[stored.id] = nil
                removed += 1
            }
        }
        return removed
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
        table.forget(id)
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
        // Every entry kept, in its feed or not any more (as SQLite's index holds them).
        for stored in table.kept.values.sorted(by: { ($0.source, $0.id) < ($1.source, $1.id) })
        where SearchText.matches(stored.entry, queryWords: words) {
            hits.append(SearchHit(source: stored.source, entry: stored.entry))
            if hits.count == limit { return hits }
        }
        return hits
    }

    /// `state` with its entries deduplicated by identity, as the SQLite store keeps them.
    private static func deduplicated(_ state: SourceState) -> SourceState {
        var state = state
        state.entries = state.entries.map { EntryIdentity.deduplicated($0).map(\.entry) }
        return state
    }
}

/// The in-memory store's entries as the reader sees them: every entry kept, in the feed or not
/// any more, by id (the SQLite row id's role).
struct ReadingTable: Sendable {
    var kept: [Int64: StoredEntry] = [:]
    var inFeed: Set<Int64> = []
    var nextID: Int64 = 1

    /// What `EntryRows.replace` does: new entries added, changed ones updated in place (their
    /// state kept), the ones that left the feed kept out of it.
    mutating func keep(_ entries: [Entry], of source: SourceID, now: Date) {
        var byIdentity: [String: Int64] = [:]
        for (id, stored) in kept where stored.source == source { byIdentity[EntryIdentity.of(stored.entry)] = id }
        for id in byIdentity.values { inFeed.remove(id) }
        for (identity, entry) in EntryIdentity.deduplicated(entries) {
            if let id = byIdentity[identity] {
                kept[id]?.entry = entry
                inFeed.insert(id)
            } else {
                let date = min((entry.published ?? entry.updated) ?? now, now)
                kept[nextID] = StoredEntry(
                    id: nextID, source: source, key: StableHash.hex(identity), entry: entry, isRead: false,
                    isStarred: false, receivedAt: now, sortDate: date)
                inFeed.insert(nextID)
                nextID += 1
            }
        }
    }

    mutating func forget(_ source: SourceID) {
        for (id, stored) in kept where stored.source == source {
            kept[id] = nil
            inFeed.remove(id)
        }
    }
}
