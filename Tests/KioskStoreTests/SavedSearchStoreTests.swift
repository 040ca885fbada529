import Foundation
import KioskModel
import KioskStore
import Testing

/// Saved searches on both stores: kept as typed (hostile text included), in the order saved, each
/// user's own; deleting one of another user's does nothing.
@Suite struct SavedSearchStoreTests {
    @Test(arguments: StoreKind.allCases)
    func savedSearchesAreEachUsersOwnInTheOrderSaved(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            let first = try await store.saveSearch(name: "Storms", query: "intitle:storm -is:read", user: .owner, now: now)
            let odd = "\"quotes\" 'and' \\back\\slashes; DROP TABLE x; -- é 🌧"
            let second = try await store.saveSearch(name: odd, query: odd, user: .owner, now: now)
            let theirs = try await store.saveSearch(name: "Theirs", query: "feed:x", user: UserID(2), now: now)
            #expect(first.id != second.id && second.id != theirs.id)
            let mine = try await store.savedSearches(user: .owner)
            #expect(mine.map(\.name) == ["Storms", odd])
            #expect(mine.map(\.query) == ["intitle:storm -is:read", odd])
            #expect(mine.first?.createdAt == now)
            #expect(try await store.savedSearches(user: UserID(2)).map(\.id) == [theirs.id])
            // Another user's search is not mine to delete.
            #expect(try await store.deleteSavedSearch(theirs.id, user: .owner) == false)
            #expect(try await store.deleteSavedSearch(first.id, user: .owner))
            #expect(try await store.savedSearches(user: .owner).map(\.id) == [second.id])
            #expect(try await store.savedSearches(user: UserID(2)).count == 1)
        }
    }
}
