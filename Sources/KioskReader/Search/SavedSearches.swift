import Foundation
import KioskCore
import KioskModel
import KioskStore

/// Each user's saved searches: reading lists of their own in the reader, in the query language
/// of search and rules, each with its unread count (`EntrySearch` finds their entries).
public struct SavedSearches: Sendable {
    private let store: any KioskStore

    /// Most saved searches a user keeps: each is judged on every count of the sidebar.
    public static let mostPerUser = 50
    /// Longest query and name kept, in characters.
    public static let longestQuery = 1_000
    public static let longestName = 100
    /// Unread counts stop here ("100+" is as useful as 4,210, and cheaper to find): a count
    /// above it (one more is looked for) reads "100+".
    public static let countCap = 100

    public init(store: any KioskStore) {
        self.store = store
    }

    public func list(user: UserID) async throws -> [SavedSearch] {
        try await store.savedSearches(user: user)
    }

    public func search(_ id: Int64, user: UserID) async throws -> SavedSearch? {
        try await store.savedSearches(user: user).first { $0.id == id }
    }

    /// Keeps `text` as a search of `user`'s, named `name` (or after the query). A query that does
    /// not read, an empty one, or one too many is refused with a sentence to show.
    public func save(_ text: String, name: String? = nil, user: UserID, now: Date = Date()) async throws -> SavedSearch {
        let query = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !query.isEmpty else { throw ReaderError.invalidName("Type a search to save first.") }
        guard query.count <= Self.longestQuery else {
            throw ReaderError.invalidName("A saved search is at most \(Self.longestQuery) characters long.")
        }
        do {
            _ = try QueryParser.parse(query)
        } catch {
            throw ReaderError.invalidName("This search cannot be read: \(error.description).")
        }
        guard try await store.savedSearches(user: user).count < Self.mostPerUser else {
            throw ReaderError.limit("You have \(Self.mostPerUser) saved searches already: delete one to save another.")
        }
        let named = (name?.trimmingCharacters(in: .whitespacesAndNewlines)).flatMap { $0.isEmpty ? nil : $0 } ?? query
        return try await store.saveSearch(name: String(named.prefix(Self.longestName)), query: query, user: user, now: now)
    }

    @discardableResult
    public func delete(_ id: Int64, user: UserID) async throws -> Bool {
        try await store.deleteSavedSearch(id, user: user)
    }

    /// A saved search's entries, newest first, at most `limit` (nil when its query no longer
    /// reads, which a search saved by an older Kiosk could).
    public func entries(
        of search: SavedSearch, user: UserID, subscriptions: [Subscription], unreadOnly: Bool = false, limit: Int = 200,
        now: Date = Date()
    ) async throws -> [StoredEntry]? {
        guard var query = try? QueryParser.parse(search.query) else { return nil }
        if unreadOnly { query = .and([query, .state(.unread)]) }
        let found = try await EntrySearch(store: store).entries(
            matching: query, user: user, subscriptions: subscriptions, now: now, limit: limit, order: .newest)
        return found.sorted { ($0.sortDate, $0.id) > ($1.sortDate, $1.id) }
    }

    /// Each saved search's unread entries, counted up to one past `countCap`.
    public func unreadCounts(user: UserID, subscriptions: [Subscription], now: Date = Date()) async throws -> [Int64: Int] {
        var counts: [Int64: Int] = [:]
        for search in try await store.savedSearches(user: user) {
            counts[search.id] = try await unreadCount(of: search, user: user, subscriptions: subscriptions, now: now)
        }
        return counts
    }

    /// `search`'s unread entries, counted up to one past `countCap` (which reads "100+").
    public func unreadCount(of search: SavedSearch, user: UserID, subscriptions: [Subscription], now: Date = Date())
        async throws -> Int
    {
        try await entries(of: search, user: user, subscriptions: subscriptions, unreadOnly: true, limit: Self.countCap + 1, now: now)?
            .count ?? 0
    }
}
