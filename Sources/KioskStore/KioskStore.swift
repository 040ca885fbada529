import Foundation
import KioskCore
import KioskModel

// The store is a protocol so the web app and the engine never know whether SQLite, PostgreSQL
// (several replicas, one database) or a dictionary in a test holds their data.

/// What Kiosk remembers across restarts: each source's state and entries (through
/// `SourceStateStore`, the engine's view), the subscriptions (`SubscriptionStore`), the reading position, the device identity, a search
/// index over the entries.
public protocol KioskStore: SourceStateStore, SubscriptionStore, ReadingStore, SyncReadingStore, AccountStore,
    AppStateStore, ArticleStore, AllowanceLedger, SavedSearchStore, RuleStore, LabelStore,
    PushDeviceStore, ListeningStore, TranscriptStore
{
    /// The entries last saved for `source`, in display order; [] when none are.
    func entries(for source: SourceID) async throws -> [Entry]

    /// Entries whose title or summary (or fetched article: `ArticleStore`) has words starting
    /// with every word of `text`, in `order`,
    /// at most `limit`, among the feeds `user` follows (nil: every feed). Any text is accepted:
    /// none of it is read as query syntax. Empty → [].
    func search(_ text: String, limit: Int, user: UserID?, order: SearchOrder) async throws -> [SearchHit]

    /// Entries holding every one of `terms`, as `search(_:limit:user:order:)` finds words; a
    /// store whose index knows phrases and columns narrows by them too (SQLite's FTS5), the
    /// others by their words.
    func search(_ terms: [SearchTerm], limit: Int, user: UserID?, order: SearchOrder) async throws -> [SearchHit]
}

extension KioskStore {
    /// By the terms' words (an index with no word positions: PostgreSQL's).
    public func search(_ terms: [SearchTerm], limit: Int, user: UserID?, order: SearchOrder) async throws -> [SearchHit] {
        try await search(terms.flatMap(\.words).joined(separator: " "), limit: limit, user: user, order: order)
    }

    /// The best matches first (`SearchOrder.relevance`).
    public func search(_ text: String, limit: Int, user: UserID?) async throws -> [SearchHit] {
        try await search(text, limit: limit, user: user, order: .relevance)
    }
}

/// Small facts of the app itself: each user's last opened headline, the installation's identity.
public protocol AppStateStore: Sendable {
    /// The headline the user opened last, to take them back there; nil before the first.
    func lastOpened(user: UserID) async throws -> OpenedHeadline?
    /// Remembers the headline the user just opened.
    func setLastOpened(_ headline: OpenedHeadline, user: UserID) async throws

    /// This installation's identity: made on first use, the same forever after.
    func deviceID() async throws -> UUID
}

/// Told how long a store's write took (its queueing included), for `/metrics`.
public typealias StoreWriteTimer = @Sendable (Duration) -> Void
