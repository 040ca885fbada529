import Foundation
import GRDB
import KioskCore
import KioskModel
import KioskStore

// The engine's view (each source's state and entries) and the search over the entries: the
// public methods, then their SQL.
extension SQLiteStore {
    public func loadSourceStates() async throws(StoreError) -> [SourceID: SourceState] {
        try await read { db in try SourceRows.loadAll(in: db) }
    }

    public func saveSourceState(_ state: SourceState, for id: SourceID) async throws(StoreError) {
        let now = now()
        try await write { db in try SourceRows.save(state, for: id, in: db, now: now) }
    }

    public func entries(for source: SourceID) async throws(StoreError) -> [Entry] {
        try await read { db in try EntryRows.load(of: source, in: db)[source] ?? [] }
    }

    public func search(_ text: String, limit: Int, user: UserID?, order: SearchOrder) async throws(StoreError) -> [SearchHit] {
        try await search(SearchTerm.words(of: text), limit: limit, user: user, order: order)
    }

    /// Phrases and title terms narrow in FTS5 itself: the entries' index by all of them, the
    /// articles' (which has no title) by the rest.
    public func search(_ terms: [SearchTerm], limit: Int, user: UserID?, order: SearchOrder) async throws(StoreError)
        -> [SearchHit]
    {
        guard limit > 0, let entries = SearchText.ftsQuery(terms) else { return [] }
        let articles = SearchText.ftsQuery(terms, titles: false)
        let query = EntryRows.IndexQuery(entries: entries, articles: articles)
        return try await read { db in
            switch order {
            case .relevance: try EntryRows.search(query, limit: limit, user: user, in: db)
            case .newest: try EntryRows.newest(query, limit: limit, user: user, in: db)
            }
        }
    }
}

/// The SQL side of `SourceState`: one `sources` row plus the source's entries.
enum SourceRows {
    /// Writes `state` for `id`: its row upserted, its entries replaced (see `EntryRows.replace`).
    static func save(_ state: SourceState, for id: SourceID, in db: Database, now: Date = Date()) throws {
        let errorJSON = try state.lastError.map(StoredSourceError.json)
        try db.cachedStatement(
            sql: """
                INSERT INTO sources (id, etag, last_modified, validators_request, last_success, last_failure,
                    last_error, last_error_json, failures, has_entries)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET
                    etag = excluded.etag, last_modified = excluded.last_modified,
                    validators_request = excluded.validators_request,
                    last_success = excluded.last_success, last_failure = excluded.last_failure,
                    last_error = excluded.last_error, last_error_json = excluded.last_error_json,
                    failures = excluded.failures, has_entries = excluded.has_entries
                """
        ).execute(arguments: [
            id.rawValue, state.validators.etag, state.validators.lastModified, state.validators.request,
            state.lastSuccess?.timeIntervalSince1970, state.lastFailure?.timeIntervalSince1970,
            state.lastError?.description, errorJSON, state.failures, state.entries != nil,
        ])
        if let entries = state.entries {
            try EntryRows.replace(entries, of: id, in: db, now: now)
        } else {
            try EntryRows.removeAll(of: id, in: db)
        }
    }

    /// Every source's remembered state, entries included.
    static func loadAll(in db: Database) throws -> [SourceID: SourceState] {
        let entries = try EntryRows.load(of: nil, in: db)
        let decoder = JSONDecoder()
        var states: [SourceID: SourceState] = [:]
        let rows = try Row.fetchCursor(db, sql: "SELECT * FROM sources")
        while let row = try rows.next() {
            let id = SourceID(rawValue: row["id"])
            let hasEntries: Bool = row["has_entries"]
            states[id] = SourceState(
                entries: hasEntries ? entries[id, default: []] : nil,
                validators: Validators(
                    etag: row["etag"], lastModified: row["last_modified"], request: row["validators_request"]),
                failures: row["failures"],
                lastError: StoredSourceError.read(message: row["last_error"], json: row["last_error_json"], decoder: decoder),
                lastSuccess: date(row["last_success"]),
                lastFailure: date(row["last_failure"]))
        }
        return states
    }

    private static func date(_ seconds: Double?) -> Date? {
        seconds.map { Date(timeIntervalSince1970: $0) }
    }
}
