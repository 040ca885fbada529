import Foundation
import KioskModel
import KioskStore
import PostgresNIO

/// The SQL side of `AccountStore`: users, app passwords, sessions.
enum PostgresAccountRows {
    private static func account(_ row: PostgresRandomAccessRow) throws -> Account {
        Account(
            id: UserID(try row.get("id")), name: try row.get("name"), isAdmin: try row.get("is_admin"),
            homeName: try row.get("home_name"), createdAt: Date(timeIntervalSince1970: try row.get("created_at")))
    }

    static func all(in session: PostgresSession) async throws -> [Account] {
        try await session.rows("SELECT * FROM users ORDER BY id", account)
    }

    static func count(in session: PostgresSession) async throws -> Int {
        try await session.value("SELECT COUNT(*) FROM users", as: Int.self) ?? 0
    }

    static func find(_ id: UserID, in session: PostgresSession) async throws -> Account? {
        try await session.rows("SELECT * FROM users WHERE id = \(id.rawValue)", account).first
    }

    static func credentials(name: String, in session: PostgresSession) async throws
        -> (account: Account, passwordHash: String)?
    {
        try await named(name, in: session) { row in (try account(row), try row.get("password_hash", as: String.self)) }
    }

    /// The user called `name` in any case. `lower()` folds as the server's locale does, and names
    /// may hold any letter ("Émile" is "émile", as in the other stores), so what it misses is
    /// looked for the way Swift compares (case folded, canonically equivalent).
    private static func named<T>(
        _ name: String, in session: PostgresSession, _ transform: (PostgresRandomAccessRow) throws -> T
    ) async throws -> T? {
        let clean = PostgresText.clean(name)
        if let found = try await session.rows("SELECT * FROM users WHERE lower(name) = lower(\(clean))", transform).first {
            return found
        }
        let folded = name.lowercased()
        var match: T?
        try await session.forEachRow("SELECT * FROM users") { row in
            if match == nil, try row.get("name", as: String.self).lowercased() == folded { match = try transform(row) }
        }
        return match
    }

    /// A new account; `.conflict` when the name is taken. Account creation is serialised (an
    /// advisory lock for the transaction), so two replicas adding "Ada" and "ada" at once cannot
    /// both pass the check the unique index on `lower(name)` alone would not catch.
    static func add(name: String, passwordHash: String, isAdmin: Bool, now: Date, in session: PostgresSession)
        async throws -> Account
    {
        try await session.execute("SELECT pg_advisory_xact_lock(\(PostgresStore.accountsLockClass), 0)")
        if try await named(name, in: session, { _ in true }) != nil {
            throw StoreError.conflict("there is already an account named \(name)")
        }
        let id = try await session.value(
            """
            INSERT INTO users (name, password_hash, is_admin, created_at)
            VALUES (\(name), \(passwordHash), \(isAdmin), \(now.timeIntervalSince1970))
            RETURNING id
            """, as: Int64.self)
        guard let id else { throw StoreError.other("the new account was given no id") }
        return Account(id: UserID(id), name: name, isAdmin: isAdmin, createdAt: now)
    }

    /// Deletes the account and all of its state; forgets feeds nobody follows any more.
    static func remove(_ id: UserID, in session: PostgresSession) async throws -> [SourceID] {
        let followed = try await session.rows(
            "SELECT source FROM user_feeds WHERE user_id = \(id.rawValue) ORDER BY source"
        ) { SourceID(rawValue: try $0.get("source")) }
        var forgotten: [SourceID] = []
        for source in followed where try await PostgresSubscriptionRows.remove(source, user: id, in: session) {
            forgotten.append(source)
        }
        try await session.execute("DELETE FROM entry_states WHERE user_id = \(id.rawValue)")
        try await session.execute("DELETE FROM user_marks WHERE user_id = \(id.rawValue)")
        try await session.execute("DELETE FROM app_state WHERE key = \(PostgresAppStateRows.lastOpenedKey(for: id))")
        // Sessions and app passwords go with the row (foreign keys).
        try await session.execute("DELETE FROM users WHERE id = \(id.rawValue)")
        return forgotten
    }

    private static func appPassword(_ row: PostgresRandomAccessRow) throws -> AppPassword {
        AppPassword(
            id: try row.get("id"), user: UserID(try row.get("user_id")), name: try row.get("name"),
            createdAt: Date(timeIntervalSince1970: try row.get("created_at")),
            lastUsedAt: try row.get("last_used_at", as: Double?.self).map(Date.init(timeIntervalSince1970:)))
    }

    static func appPasswords(of user: UserID, in session: PostgresSession) async throws -> [AppPassword] {
        try await session.rows("SELECT * FROM app_passwords WHERE user_id = \(user.rawValue) ORDER BY id", appPassword)
    }

    static func addAppPassword(name: String, secretHash: String, user: UserID, now: Date, in session: PostgresSession)
        async throws -> AppPassword
    {
        let id = try await session.value(
            """
            INSERT INTO app_passwords (user_id, name, secret_hash, created_at)
            VALUES (\(user.rawValue), \(name), \(secretHash), \(now.timeIntervalSince1970))
            RETURNING id
            """, as: Int64.self)
        guard let id else { throw StoreError.other("the new app password was given no id") }
        return AppPassword(id: id, user: user, name: name, createdAt: now)
    }

    static func removeAppPassword(_ id: Int64, user: UserID, in session: PostgresSession) async throws -> Bool {
        try await session.value(
            "DELETE FROM app_passwords WHERE id = \(id) AND user_id = \(user.rawValue) RETURNING id", as: Int64.self) != nil
    }

    static func useAppPassword(secretHash: String, user: UserID, now: Date, in session: PostgresSession) async throws
        -> AppPassword?
    {
        try await session.rows(
            """
            UPDATE app_passwords SET last_used_at = \(now.timeIntervalSince1970)
            WHERE secret_hash = \(secretHash) AND user_id = \(user.rawValue)
            RETURNING *
            """, appPassword
        ).first
    }

    static func feverCredentials(keyHash: String, in session: PostgresSession) async throws
        -> (account: Account, appPassword: AppPassword?)?
    {
        guard let password = try await session.rows(
            "SELECT * FROM app_passwords WHERE fever_key_hash = \(keyHash) ORDER BY id LIMIT 1", appPassword
        ).first
        else { return nil }
        guard let owner = try await find(password.user, in: session) else { return nil }
        return (owner, password)
    }

    static func saveSession(tokenHash: String, _ session: StoredSession, now: Date, in db: PostgresSession) async throws {
        try await db.execute(
            """
            INSERT INTO sessions (token_hash, user_id, kind, csrf, app_password_id, created_at, expires_at)
            VALUES (\(tokenHash), \(session.user.rawValue), \(session.kind.rawValue), \(session.csrf),
                \(session.appPassword), \(now.timeIntervalSince1970), \(session.expiresAt.timeIntervalSince1970))
            """)
        // Expired sessions go as new ones come.
        try await db.execute("DELETE FROM sessions WHERE expires_at < \(now.timeIntervalSince1970)")
    }

    static func session(tokenHash: String, now: Date, in db: PostgresSession) async throws -> StoredSession? {
        let found = try await db.rows(
            "SELECT * FROM sessions WHERE token_hash = \(tokenHash) AND expires_at >= \(now.timeIntervalSince1970)"
        ) { row -> StoredSession? in
            guard let kind = StoredSession.Kind(rawValue: try row.get("kind")) else { return nil }
            return StoredSession(
                user: UserID(try row.get("user_id")), kind: kind, csrf: try row.get("csrf"),
                appPassword: try row.get("app_password_id"),
                expiresAt: Date(timeIntervalSince1970: try row.get("expires_at")))
        }
        return found.first ?? nil
    }
}
