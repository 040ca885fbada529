import Foundation
import KioskModel
import KioskStore
import PostgresNIO

// `ListeningStore` on PostgreSQL: where each user stopped in an episode (see SQLite's `PositionRows`).
extension PostgresStore {
    public func savePosition(_ position: PlaybackPosition, user: UserID) async throws(StoreError) -> Bool {
        let device = PostgresText.clean(position.device)
        return try await connection { session in
            let saved = try await session.rows(
                """
                INSERT INTO playback_positions (user_id, entry_id, seconds, duration, playing, finished, device, saved_at)
                SELECT \(user.rawValue), e.id, \(position.seconds), \(position.duration), \(position.isPlaying),
                    \(position.isFinished), \(device), \(position.savedAt.timeIntervalSince1970)
                FROM entries e
                WHERE e.id = \(position.entryID) AND e.source IN (SELECT source FROM user_feeds WHERE user_id = \(user.rawValue))
                ON CONFLICT (user_id, entry_id) DO UPDATE SET seconds = excluded.seconds, duration = excluded.duration,
                    playing = excluded.playing, finished = excluded.finished, device = excluded.device,
                    saved_at = excluded.saved_at
                WHERE playback_positions.saved_at <= excluded.saved_at
                RETURNING entry_id
                """
            ) { row in try row.get("entry_id", as: Int64.self) }
            if !saved.isEmpty { return true }
            // Older than the place kept (sent late): the entry is the user's all the same.
            return try await session.rows(
                """
                SELECT EXISTS (SELECT 1 FROM entries e WHERE e.id = \(position.entryID)
                    AND e.source IN (SELECT source FROM user_feeds WHERE user_id = \(user.rawValue))) AS followed
                """
            ) { row in try row.get("followed", as: Bool.self) }.first ?? false
        }
    }

    public func positions(ids: [Int64], user: UserID) async throws(StoreError) -> [Int64: PlaybackPosition] {
        guard !ids.isEmpty else { return [:] }
        return try await connection { session in
            var positions: [Int64: PlaybackPosition] = [:]
            try await session.forEachRow(
                """
                SELECT entry_id, seconds, duration, playing, finished, device, saved_at FROM playback_positions
                WHERE user_id = \(user.rawValue) AND entry_id = ANY(\(ids))
                """
            ) { row in
                let position = try PostgresPositionRows.decode(row)
                positions[position.entryID] = position
            }
            return positions
        }
    }

    public func positionsInProgress(limit: Int, user: UserID) async throws(StoreError) -> [PlaybackPosition] {
        try await connection { session in
            try await session.rows(
                """
                SELECT entry_id, seconds, duration, playing, finished, device, saved_at FROM playback_positions
                WHERE user_id = \(user.rawValue) AND NOT finished ORDER BY saved_at DESC, entry_id DESC LIMIT \(max(0, limit))
                """, PostgresPositionRows.decode)
        }
    }
}

extension PostgresStore {
    public func hasFiles(amongLatest latest: Int, user: UserID) async throws(StoreError) -> Bool {
        try await connection { session in
            try await session.rows(
                """
                SELECT EXISTS (SELECT 1 FROM (
                    SELECT e.json FROM entries e WHERE e.source IN (SELECT source FROM user_feeds WHERE user_id = \(user.rawValue))
                    ORDER BY e.id DESC LIMIT \(max(0, latest))) e
                WHERE \(unescaped: EntryFiles.condition(column: "e.json"))) AS found
                """
            ) { row in try row.get("found", as: Bool.self) }.first ?? false
        }
    }
}

/// Rows of `playback_positions` as values.
enum PostgresPositionRows {
    static func decode(_ row: PostgresRandomAccessRow) throws -> PlaybackPosition {
        PlaybackPosition(
            entryID: try row.get("entry_id"), seconds: try row.get("seconds"), duration: try row.get("duration"),
            isPlaying: try row.get("playing"), isFinished: try row.get("finished"), device: try row.get("device"),
            savedAt: Date(timeIntervalSince1970: try row.get("saved_at")))
    }
}
