import Foundation
import KioskCore
import KioskModel
import KioskStore
import PostgresNIO

// `TranscriptStore`: episodes' transcripts kept for search: the public methods, then their SQL.
extension PostgresStore {
    public func entriesWithoutTranscripts(of source: SourceID?, retryBefore: Date, limit: Int) async throws(StoreError)
        -> [TranscriptWanted]
    {
        try await connection { session in
            try await PostgresTranscriptRows.wanted(of: source, retryBefore: retryBefore, limit: limit, in: session)
        }
    }

    public func claimTranscript(entry: Int64, now: Date, retryBefore: Date) async throws(StoreError) -> Bool {
        try await connection { session in
            try await PostgresTranscriptRows.claim(entry: entry, now: now, retryBefore: retryBefore, in: session)
        }
    }

    public func saveTranscript(_ transcript: StoredTranscript, entry: Int64) async throws(StoreError) {
        try await connection { session in try await PostgresTranscriptRows.save(transcript, entry: entry, in: session) }
    }

    public func transcript(entry: Int64) async throws(StoreError) -> StoredTranscript? {
        try await connection { session in
            try await session.rows("SELECT text, error, fetched_at FROM transcripts WHERE entry_id = \(entry)") { row in
                TranscriptColumns.read(text: try row.get("text"), error: try row.get("error"), fetchedAt: try row.get("fetched_at"))
            }.first
        }
    }

    public func transcriptTexts(entries: [Int64]) async throws(StoreError) -> [Int64: String] {
        guard !entries.isEmpty else { return [:] }
        return try await connection { session in try await PostgresTranscriptRows.texts(entries: entries, in: session) }
    }
}

/// The SQL side of `StoredTranscript`: one `transcripts` row per entry, its folded words in
/// `search_text` (as the articles', see `PostgresSearchText`).
enum PostgresTranscriptRows {
    static func wanted(of source: SourceID?, retryBefore: Date, limit: Int, in session: PostgresSession) async throws
        -> [TranscriptWanted]
    {
        // One feed's (after each of its changes) by its index on `source`; every feed's at start.
        var builder = PostgresQueryBuilder()
        builder.append(
            """
            SELECT e.id, e.source, e.json, s.url FROM entries e JOIN subscriptions s ON s.id = e.source
            LEFT JOIN transcripts t ON t.entry_id = e.id
            WHERE e.in_feed AND \(TranscriptColumns.condition(column: "e.json"))
            """)
        if let source { builder.append(" AND e.source = \(builder.bind(source.rawValue))") }
        let before = builder.bind(retryBefore.timeIntervalSince1970)
        builder.append(
            """
             AND (t.entry_id IS NULL OR (t.error IS NOT NULL AND t.fetched_at < \(before)))
            ORDER BY e.id DESC LIMIT \(builder.bind(max(0, limit)))
            """)
        let rows = try await session.rows(builder.query) { row in
            (id: try row.get("id", as: Int64.self), source: try row.get("source", as: String.self),
                json: try row.get("json", as: String.self), url: try row.get("url", as: String.self))
        }
        return rows.compactMap { row in
            TranscriptColumns.transcripts(inEntryJSON: row.json).map {
                TranscriptWanted(entry: row.id, source: SourceID(rawValue: row.source), transcripts: $0, feedURL: row.url)
            }
        }
    }

    /// A row saying the transcript is being fetched, unless one is kept or being fetched (one
    /// statement, so two replicas asking at once cannot both win).
    static func claim(entry: Int64, now: Date, retryBefore: Date, in session: PostgresSession) async throws -> Bool {
        try await !session.rows(
            """
            INSERT INTO transcripts (entry_id, fetched_at, error, text, search_text)
            SELECT id, \(now.timeIntervalSince1970), \(TranscriptColumns.fetching), '', '' FROM entries WHERE id = \(entry)
            ON CONFLICT (entry_id) DO UPDATE SET
                fetched_at = excluded.fetched_at, error = excluded.error, text = '', search_text = ''
            WHERE transcripts.error IS NOT NULL AND transcripts.fetched_at < \(retryBefore.timeIntervalSince1970)
            RETURNING entry_id
            """
        ) { row -> Int64 in try row.get("entry_id") }.isEmpty
    }

    /// Upserts the transcript of `entry`; nothing when the entry is gone.
    static func save(_ transcript: StoredTranscript, entry: Int64, in session: PostgresSession) async throws {
        let text = PostgresText.clean(TranscriptColumns.text(of: transcript))
        let error = PostgresText.clean(TranscriptColumns.error(of: transcript))
        let search = PostgresSearchText.indexed(title: nil, summaryText: text)
        try await session.execute(
            """
            INSERT INTO transcripts (entry_id, fetched_at, error, text, search_text)
            SELECT id, \(transcript.fetchedAt.timeIntervalSince1970), \(error), \(text), \(search) FROM entries WHERE id = \(entry)
            ON CONFLICT (entry_id) DO UPDATE SET
                fetched_at = excluded.fetched_at, error = excluded.error, text = excluded.text,
                search_text = excluded.search_text
            """)
    }

    static func texts(entries: [Int64], in session: PostgresSession) async throws -> [Int64: String] {
        var found: [Int64: String] = [:]
        try await session.forEachRow(
            "SELECT entry_id, text FROM transcripts WHERE error IS NULL AND entry_id = ANY(\(entries))"
        ) { row in found[try row.get("entry_id")] = try row.get("text") }
        return found
    }
}
