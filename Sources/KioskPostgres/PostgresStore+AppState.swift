import Foundation
import KioskCore
import KioskModel
import KioskStore
import Logging
import PostgresNIO

// `AppStateStore`: what the app keeps about itself: the public methods, then their SQL.
extension PostgresStore {
    public func lastOpened(user: UserID) async throws(StoreError) -> OpenedHeadline? {
        let json = try await connection { session in
            try await PostgresAppStateRows.value(for: PostgresAppStateRows.lastOpenedKey(for: user), in: session)
        }
        guard let json else { return nil }
        return try OpenedHeadline(storedJSON: json, location: database)
    }

    public func setLastOpened(_ headline: OpenedHeadline, user: UserID) async throws(StoreError) {
        let json = try headline.storedJSON()
        try await connection { session in
            try await PostgresAppStateRows.set(json, for: PostgresAppStateRows.lastOpenedKey(for: user), in: session)
        }
    }

    public func deviceID() async throws(StoreError) -> UUID {
        try await connection { session in try await PostgresAppStateRows.deviceID(in: session) }
    }
}

/// The SQL side of `app_state`: small values by key (the same keys as SQLite's store, so a
/// copied database keeps its device identity and last opened headlines).
enum PostgresAppStateRows {
    static let deviceIDKey = "device_id"

    /// The headline a user opened last: the local owner's key is the one used before accounts.
    static func lastOpenedKey(for user: UserID) -> String {
        user == .owner ? "last_opened" : "last_opened.\(user.rawValue)"
    }

    static func value(for key: String, in session: PostgresSession) async throws -> String? {
        try await session.value("SELECT value FROM app_state WHERE key = \(key)", as: String.self)
    }

    static func set(_ value: String, for key: String, in session: PostgresSession) async throws {
        try await session.execute(
            """
            INSERT INTO app_state (key, value) VALUES (\(key), \(value))
            ON CONFLICT (key) DO UPDATE SET value = excluded.value
            """)
    }

    /// The stored device UUID, or a new one stored now. Two first calls at once (two replicas)
    /// still agree: the insert keeps whichever came first, and both read that back.
    static func deviceID(in session: PostgresSession) async throws -> UUID {
        if let text = try await value(for: deviceIDKey, in: session) {
            if let id = UUID(uuidString: text) { return id }
            // Unreadable (written by hand): replaced, as SQLite's store does.
            let id = UUID()
            try await set(id.uuidString, for: deviceIDKey, in: session)
            return id
        }
        try await session.execute(
            """
            INSERT INTO app_state (key, value) VALUES (\(deviceIDKey), \(UUID().uuidString))
            ON CONFLICT (key) DO NOTHING
            """)
        guard let text = try await value(for: deviceIDKey, in: session), let id = UUID(uuidString: text) else {
            throw StoreError.corrupt(path: "app_state", reason: "the stored device id is not a UUID")
        }
        return id
    }
}
