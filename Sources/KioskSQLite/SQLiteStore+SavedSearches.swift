import Foundation
import GRDB
import KioskModel
import KioskStore

// `SavedSearchStore`: each user's saved searches, as typed.
extension SQLiteStore {
    public func savedSearches(user: UserID) async throws(StoreError) -> [SavedSearch] {
        try await read { db in
            try Row.fetchAll(
                db, sql: "SELECT id, name, query, created_at FROM saved_searches WHERE user_id = ? ORDER BY id",
                arguments: [user.rawValue]
            ).map { row in
                SavedSearch(
                    id: row["id"], name: row["name"], query: row["query"],
                    createdAt: Date(timeIntervalSince1970: row["created_at"]))
            }
        }
    }

    public func saveSearch(name: String, query: String, user: UserID, now: Date) async throws(StoreError) -> SavedSearch {
        try await write { db in
            try db.execute(
                sql: "INSERT INTO saved_searches (user_id, name, query, created_at) VALUES (?, ?, ?, ?)",
                arguments: [user.rawValue, name, query, now.timeIntervalSince1970])
            return SavedSearch(id: db.lastInsertedRowID, name: name, query: query, createdAt: now)
        }
    }

    @discardableResult
    public func deleteSavedSearch(_ id: Int64, user: UserID) async throws(StoreError) -> Bool {
        try await write { db in
            try db.execute(sql: "DELETE FROM saved_searches WHERE id = ? AND user_id = ?", arguments: [id, user.rawValue])
            return db.changesCount > 0
        }
    }
}
