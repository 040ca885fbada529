import Foundation
import GRDB
import KioskCore
import KioskModel
import KioskStore

// `AccountStore`: accounts, sessions, app passwords and sign-in failures: the public
// methods, then their SQL.
extension SQLiteStore {
    public func accounts() async throws(StoreError) -> [Account] {
        try await read { db in try AccountRows.all(in: db) }
    }

    public func accountCount() async throws(StoreError) -> Int {
        try await read { db in try AccountRows.count(in: db) }
    }

    public func account(_ id: UserID) async throws(StoreError) -> Account? {
        try await read { db in try AccountRows.find(id, in: db) }
    }

    public func credentials(name: String) async throws(StoreError) -> (account: Account, passwordHash: String)? {
        try await read { db in try AccountRows.credentials(name: name, in: db) }
    }

    public func addAccount(name: String, passwordHash: String, isAdmin: Bool) async throws(StoreError) -> Account {
        let now = now()
        return try await write { db in
            try AccountRows.add(name: name, passwordHash: passwordHash, isAdmin: isAdmin, now: now, in: db)
        }
    }

    public func setPasswordHash(_ hash: String, user: UserID) async throws(StoreError) {
        try await write { db in
            try db.execute(sql: "UPDATE users SET password_hash = ? WHERE id = ?", arguments: [hash, user.rawValue])
            // A new password ends every sign-in made with the old one.
            try db.execute(
                sql: "DELETE FROM sessions WHERE user_id = ? AND app_password_id IS NULL", arguments: [user.rawValue])
        }
    }

    public func setHomeName(_ name: String?, user: UserID) async throws(StoreError) {
        try await write { db in
            try db.execute(sql: "UPDATE users SET home_name = ? WHERE id = ?", arguments: [name, user.rawValue])
        }
    }

    public func setMediaThroughKiosk(_ value: Bool?, user: UserID) async throws(StoreError) {
        try await write { db in
            try db.execute(sql: "UPDATE users SET media_through_kiosk = ? WHERE id = ?", arguments: [value, user.rawValue])
        }
    }

    @discardableResult
    public func removeAccount(_ id: UserID) async throws(StoreError) -> [SourceID] {
        try await write { db in try AccountRows.remove(id, in: db) }
    }

    public func addAppPassword(name: String, secretHash: String, user: UserID) async throws(StoreError) -> AppPassword {
        let now = now()
        return try await write { db in
            try AccountRows.addAppPassword(name: name, secretHash: secretHash, user: user, now: now, in: db)
        }
    }

    public func appPasswords(user: UserID) async throws(StoreError) -> [AppPassword] {
        try await read { db in try AccountRows.appPasswords(of: user, in: db) }
    }

    @discardableResult
    public func removeAppPassword(_ id: Int64, user: UserID) async throws(StoreError) -> Bool {
        try await write { db in
            try db.execute(sql: "DELETE FROM app_passwords WHERE id = ? AND user_id = ?", arguments: [id, user.rawValue])
            return db.changesCount > 0
        }
    }

    public func useAppPassword(secretHash: String, user: UserID) async throws(StoreError) -> AppPassword? {
        let now = now()
        return try await write { db in try AccountRows.useAppPassword(secretHash: secretHash, user: user, now: now, in: db) }
    }

    public func setFeverKeyHash(_ hash: String, appPassword: Int64) async throws(StoreError) {
        try await write { db in
            try db.execute(sql: "UPDATE app_passwords SET fever_key_hash = ? WHERE id = ?", arguments: [hash, appPassword])
        }
    }

    public func feverCredentials(keyHash: String) async throws(StoreError) -> (account: Account, appPassword: AppPassword?)? {
        try await read { db in try AccountRows.feverCredentials(keyHash: keyHash, in: db) }
    }

    public func saveSession(tokenHash: String, _ session: StoredSession) async throws(StoreError) {
        let now = now()
        try await write { db in try AccountRows.saveSession(tokenHash: tokenHash, session, now: now, in: db) }
    }

    public func session(tokenHash: String) async throws(StoreError) -> StoredSession? {
        let now = now()
        return try await read { db in try AccountRows.session(tokenHash: tokenHash, now: now, in: db) }
    }

    public func removeSession(tokenHash: String) async throws(StoreError) {
        try await write { db in
            try db.execute(sql: "DELETE FROM sessions WHERE token_hash = ?", arguments: [tokenHash])
        }
    }

    public func recordSignInFailure(account: String, address: String, at: Date, forgetBefore: Date) async throws(StoreError) {
        try await write { db in
            try SignInFailureRows.record(account: account, address: address, at: at, forgetBefore: forgetBefore, in: db)
        }
    }

    public func signInFailures(account: String, address: String, since: Date) async throws(StoreError) -> SignInFailures {
        try await read { db in try SignInFailureRows.failures(account: account, address: address, since: since, in: db) }
    }

    public func clearSignInFailures(account: String, address: String) async throws(StoreError) {
        try await write { db in try SignInFailureRows.clear(account: account, address: address, in: db) }
    }
}

/// The SQL side of `AccountStore`: users, app passwords, sessions.
enum AccountRows {
    private static func account(_ row: Row) -> Account {
        Account(
            id: UserID(row["id"]), name: row["name"], isAdmin: row["is_admin"], homeName: row["home_name"],
            createdAt: Date(timeIntervalSince1970: row["created_at"]), mediaThroughKiosk: row["media_through_kiosk"])
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
        // What else is the user's own (a new account may be given the same id); a device's
        // notification queue goes with it.
        for table in [
            "entry_labels", "hidden_entries", "playback_positions", "rules", "saved_searches", "push_devices",
        ] {
            try db.execute(sql: "DELETE FROM \(table) WHERE user_id = ?", arguments: [id.rawValue])
        }
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

/// The SQL side of the sign-in throttle: one row per failed sign-in, in a window.
enum SignInFailureRows {
    static func record(account: String, address: String, at: Date, forgetBefore: Date, in db: Database) throws {
        try db.execute(
            sql: "DELETE FROM sign_in_failures WHERE at < ?", arguments: [forgetBefore.timeIntervalSince1970])
        try db.execute(
            sql: "INSERT INTO sign_in_failures (account, address, at) VALUES (?, ?, ?)",
            arguments: [account.lowercased(), address, at.timeIntervalSince1970])
    }

    static func failures(account: String, address: String, since: Date, in db: Database) throws -> SignInFailures {
        let account = account.lowercased()
        let row = try Row.fetchOne(
            db,
            sql: """
                SELECT
                    SUM(CASE WHEN account = :account AND address = :address AND NOT cleared THEN 1 ELSE 0 END) AS pair,
                    MIN(CASE WHEN account = :account AND address = :address AND NOT cleared THEN at END) AS pair_oldest,
                    SUM(CASE WHEN address = :address THEN 1 ELSE 0 END) AS by_address,
                    MIN(CASE WHEN address = :address THEN at END) AS address_oldest,
                    SUM(CASE WHEN account = :account THEN 1 ELSE 0 END) AS by_account
                FROM sign_in_failures WHERE at > :since AND (account = :account OR address = :address)
                """,
            arguments: ["account": account, "address": address, "since": since.timeIntervalSince1970])
        func date(_ column: String) -> Date? {
            (row?[column] as Double?).map { Date(timeIntervalSince1970: $0) }
        }
        return SignInFailures(
            pair: row?["pair"] ?? 0, pairOldest: date("pair_oldest"), address: row?["by_address"] ?? 0,
            addressOldest: date("address_oldest"), account: row?["by_account"] ?? 0)
    }

    static func clear(account: String, address: String, in db: Database) throws {
        try db.execute(
            sql: "UPDATE sign_in_failures SET cleared = 1 WHERE account = ? AND address = ?",
            arguments: [account.lowercased(), address])
    }
}
