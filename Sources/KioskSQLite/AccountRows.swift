import Foundation
import GRDB
import KioskModel
import KioskStore

/// The SQL side of `AccountStore`: users, app passwords, sessions.
enum AccountRows {
    private static func account(_ row: Row) -> Account {
        Account(
            id: UserID(row["id"]), name: row["name"], isAdmin: row["is_admin"], homeName: row["home_name"],
            createdAt: Date(timeIntervalSince1970: row["created_at"]))
    }

    static func all(in db: Database) throws -> [Account] {
        try Row.fetchAll(db, sql: "SELECT * FROM users ORDER BY id").map(account)
    }

    static func count(in db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM users") ?? 0
    }

    static func find(_ id: UserID, in db: Database) throws -> Account? {
        try Row.fetchOne(db, sql: "SELECT * FROM users WHERE id = ?", arguments: [id.rawValue]).map(account)
    }

    static func credentials(name: String, in db: Database) throws -> (account: Account, passwordHash: String)? {
        guard let row = try named(name, in: db) else { return nil }
        return (account(row), row["password_hash"])
    }

    /// The user called `name` in any case. `COLLATE NOCASE` folds ASCII letters only, and names
    /// may hold any letter ("Émile" is "émile", as in the in-memory store and the throttle), so
    /// what it misses is looked for the way Swift compares (case folded, canonically equivalent).
    private static func named(_ name: String, in db: Database) throws -> Row? {
        if let row = try Row.fetchOne(db, sql: "SELECT * FROM users WHERE name = ?", arguments: [name]) { return row }
        let folded = name.lowercased()
        return try Row.fetchAll(db, sql: "SELECT * FROM users").first { ($0["name"] as String).lowercased() == folded }
    }

    static func add(name: String, passwordHash: String, isAdmin: Bool, now: Date, in db: Database) throws -> Account {
        if try named(name, in: db) != nil {
            throw StoreError.conflict("there is already an account named \(name)")
        }
        try db.execute(
            sql: "INSERT INTO users (name, password_hash, is_admin, created_at) VALUES (?, ?, ?, ?)",
            arguments: [name, passwordHash, isAdmin, now.timeIntervalSince1970])
        return Account(id: UserID(db.lastInsertedRowID), name: name, isAdmin: isAdmin, createdAt: now)
    }

    /// Deletes the account and all of its state; forgets feeds nobody follows any more.
    static func remove(_ id: UserID, in db: Database) throws -> [SourceID] {
        let followed = try String.fetchAll(
            db, sql: "SELECT source FROM user_feeds WHERE user_id = ?", arguments: [id.rawValue])
        var forgotten: [SourceID] = []
        for source in followed where try SubscriptionRows.remove(SourceID(rawValue: source), user: id, in: db) {
            forgotten.append(SourceID(rawValue: source))
        }
        try db.execute(sql: "DELETE FROM entry_states WHERE user_id = ?", arguments: [id.rawValue])
        try db.execute(sql: "DELETE FROM user_marks WHERE user_id = ?", arguments: [id.rawValue])
        try db.execute(sql: "DELETE FROM app_state WHERE key = ?", arguments: [AppStateRows.lastOpenedKey(for: id)])
        // Sessions and app passwords go with the row (foreign keys).
        try db.execute(sql: "DELETE FROM users WHERE id = ?", arguments: [id.rawValue])
        return forgotten
    }

    private static func appPassword(_ row: Row) -> AppPassword {
        AppPassword(
            id: row["id"], user: UserID(row["user_id"]), name: row["name"],
            createdAt: Date(timeIntervalSince1970: row["created_at"]),
            lastUsedAt: (row["last_used_at"] as Double?).map(Date.init(timeIntervalSince1970:)))
    }

    static func appPasswords(of user: UserID, in db: Database) throws -> [AppPassword] {
        try Row.fetchAll(db, sql: "SELECT * FROM app_passwords WHERE user_id = ? ORDER BY id", arguments: [user.rawValue])
            .map(appPassword)
    }

    static func addAppPassword(name: String, secretHash: String, user: UserID, now: Date, in db: Database) throws
        -> AppPassword
    {
        try db.execute(
            sql: "INSERT INTO app_passwords (user_id, name, secret_hash, created_at) VALUES (?, ?, ?, ?)",
            arguments: [user.rawValue, name, secretHash, now.timeIntervalSince1970])
        return AppPassword(id: db.lastInsertedRowID, user: user, name: name, createdAt: now)
    }

    static func useAppPassword(secretHash: String, user: UserID, now: Date, in db: Database) throws -> AppPassword? {
        guard let row = try Row.fetchOne(
            db, sql: "SELECT * FROM app_passwords WHERE secret_hash = ? AND user_id = ?", arguments: [secretHash, user.rawValue])
        else { return nil }
        var found = appPassword(row)
        found.lastUsedAt = now
        try db.execute(
            sql: "UPDATE app_passwords SET last_used_at = ? WHERE id = ?", arguments: [now.timeIntervalSince1970, found.id])
        return found
    }

    static func feverCredentials(keyHash: String, in db: Database) throws -> (account: Account, appPassword: AppPassword?)? {
        guard let row = try Row.fetchOne(
            db, sql: "SELECT * FROM app_passwords WHERE fever_key_hash = ?", arguments: [keyHash])
        else { return nil }
        let password = appPassword(row)
        guard let owner = try find(password.user, in: db) else { return nil }
        return (owner, password)
    }

    static func saveSession(tokenHash: String, _ session: StoredSession, now: Date, in db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO sessions (token_hash, user_id, kind, csrf, app_password_id, created_at, expires_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                tokenHash, session.user.rawValue, session.kind.rawValue, session.csrf, session.appPassword,
                now.timeIntervalSince1970, session.expiresAt.timeIntervalSince1970,
            ])
        // Expired sessions go as new ones come.
        try db.execute(sql: "DELETE FROM sessions WHERE expires_at < ?", arguments: [now.timeIntervalSince1970])
    }

    static func session(tokenHash: String, now: Date, in db: Database) throws -> StoredSession? {
        guard let row = try Row.fetchOne(
            db, sql: "SELECT * FROM sessions WHERE token_hash = ? AND expires_at >= ?",
            arguments: [tokenHash, now.timeIntervalSince1970])
        else { return nil }
        guard let kind = StoredSession.Kind(rawValue: row["kind"]) else { return nil }
        return StoredSession(
            user: UserID(row["user_id"]), kind: kind, csrf: row["csrf"],
            appPassword: row["app_password_id"], expiresAt: Date(timeIntervalSince1970: row["expires_at"]))
    }
}
