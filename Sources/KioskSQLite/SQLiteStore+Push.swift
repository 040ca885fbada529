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
            // A browser another account subscribed: what was queued for that account is not this one's.
            try db.execute(
                sql: """
                    DELETE FROM push_queue WHERE device_id IN (
                        SELECT id FROM push_devices WHERE endpoint = ? AND user_id <> ? AND kind = 'push' AND ? = 'push')
                    """,
                arguments: [endpoint, user.rawValue, kind.rawValue])
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
    public func duePushDevices(sentBefore: Date, excluding: Set<Int64>, limit: Int) async throws(StoreError) -> [PushDevice] {
        let skipped = excluding.sorted()
        return try await read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT * FROM push_devices d
                    WHERE EXISTS (SELECT 1 FROM push_queue q WHERE q.device_id = d.id)
                        AND (d.last_sent_at IS NULL OR d.last_sent_at <= ?)
                        AND d.id NOT IN (\(databaseQuestionMarks(count: skipped.count)))
                    ORDER BY d.id LIMIT ?
                    """,
                arguments: [sentBefore.timeIntervalSince1970] + StatementArguments(skipped) + [max(0, limit)]
            ).map(PushRows.device)
        }
    }

    public func movePushWindow(_ device: Int64, from: Date?, to: Date?) async throws(StoreError) -> Bool {
        let from = from?.timeIntervalSince1970
        return try await write { db in
            // Within a millisecond: a time read back through `Date` may differ in its last bit,
            // and another replica's claim moves it by a whole window.
            try db.execute(
                sql: """
                    UPDATE push_devices SET last_sent_at = ?
                    WHERE id = ? AND (last_sent_at IS NULL AND ? IS NULL OR abs(last_sent_at - ?) < 0.001)
                    """,
                arguments: [to?.timeIntervalSince1970, device, from, from])
            return db.changesCount > 0
        }
    }

    public func takePendingPushes(device: Int64, limit: Int) async throws(StoreError) -> [Int64] {
        try await write { db in
            try Int64.fetchAll(
                db,
                sql: """
                    DELETE FROM push_queue WHERE device_id = ? AND entry_id IN (
                        SELECT entry_id FROM push_queue WHERE device_id = ? ORDER BY queued_at, entry_id LIMIT ?)
                    RETURNING entry_id
                    """,
                arguments: [device, device, max(0, limit)])
        }
    }

    public func queuePushes(device: Int64, ids: [Int64], now: Date) async throws(StoreError) {
        guard !ids.isEmpty else { return }
        try await write { db in try PushRows.queue(ids, for: .device(device), now: now, in: db) }
    }

    public func pendingPushes(limit: Int) async throws(StoreError) -> [PendingPush] {
        try await read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM push_queue ORDER BY queued_at, entry_id, device_id LIMIT ?", arguments: [max(0, limit)]
            ).map {
                PendingPush(device: $0["device_id"], entryID: $0["entry_id"], queuedAt: Date(timeIntervalSince1970: $0["queued_at"]))
            }
        }
    }
}

/// The SQL side of `PushDeviceStore`.
enum PushRows {
    /// Queues `ids` for `devices`.
    static func queue(_ ids: [Int64], for devices: PushQueueFor, now: Date, in db: Database) throws {
        guard !ids.isEmpty else { return }
        let (column, value) = devices.condition
        try db.execute(
            sql: """
                INSERT INTO push_queue (device_id, entry_id, queued_at)
                SELECT d.id, e.id, ? FROM push_devices d JOIN entries e ON e.id IN (\(databaseQuestionMarks(count: ids.count)))
                WHERE \(column) = ?
                ON CONFLICT DO NOTHING
                """,
            arguments: [now.timeIntervalSince1970] + StatementArguments(ids) + [value])
    }

    static func device(_ row: Row) -> PushDevice {
        PushDevice(
            id: row["id"], user: UserID(row["user_id"] as Int64),
            kind: PushDevice.Kind(rawValue: row["kind"] ?? "") ?? .push, endpoint: row["endpoint"], p256dh: row["p256dh"],
            auth: row["auth"], name: row["name"], createdAt: Date(timeIntervalSince1970: row["created_at"]),
            lastSentAt: (row["last_sent_at"] as Double?).map(Date.init(timeIntervalSince1970:)), lastError: row["last_error"])
    }
}
