import Foundation
import KioskModel
import KioskStore
import PostgresNIO

// `SavedSearchStore` on PostgreSQL: each user's saved searches, as typed.
extension PostgresStore {
    public func savedSearches(user: UserID) async throws(StoreError) -> [SavedSearch] {
        try await connection { session in
            try await session.rows(
                "SELECT id, name, query, created_at FROM saved_searches WHERE user_id = \(user.rawValue) ORDER BY id"
            ) { row in
                SavedSearch(
                    id: try row.get("id"), name: try row.get("name"), query: try row.get("query"),
                    createdAt: Date(timeIntervalSince1970: try row.get("created_at")))
            }
        }
    }

    public func saveSearch(name: String, query: String, user: UserID, now: Date) async throws(StoreError) -> SavedSearch {
        let cleanName = PostgresText.clean(name)
        let cleanQuery = PostgresText.clean(query)
        let at = now.timeIntervalSince1970
        let id: Int64? = try await connection { session in
            try await session.value(
                """
                INSERT INTO saved_searches (user_id, name, query, created_at)
                VALUES (\(user.rawValue), \(cleanName), \(cleanQuery), \(at)) RETURNING id
                """)
        }
        return SavedSearch(id: id ?? 0, name: cleanName, query: cleanQuery, createdAt: now)
    }

    @discardableResult
    public func deleteSavedSearch(_ id: Int64, user: UserID) async throws(StoreError) -> Bool {
        try await connection { session in
            let deleted: Int64? = try await session.value(
                "WITH gone AS (DELETE FROM saved_searches WHERE id = \(id) AND user_id = \(user.rawValue) RETURNING 1) SELECT count(*)::int8 FROM gone"
            )
            return (deleted ?? 0) > 0
        }
    }
}
