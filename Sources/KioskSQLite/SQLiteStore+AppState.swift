import Foundation
import GRDB
import KioskCore
import KioskModel
import KioskStore

// `AppStateStore`: what the app keeps about itself: the public methods, then their SQL.
extension SQLiteStore {
    public func lastOpened(user: UserID) async throws(StoreError) -> OpenedHeadline? {
        let json = try await read { db in try AppStateRows.value(for: AppStateRows.lastOpenedKey(for: user), in: db) }
        guard let json else { return nil }
        return try OpenedHeadline(storedJSON: json, location: path)
    }

    public func setLastOpened(_ headline: OpenedHeadline, user: UserID) async throws(StoreError) {
        let json = try headline.storedJSON()
        try await write { db in try AppStateRows.set(json, for: AppStateRows.lastOpenedKey(for: user), in: db) }
    }

    public func deviceID() async throws(StoreError) -> UUID {
        // Read first: a read-only database that has one still answers.
        let stored = try await read { db in try AppStateRows.value(for: AppStateRows.deviceIDKey, in: db) }
        if let stored, let id = UUID(uuidString: stored) { return id }
        return try await write { db in try AppStateRows.deviceID(in: db) }
    }
}

/// The SQL side of `app_state`: small values by key.
enum AppStateRows {
    static let deviceIDKey = "device_id"
    /// The headline a user opened last: the local owner's key is the one used before accounts.
    static func lastOpenedKey(for user: UserID) -> String {
        user == .owner ? "last_opened" : "last_opened.\(user.rawValue)"
    }

    static func value(for key: String, in db: Database) throws -> String? {
        try String.fetchOne(db, sql: "SELECT value FROM app_state WHERE key = ?", arguments: [key])
    }

    static func set(_ value: String, for key: String, in db: Database) throws {
        try db.execute(
            sql: "INSERT INTO app_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            arguments: [key, value])
    }

    /// The stored device UUID, or a new one stored now. Runs in one write transaction, so two
    /// first calls at once still agree on one UUID.
    static func deviceID(in db: Database) throws -> UUID {
        if let text = try value(for: deviceIDKey, in: db), let id = UUID(uuidString: text) { return id }
        let id = UUID()
        try set(id.uuidString, for: deviceIDKey, in: db)
        return id
    }
}
