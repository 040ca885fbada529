import Foundation
import GRDB
import KioskModel
import KioskStore

// `ListeningStore`: where each user stopped in an episode: the public methods, then their SQL.
extension SQLiteStore {
    public func savePosition(_ position: PlaybackPosition, user: UserID) async throws(StoreError) -> Bool {
        try await write { db in try PositionRows.save(position, user: user, in: db) }
    }

    public func positions(ids: [Int64], user: UserID) async throws(StoreError) -> [Int64: PlaybackPosition] {
        try await read { db in try PositionRows.positions(ids: ids, user: user, in: db) }
    }

    public func positionsInProgress(limit: Int, user: UserID) async throws(StoreError) -> [PlaybackPosition] {
        try await read { db in try PositionRows.inProgress(limit: limit, user: user, in: db) }
    }

    public func hasFiles(amongLatest latest: Int, user: UserID) async throws(StoreError) -> Bool {
        try await read { db in
            try Bool.fetchOne(
                db,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM (
                        SELECT e.json FROM entries e WHERE e.source IN (SELECT source FROM user_feeds WHERE user_id = ?)
                        ORDER BY e.id DESC LIMIT ?) e
                    WHERE \(EntryFiles.condition(column: "e.json")))
                    """,
                arguments: [user.rawValue, max(0, latest)]) ?? false
        }
    }
}

/// The SQL side of `ListeningStore`.
enum PositionRows {
    static let columns = "entry_id, seconds, duration, playing, finished, device, saved_at"

    /// Only an entry of a feed the user follows gets a position.
    static func save(_ position: PlaybackPosition, user: UserID, in db: Database) throws -> Bool {
        try db.execute(
            sql: """
                INSERT INTO playback_positions (user_id, \(columns))
                SELECT ?, e.id, ?, ?, ?, ?, ?, ? FROM entries e
                WHERE e.id = ? AND e.source IN (SELECT source FROM user_feeds WHERE user_id = ?)
                ON CONFLICT (user_id, entry_id) DO UPDATE SET seconds = excluded.seconds, duration = excluded.duration,
                    playing = excluded.playing, finished = excluded.finished, device = excluded.device,
                    saved_at = excluded.saved_at
                WHERE playback_positions.saved_at <= excluded.saved_at
                """,
            arguments: [
                user.rawValue, position.seconds, position.duration, position.isPlaying, position.isFinished,
                position.device, position.savedAt.timeIntervalSince1970, position.entryID, user.rawValue,
            ])
        if db.changesCount > 0 { return true }
        // Older than the place kept (sent late, from a device that was offline): the entry is the
        // user's all the same.
        return try Bool.fetchOne(
            db,
            sql: """
                SELECT EXISTS (SELECT 1 FROM entries e WHERE e.id = ?
                    AND e.source IN (SELECT source FROM user_feeds WHERE user_id = ?))
                """,
            arguments: [position.entryID, user.rawValue]) ?? false
    }

    static func positions(ids: [Int64], user: UserID, in db: Database) throws -> [Int64: PlaybackPosition] {
        var positions: [Int64: PlaybackPosition] = [:]
        for chunk in ReadingRows.chunks(of: ids) {
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT \(columns) FROM playback_positions
                    WHERE user_id = ? AND entry_id IN (\(databaseQuestionMarks(count: chunk.count)))
                    """,
                arguments: [user.rawValue] + StatementArguments(chunk))
            while let row = try rows.next() {
                let position = decode(row)
                positions[position.entryID] = position
            }
        }
        return positions
    }

    static func inProgress(limit: Int, user: UserID, in db: Database) throws -> [PlaybackPosition] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT \(columns) FROM playback_positions
                WHERE user_id = ? AND finished = 0 ORDER BY saved_at DESC, entry_id DESC LIMIT ?
                """,
            arguments: [user.rawValue, max(0, limit)]
        ).map(decode)
    }

    private static func decode(_ row: Row) -> PlaybackPosition {
        PlaybackPosition(
            entryID: row["entry_id"], seconds: row["seconds"], duration: row["duration"], isPlaying: row["playing"],
            isFinished: row["finished"], device: row["device"],
            savedAt: Date(timeIntervalSince1970: row["saved_at"]))
    }
}
