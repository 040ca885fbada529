import Foundation
import GRDB
import KioskCore
import KioskModel
import KioskStore

// `TranscriptStore`: episodes' transcripts kept for search: the public methods, then their SQL.
extension SQLiteStore {
    public func entriesWithoutTranscripts(of source: SourceID?, retryBefore: Date, limit: Int) async throws(StoreError)
        -> [TranscriptWanted]
    {
        try await read { db in try TranscriptRows.wanted(of: source, retryBefore: retryBefore, limit: limit, in: db) }
    }

    public func claimTranscript(entry: Int64, now: Date, retryBefore: Date) async throws(StoreError) -> Bool {
        try await write { db in try TranscriptRows.claim(entry: entry, now: now, retryBefore: retryBefore, in: db) }
    }

    public func saveTranscript(_ transcript: StoredTranscript, entry: Int64) async throws(StoreError) {
        try await write { db in try TranscriptRows.save(transcript, entry: entry, in: db) }
    }

    public func transcript(entry: Int64) async throws(StoreError) -> StoredTranscript? {
        try await read { db in
            try Row.fetchOne(db, sql: "SELECT text, error, fetched_at FROM transcripts WHERE entry_id = ?", arguments: [entry])
                .map { TranscriptColumns.read(text: $0["text"], error: $0["error"], fetchedAt: $0["fetched_at"]) }
        }
    }

    public func transcriptTexts(entries: [Int64]) async throws(StoreError) -> [Int64: String] {
        guard !entries.isEmpty else { return [:] }
        return try await read { db in try TranscriptRows.texts(entries: entries, in: db) }
    }
}

/// The SQL side of `StoredTranscript`: one `transcripts` row per entry, indexed by
/// `transcripts_fts`.
enum TranscriptRows {
    static func wanted(of source: SourceID?, retryBefore: Date, limit: Int, in db: Database) throws -> [TranscriptWanted] {
        // One feed's (after each of its changes) by its index on `source`; every feed's at start.
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT e.id, e.source, e.json, s.url FROM entries e JOIN subscriptions s ON s.id = e.source
                LEFT JOIN transcripts t ON t.entry_id = e.id
                WHERE \(source == nil ? "" : "e.source = ? AND ")e.in_feed AND \(TranscriptColumns.condition(column: "e.json"))
                    AND (t.entry_id IS NULL OR (t.error IS NOT NULL AND t.fetched_at < ?))
                ORDER BY e.id DESC LIMIT ?
                """,
            arguments: StatementArguments(source.map { [$0.rawValue] } ?? [])
                + [retryBefore.timeIntervalSince1970, max(0, limit)])
        var wanted: [TranscriptWanted] = []
        while let row = try rows.next() {
            guard let links = TranscriptColumns.transcripts(inEntryJSON: row["json"]) else { continue }
            wanted.append(
                TranscriptWanted(entry: row["id"], source: SourceID(rawValue: row["source"]), transcripts: links, feedURL: row["url"]))
        }
        return wanted
    }

    /// A row saying the transcript is being fetched, unless one is kept or being fetched.
    static func claim(entry: Int64, now: Date, retryBefore: Date, in db: Database) throws -> Bool {
        try db.cachedStatement(
            sql: """
                INSERT INTO transcripts (entry_id, fetched_at, error, text) SELECT id, ?, ?, '' FROM entries WHERE id = ?
                ON CONFLICT (entry_id) DO UPDATE SET fetched_at = excluded.fetched_at, error = excluded.error, text = ''
                WHERE transcripts.error IS NOT NULL AND transcripts.fetched_at < ?
                """
        ).execute(arguments: [
            now.timeIntervalSince1970, TranscriptColumns.fetching, entry, retryBefore.timeIntervalSince1970,
        ])
        return db.changesCount > 0
    }

    /// Upserts the transcript of `entry`; nothing when the entry is gone.
    static func save(_ transcript: StoredTranscript, entry: Int64, in db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO transcripts (entry_id, fetched_at, error, text) SELECT id, ?, ?, ? FROM entries WHERE id = ?
                ON CONFLICT (entry_id) DO UPDATE SET
                    fetched_at = excluded.fetched_at, error = excluded.error, text = excluded.text
                """
        ).execute(arguments: [
            transcript.fetchedAt.timeIntervalSince1970, TranscriptColumns.error(of: transcript),
            TranscriptColumns.text(of: transcript), entry,
        ])
    }

    static func texts(entries: [Int64], in db: Database) throws -> [Int64: String] {
        var found: [Int64: String] = [:]
        for chunk in ReadingRows.chunks(of: entries) {
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT entry_id, text FROM transcripts
                    WHERE error IS NULL AND entry_id IN (\(databaseQuestionMarks(count: chunk.count)))
                    """,
                arguments: StatementArguments(chunk))
            while let row = try rows.next() { found[row["entry_id"]] = row["text"] }
        }
        return found
    }
}
