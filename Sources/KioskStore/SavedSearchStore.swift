import Foundation
import KioskModel

/// A search a user saved: a reading list of its own in the reader, in the query language of
/// search and rules (`KioskCore.Query`), kept as the text the user typed.
public struct SavedSearch: Sendable, Hashable {
    public var id: Int64
    public var name: String
    public var query: String
    public var createdAt: Date

    public init(id: Int64, name: String, query: String, createdAt: Date) {
        self.id = id
        self.name = name
        self.query = query
        self.createdAt = createdAt
    }
}

/// Each user's saved searches.
public protocol SavedSearchStore: Sendable {
    /// `user`'s saved searches, in the order they were saved.
    func savedSearches(user: UserID) async throws -> [SavedSearch]
    /// Keeps a search for `user`.
    func saveSearch(name: String, query: String, user: UserID, now: Date) async throws -> SavedSearch
    /// Forgets one of `user`'s saved searches; false when `user` has none with that id.
    @discardableResult
    func deleteSavedSearch(_ id: Int64, user: UserID) async throws -> Bool
}
