import Foundation
import KioskStore
import PostgresNIO

// `PushDeviceStore` on PostgreSQL (see SQLite's `PushRows`).
extension PostgresStore {
    public func pushDevices(user: UserID) async throws(StoreError) -> [PushDevice] {
        try await connection { session in
            try await session.rows("SELECT * FROM push_devices WHERE user_id = \(user.rawValue) ORDER BY id") {
                try PostgresPushRows.device($0)
            }
        }
    }

    public func savePushDevice(
        user: UserID, kind: PushDevice.Kind, endpoint: String, p256dh: String, auth: String, name: String, now: Date
    ) async throws(StoreError) -> PushDevice {
        let (endpoint, p256dh, auth, name) = (
            PostgresText.clean(endpoint), PostgresText.clean(p256dh), PostgresText.clean(auth), PostgresText.clean(name)
        )
        let rows = try await connection { session in
            // A browser another account subscribed: what was queued for that account is not this one's.
            try await session.execute(
                """
                DELETE FROM push_queue WHERE device_id IN (
                    SELECT id FROM push_devices WHERE endpoint = \(endpoint) AND user_id <> \(user.rawValue)
                        AND kind = 'push' AND \(kind.rawValue) = 'push')
                """)
            let saved = try await session.rows(
                """
                INSERT INTO push_devices (user_id, kind, endpoint, p256dh, auth, name, created_at)
                VALUES (\(user.rawValue), \(kind.rawValue), \(endpoint), \(p256dh), \(auth), \(name),
                    \(now.timeIntervalSince1970))
                ON CONFLICT (endpoint) DO UPDATE SET user_id = excluded.user_id, kind = excluded.kind,
                    p256dh = excluded.p256dh, auth = excluded.auth, name = excluded.name,
                    created_at = excluded.created_at, last_sent_at = NULL, last_error = NULL
                WHERE push_devices.kind = 'push' AND excluded.kind = 'push'
                RETURNING *
                """
            ) { try PostgresPushRows.device($0) }
            // A webhook already there (anyone's) is not replaced: it is what is answered.
            guard saved.isEmpty else { return saved }
            return try await session.rows("SELECT * FROM push_devices WHERE endpoint = \(endpoint)") {
                try PostgresPushRows.device($0)
            }
        }
        guard let device = rows.first else { throw StoreError.other("the device just kept was not returned") }
        return device
    }

    @discardableResult
    public func removePushDevice(_ id: Int64, user: UserID) async throws(StoreError) -> Bool {
        try await connection { session in
            let gone: Int64? = try await session.value(
                """
                WITH gone AS (DELETE FROM push_devices WHERE id = \(id) AND user_id = \(user.rawValue) RETURNING 1)
                SELECT count(*)::int8 FROM gone
                """)
            return (gone ?? 0) > 0
        }
    }

    public func removePushDevice(endpoint: String) async throws(StoreError) {
        try await connection { session in
            try await session.execute("DELETE FROM push_devices WHERE endpoint = \(PostgresText.clean(endpoint))")
        }
    }

    public func notePushSent(_ id: Int64, at date: Date?, error: String?) async throws(StoreError) {
        try await connection { session in
            try await session.execute(
                """
                UPDATE push_devices SET last_sent_at = COALESCE(\(date?.timeIntervalSince1970), last_sent_at),
                    last_error = \(PostgresText.clean(error))
                WHERE id = \(id)
                """)
        }
    }

    public func keptValue(_ key: String, orKeep made: @Sendable () -> String) async throws(StoreError) -> String {
        try await connection { session in
            if let kept = try await PostgresAppStateRows.value(for: key, in: session) { return kept }
            // Two replicas at once: the first insert stays, and both read it back.
            try await session.execute(
                "INSERT INTO app_state (key, value) VALUES (\(key), \(made())) ON CONFLICT (key) DO NOTHING")
            guard let kept = try await PostgresAppStateRows.value(for: key, in: session) else {
                throw StoreError.other("the value kept under \(key) was not found")
            }
            return kept
        }
    }
}

extension PostgresStore {
    public func duePushDevices(sentBefore: Date, excluding: Set<Int64>, limit: Int) async throws(StoreError) -> [PushDevice] {
        let skipped = excluding.sorted()
        return try await connection { session in
            try await session.rows(
                """
                SELECT * FROM push_devices d
                WHERE EXISTS (SELECT 1 FROM push_queue q WHERE q.device_id = d.id)
                    AND (d.last_sent_at IS NULL OR d.last_sent_at <= \(sentBefore.timeIntervalSince1970))
                    AND NOT (d.id = ANY(\(skipped)))
                ORDER BY d.id LIMIT \(max(0, limit))
                """
            ) { try PostgresPushRows.device($0) }
        }
    }

    public func movePushWindow(_ device: Int64, from: Date?, to: Date?) async throws(StoreError) -> Bool {
        let from = from?.timeIntervalSince1970
        return try await connection { session in
            // Two replicas at once: the second waits for the first's row lock, then finds the
            // time moved (by a window) and changes nothing. Within a millisecond: a time read
            // back through `Date` may differ in its last bit.
            let moved: Int64? = try await session.value(
                """
                WITH moved AS (
                    UPDATE push_devices SET last_sent_at = \(to?.timeIntervalSince1970)
                    WHERE id = \(device) AND (last_sent_at IS NULL AND \(from)::float8 IS NULL
                        OR abs(last_sent_at - \(from)::float8) < 0.001)
                    RETURNING 1)
                SELECT count(*)::int8 FROM moved
                """)
            return (moved ?? 0) > 0
        }
    }

    public func takePendingPushes(device: Int64, limit: Int) async throws(StoreError) -> [Int64] {
        try await connection { session in
            try await session.rows(
                """
                DELETE FROM push_queue WHERE device_id = \(device) AND entry_id IN (
                    SELECT entry_id FROM push_queue WHERE device_id = \(device) ORDER BY queued_at, entry_id
                    LIMIT \(max(0, limit)))
                RETURNING entry_id
                """
            ) { try $0.get("entry_id") }
        }
    }

    public func queuePushes(device: Int64, ids: [Int64], now: Date) async throws(StoreError) {
        guard !ids.isEmpty else { return }
        try await connection { session in try await PostgresPushRows.queue(ids, for: .device(device), now: now, in: session) }
    }

    public func pendingPushes(limit: Int) async throws(StoreError) -> [PendingPush] {
        try await connection { session in
            try await session.rows(
                "SELECT * FROM push_queue ORDER BY queued_at, entry_id, device_id LIMIT \(max(0, limit))"
            ) { row in
                PendingPush(
                    device: try row.get("device_id"), entryID: try row.get("entry_id"),
                    queuedAt: Date(timeIntervalSince1970: try row.get("queued_at")))
            }
        }
    }
}

/// The SQL side of `PushDeviceStore` on PostgreSQL.
enum PostgresPushRows {
    /// Queues `ids` for `devices` (see SQLite's `PushRows.queue`).
    static func queue(_ ids: [Int64], for devices: PushQueueFor, now: Date, in session: PostgresSession) async throws {
        guard !ids.isEmpty else { return }
        let (column, value) = devices.condition
        try await session.execute(
            """
            INSERT INTO push_queue (device_id, entry_id, queued_at)
            SELECT d.id, e.id, \(now.timeIntervalSince1970) FROM push_devices d JOIN entries e ON e.id = ANY(\(ids))
            WHERE \(unescaped: column) = \(value)
            ON CONFLICT DO NOTHING
            """)
    }

    static func device(_ row: PostgresRandomAccessRow) throws -> PushDevice {
        PushDevice(
            id: try row.get("id"), user: UserID(try row.get("user_id")),
            kind: PushDevice.Kind(rawValue: try row.get("kind", as: String.self)) ?? .push, endpoint: try row.get("endpoint"),
            p256dh: try row.get("p256dh"), auth: try row.get("auth"), name: try row.get("name"),
            createdAt: Date(timeIntervalSince1970: try row.get("created_at")),
            lastSentAt: (try row.get("last_sent_at", as: Double?.self)).map(Date.init(timeIntervalSince1970:)),
            lastError: try row.get("last_error"))
    }
}
