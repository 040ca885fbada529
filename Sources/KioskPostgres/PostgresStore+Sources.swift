import Foundation
import KioskCore
import KioskModel
import KioskStore
import Logging
import PostgresNIO

// The engine's view (each source's state and entries) and the search over the entries: the
// public methods, then their SQL.
extension PostgresStore {
    /// One feed's state (entries, validators, failures) as `loadSourceStates()` gives it; nil if
    /// unknown. Replicas reload a feed another replica checked.
    public func sourceState(for id: SourceID) async throws(StoreError) -> SourceState? {
        try await connection { session in try await PostgresSourceRows.load(id, in: session) }
    }

    public func loadSourceStates() async throws(StoreError) -> [SourceID: SourceState] {
        try await transaction { session in
            // One snapshot for the sources and their entries.
            try await session.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            return try await PostgresSourceRows.loadAll(in: session)
        }
    }

    public func saveSourceState(_ state: SourceState, for id: SourceID) async throws(StoreError) {
        let now = now()
        // A transaction: the followers' rules judge the new entries before anyone can read them.
        try await transaction { session in try await PostgresSourceRows.save(state, for: id, now: now, in: session) }
    }

    /// Saves `state` in one transaction with what `alsoWrite` writes on its connection (first):
    /// both commit or neither does (a replica's live log record: see `SourceStateStore`).
    public func saveSourceState(
        _ state: SourceState, for id: SourceID, alsoWrite: @Sendable (PostgresConnection) async throws -> Void
    ) async throws(StoreError) {
        let now = now()
        try await transaction { session in
            try await alsoWrite(session.connection)
            try await PostgresSourceRows.save(state, for: id, now: now, in: session)
        }
    }

    public func entries(for source: SourceID) async throws(StoreError) -> [Entry] {
        try await connection { session in try await PostgresEntryRows.load(of: source, in: session)[source] ?? [] }
    }

    public func search(_ text: String, limit: Int, user: UserID?, order: SearchOrder) async throws(StoreError) -> [SearchHit] {
        guard limit > 0, let query = PostgresSearchText.tsQuery(text) else { return [] }
        return try await connection { session in
            try await PostgresEntryRows.search(query, limit: limit, user: user, order: order, in: session)
        }
    }
}

/// The SQL side of `SourceState`: one `sources` row plus the source's entries.
enum PostgresSourceRows {
    /// Writes `state` for `id` in one statement, so atomically and in one round trip: its row
    /// upserted, its entries replaced (`PostgresEntryRows.replaceSQL`) or, for a source never
    /// fetched, removed. 100,000 feeds saved one by one cost 100,000 round trips, not 800,000.
    /// Then, when there are new entries, their followers' rules judge them (`PostgresRuleRows`):
    /// call it in a transaction.
    static func save(_ state: SourceState, for id: SourceID, now: Date, in session: PostgresSession) async throws {
        let errorJSON = try state.lastError.map(StoredSourceError.json)
        var builder = PostgresQueryBuilder()
        let values = [
            builder.bind(id.rawValue), builder.bind(PostgresText.clean(state.validators.etag)),
            builder.bind(PostgresText.clean(state.validators.lastModified)),
            builder.bind(PostgresText.clean(state.validators.request)),
            builder.bind(state.lastSuccess?.timeIntervalSince1970), builder.bind(state.lastFailure?.timeIntervalSince1970),
            builder.bind(PostgresText.clean(state.lastError?.description)), builder.bind(PostgresText.clean(errorJSON)),
            builder.bind(state.failures), builder.bind(state.entries != nil),
        ]
        let source = values[0]
        builder.append(
            """
            WITH upsert AS (
                INSERT INTO sources (id, etag, last_modified, validators_request, last_success, last_failure,
                    last_error, last_error_json, failures, has_entries)
                VALUES (\(values.joined(separator: ", ")))
                ON CONFLICT (id) DO UPDATE SET
                    etag = excluded.etag, last_modified = excluded.last_modified,
                    validators_request = excluded.validators_request,
                    last_success = excluded.last_success, last_failure = excluded.last_failure,
                    last_error = excluded.last_error, last_error_json = excluded.last_error_json,
                    failures = excluded.failures, has_entries = excluded.has_entries
            ),

            """)
        if let entries = state.entries {
            let rulesMayAct = try await PostgresRuleRows.lockFollowersWithRules(of: id, in: session)
            let feed = builder.bind(try PostgresEntryRows.feedRows(entries, received: now))
            let received = builder.bind(now.timeIntervalSince1970)
            builder.append(PostgresEntryRows.replaceSQL(source: source, feed: feed, received: received))
            let added: [(id: Int64, identity: String)] = try await session.rows(builder.query) { row in
                (try row.get("id"), try row.get("identity"))
            }
            guard rulesMayAct, !added.isEmpty else { return }
            let byIdentity = Dictionary(
                EntryIdentity.deduplicated(entries).map { (PostgresText.clean($0.identity), $0.entry) },
                uniquingKeysWith: { first, _ in first })
            let arrived = added.compactMap { row in byIdentity[row.identity].map { (id: row.id, entry: $0) } }
            try await PostgresRuleRows.arrive(arrived, of: id, in: session, now: now)
        } else {
            builder.append(PostgresEntryRows.removeAllSQL(source: source))
            try await session.execute(builder.query)
        }
    }

    /// Every source's remembered state, entries included.
    static func loadAll(in session: PostgresSession) async throws -> [SourceID: SourceState] {
        let entries = try await PostgresEntryRows.load(of: nil, in: session)
        var states: [SourceID: SourceState] = [:]
        let decoder = JSONDecoder()
        try await session.forEachRow("SELECT * FROM sources") { row in
            let id = SourceID(rawValue: try row.get("id"))
            states[id] = try state(row, entries: entries[id, default: []], decoder: decoder)
        }
        return states
    }

    /// One source's state, as `loadAll` gives it; nil if the source is unknown.
    static func load(_ id: SourceID, in session: PostgresSession) async throws -> SourceState? {
        let decoder = JSONDecoder()
        let rows = try await session.rows("SELECT * FROM sources WHERE id = \(id.rawValue)") { row in
            try state(row, entries: [], decoder: decoder)
        }
        guard var found = rows.first else { return nil }
        if found.entries != nil {
            found.entries = try await PostgresEntryRows.load(of: id, in: session)[id, default: []]
        }
        return found
    }

    private static func state(_ row: PostgresRandomAccessRow, entries: [Entry], decoder: JSONDecoder) throws
        -> SourceState
    {
        let hasEntries: Bool = try row.get("has_entries")
        return SourceState(
            entries: hasEntries ? entries : nil,
            validators: Validators(
                etag: try row.get("etag"), lastModified: try row.get("last_modified"),
                request: try row.get("validators_request")),
            failures: try row.get("failures"),
            lastError: StoredSourceError.read(message: try row.get("last_error"), json: try row.get("last_error_json"), decoder: decoder),
            lastSuccess: date(try row.get("last_success")),
            lastFailure: date(try row.get("last_failure")))
    }

    private static func date(_ seconds: Double?) -> Date? {
        seconds.map { Date(timeIntervalSince1970: $0) }
    }
}
