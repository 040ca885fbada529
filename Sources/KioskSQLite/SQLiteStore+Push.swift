import Foundation
import GRDB
import KioskStore

// `PushDeviceStore`: each user's devices for Web Push, and values kept once (the VAPID key).
extension SQLiteStore {
    public func pushDevices(user: UserID) async throws(StoreError) -> [PushDevice] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM push_devices WHERE user_id = ? ORDER BY id", arguments: [user.rawValue])
                .map(PushRows.device)
        }
    }

    public func savePushDevice(
        user: UserID, kind: PushDevice.Kind, endpoint: String, p256dh: String, auth: String, name: String, now: Date
    ) async throws(StoreError) -> PushDevice {
        try await write { db in
            try db.execute(
                sql: """
                    INSERT INTO push_devices (user_id, kind, endpoint, p256dh, auth, name, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (endpoint) DO UPDATE SET user_id = excluded.user_id, kind = excluded.kind,
                        p256dh = excluded.p256dh, auth = excluded.auth, name = excluded.name,
                        created_at = excluded.created_at, last_sent_at = NULL, last_error = NULL
                    WHERE push_devices.kind = 'push' AND excluded.kind = 'push'
                    """,
                arguments: [user.rawValue, kind.rawValue, endpoint, p256dh, auth, name, now.timeIntervalSince1970])
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM push_devices WHERE endpoint = ?", arguments: [endpoint])
            else { throw StoreError.other("the device just kept was not found") }
            return PushRows.device(row)
        }
    }

    @discardableResult
    public func removePushDevice(_ id: Int64, user: UserID) async throws(StoreError) -> Bool {
        try await write { db in
            try db.execute(sql: "DELETE FROM push_devices WHERE id = ? AND user_id = ?", arguments: [id, user.rawValue])
            return db.changesCount > 0
        }
    }

    public func removePushDevice(endpoint: String) async throws(StoreError) {
        try await write { db in try db.execute(sql: "DELETE FROM push_devices WHERE endpoint = ?", arguments: [endpoint]) }
    }

    public func notePushSent(_ id: Int64, at date: Date?, error: String?) async throws(StoreError) {
        try await write { db in
            try db.execute(
                sql: "UPDATE push_devices SET last_sent_at = COALESCE(?, last_sent_at), last_error = ? WHERE id = ?",
                arguments: [date?.timeIntervalSince1970, error, id])
        }
    }

    public func keptValue(_ key: String, orKeep made: @Sendable () -> String) async throws(StoreError) -> String {
        if let kept = try await read({ db in try AppStateRows.value(for: key, in: db) }) { return kept }
        // Made before the write (the closure may not escape into it); kept only if still absent.
        let value = made()
        return try await write { db in
            if let kept = try AppStateRows.value(for: key, in: db) { return kept }
            try AppStateRows.set(value, for: key, in: db)
            return value
        }
    }
}

extension SQLiteStore {
    public func pendingPushes(limit: Int, excluding: Set<UserID>) async throws(StoreError) -> [PendingPush] {
        let skipped = excluding.map(\.rawValue).sorted()
        return try await read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT user_id, entry_id, queued_at FROM push_outbox
                    WHERE user_id NOT IN (\(databaseQuestionMarks(count: skipped.count)))
                    ORDER BY queued_at, entry_id LIMIT ?
                    """,
                arguments: StatementArguments(skipped) + [max(0, limit)]
            ).map {
                PendingPush(
                    user: UserID($0["user_id"] as Int64), entryID: $0["entry_id"],
                    queuedAt: Date(timeIntervalSince1970: $0["queued_at"]))
            }
        }
    }

    public func queuePushes(user: UserID, ids: [Int64], now: Date) async throws(StoreError) {
        try await write { db in try PushRows.queue(ids, user: user, now: now, in: db) }
    }

    public func takePendingPushes(user: UserID, ids: [Int64]) async throws(StoreError) -> [Int64] {
        guard !ids.isEmpty else { return [] }
        return try await write { db in
            try Int64.fetchAll(
                db,
                sql: """
                    DELETE FROM push_outbox WHERE user_id = ? AND entry_id IN (\(databaseQuestionMarks(count: ids.count)))
                    RETURNING entry_id
                    """,
                arguments: [user.rawValue] + StatementArguments(ids))
        }
    }
}

/// The SQL side of `PushDeviceStore`.
enum PushRows {
    /// Queues `ids` for `user`'s devices, when they have any (in the transaction that stored them).
    static func queue(_ ids: [Int64], user: UserID, now: Date, in db: Database) throws {
        guard !ids.isEmpty else { return }
        try db.execute(
            sql: """
                INSERT INTO push_outbox (user_id, entry_id, queued_at)
                SELECT ?, e.id, ? FROM entries e WHERE e.id IN (\(databaseQuestionMarks(count: ids.count)))
                    AND EXISTS (SELECT 1 FROM push_devices WHERE user_id = ?)
                ON CONFLICT DO NOTHING
                """,
            arguments: [user.rawValue, now.timeIntervalSince1970] + StatementArguments(ids) + [user.rawValue])
    }

    static func device(_ row: Row) -> PushDevice {
        PushDevice(
            id: row["id"], user: UserID(row["user_id"] as Int64),
            kind: PushDevice.Kind(rawValue: row["kind"] ?? "") ?? .push, endpoint: row["endpoint"], p256dh: row["p256dh"],
            auth: row["auth"], name: row["name"], createdAt: Date(timeIntervalSince1970: row["created_at"]),
            lastSentAt: (row["last_sent_at"] as Double?).map(Date.init(timeIntervalSince1970:)), lastError: row["last_error"])
    }
}
