import Foundation
import KioskCore
import KioskModel
import KioskStore
import Logging
import PostgresNIO

// `AccountStore`: accounts, sessions, app passwords and sign-in failures: the public
// methods, then their SQL.
extension PostgresStore {
    public func accounts() async throws(StoreError) -> [Account] {
        try await connection { session in try await PostgresAccountRows.all(in: session) }
    }

    public func accountCount() async throws(StoreError) -> Int {
        try await connection { session in try await PostgresAccountRows.count(in: session) }
    }

    public func account(_ id: UserID) async throws(StoreError) -> Account? {
        try await connection { session in try await PostgresAccountRows.find(id, in: session) }
    }

    public func credentials(name: String) async throws(StoreError) -> (account: Account, passwordHash: String)? {
        let found = try await connection { session in
            try await PostgresAccountRows.credentials(name: name, in: session).map { Credentials(account: $0.account, hash: $0.passwordHash) }
        }
        return found.map { ($0.account, $0.hash) }
    }

    public func addAccount(name: String, passwordHash: String, isAdmin: Bool) async throws(StoreError) -> Account {
        let now = now()
        return try await transaction { session in
            try await PostgresAccountRows.add(name: name, passwordHash: passwordHash, isAdmin: isAdmin, now: now, in: session)
        }
    }

    public func setPasswordHash(_ hash: String, user: UserID) async throws(StoreError) {
        try await transaction { session in
            try await session.execute("UPDATE users SET password_hash = \(hash) WHERE id = \(user.rawValue)")
            // A new password ends every sign-in made with the old one.
            try await session.execute(
                "DELETE FROM sessions WHERE user_id = \(user.rawValue) AND app_password_id IS NULL")
        }
    }

    public func setHomeName(_ name: String?, user: UserID) async throws(StoreError) {
        try await connection { session in
            try await session.execute("UPDATE users SET home_name = \(name) WHERE id = \(user.rawValue)")
        }
    }

    public func setMediaThroughKiosk(_ value: Bool?, user: UserID) async throws(StoreError) {
        try await connection { session in
            try await session.execute("UPDATE users SET media_through_kiosk = \(value) WHERE id = \(user.rawValue)")
        }
    }

    @discardableResult
    public func removeAccount(_ id: UserID) async throws(StoreError) -> [SourceID] {
        try await transaction { session in try await PostgresAccountRows.remove(id, in: session) }
    }

    public func addAppPassword(name: String, secretHash: String, user: UserID) async throws(StoreError) -> AppPassword {
        let now = now()
        return try await connection { session in
            try await PostgresAccountRows.addAppPassword(
                name: name, secretHash: secretHash, user: user, now: now, in: session)
        }
    }

    public func appPasswords(user: UserID) async throws(StoreError) -> [AppPassword] {
        try await connection { session in try await PostgresAccountRows.appPasswords(of: user, in: session) }
    }

    @discardableResult
    public func removeAppPassword(_ id: Int64, user: UserID) async throws(StoreError) -> Bool {
        try await connection { session in try await PostgresAccountRows.removeAppPassword(id, user: user, in: session) }
    }

    public func useAppPassword(secretHash: String, user: UserID) async throws(StoreError) -> AppPassword? {
        let now = now()
        return try await connection { session in
            try await PostgresAccountRows.useAppPassword(secretHash: secretHash, user: user, now: now, in: session)
        }
    }

    public func setFeverKeyHash(_ hash: String, appPassword: Int64) async throws(StoreError) {
        try await connection { session in
            try await session.execute("UPDATE app_passwords SET fever_key_hash = \(hash) WHERE id = \(appPassword)")
        }
    }

    public func feverCredentials(keyHash: String) async throws(StoreError) -> (account: Account, appPassword: AppPassword?)? {
        let found = try await connection { session in
            try await PostgresAccountRows.feverCredentials(keyHash: keyHash, in: session).map {
                FeverCredentials(account: $0.account, appPassword: $0.appPassword)
            }
        }
        return found.map { ($0.account, $0.appPassword) }
    }

    public func saveSession(tokenHash: String, _ session: StoredSession) async throws(StoreError) {
        let now = now()
        try await transaction { db in try await PostgresAccountRows.saveSession(tokenHash: tokenHash, session, now: now, in: db) }
    }

    public func session(tokenHash: String) async throws(StoreError) -> StoredSession? {
        let now = now()
        return try await connection { db in try await PostgresAccountRows.session(tokenHash: tokenHash, now: now, in: db) }
    }

    /// One round trip for both (every signed-in request reads them).
    public func sessionAccount(tokenHash: String) async throws(StoreError) -> (session: StoredSession, account: Account)? {
        let now = now()
        let found = try await connection { db in
            try await PostgresAccountRows.sessionAccount(tokenHash: tokenHash, now: now, in: db)
        }
        return found.map { ($0.session, $0.account) }
    }

    public func removeSession(tokenHash: String) async throws(StoreError) {
        try await connection { session in try await session.execute("DELETE FROM sessions WHERE token_hash = \(tokenHash)") }
    }

    public func recordSignInFailure(account: String, address: String, at: Date, forgetBefore: Date) async throws(StoreError) {
        try await connection { session in
            try await PostgresSignInFailureRows.record(
                account: account, address: address, at: at, forgetBefore: forgetBefore, in: session)
        }
    }

    public func signInFailures(account: String, address: String, since: Date) async throws(StoreError) -> SignInFailures {
        try await connection { session in
            try await PostgresSignInFailureRows.failures(account: account, address: address, since: since, in: session)
        }
    }

    public func clearSignInFailures(account: String, address: String) async throws(StoreError) {
        try await connection { session in try await PostgresSignInFailureRows.clear(account: account, address: address, in: session) }
    }
}

/// The SQL side of `AccountStore`: users, app passwords, sessions.
enum PostgresAccountRows {
    private static func account(_ row: PostgresRandomAccessRow) throws -> Account {
        Account(
            id: UserID(try row.get("id")), name: try row.get("name"), isAdmin: try row.get("is_admin"),
            homeName: try row.get("home_name"), createdAt: Date(timeIntervalSince1970: try row.get("created_at")),
            mediaThroughKiosk: try row.get("media_through_kiosk"))
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
        // What else is the user's own (a new account may be given the same id); a device's
        // notification queue goes with it.
        for table in [
            "entry_labels", "hidden_entries", "playback_positions", "rules", "saved_searches", "push_devices",
            "push_outbox",
        ] {
            try await session.execute("DELETE FROM \(unescaped: table) WHERE user_id = \(id.rawValue)")
        }
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

    static func sessionAccount(tokenHash: String, now: Date, in db: PostgresSession) async throws -> SessionAccount? {
        let found = try await db.rows(
            """
            SELECT s.user_id, s.kind, s.csrf, s.app_password_id, s.expires_at,
                u.name, u.is_admin, u.home_name, u.created_at, u.media_through_kiosk
            FROM sessions s JOIN users u ON u.id = s.user_id
            WHERE s.token_hash = \(tokenHash) AND s.expires_at >= \(now.timeIntervalSince1970)
            """
        ) { row -> SessionAccount? in
            guard let kind = StoredSession.Kind(rawValue: try row.get("kind")) else { return nil }
            let user = UserID(try row.get("user_id"))
            return SessionAccount(
                session: StoredSession(
                    user: user, kind: kind, csrf: try row.get("csrf"), appPassword: try row.get("app_password_id"),
                    expiresAt: Date(timeIntervalSince1970: try row.get("expires_at"))),
                account: Account(
                    id: user, name: try row.get("name"), isAdmin: try row.get("is_admin"), homeName: try row.get("home_name"),
                    createdAt: Date(timeIntervalSince1970: try row.get("created_at")),
                    mediaThroughKiosk: try row.get("media_through_kiosk")))
        }
        return found.first ?? nil
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

/// The SQL side of the sign-in throttle on PostgreSQL: one row per failed sign-in, in a window,
/// shared by every replica.
enum PostgresSignInFailureRows {
    static func record(account: String, address: String, at: Date, forgetBefore: Date, in session: PostgresSession)
        async throws
    {
        let account = account.lowercased()
        let at = at.timeIntervalSince1970
        let forget = forgetBefore.timeIntervalSince1970
        try await session.execute("DELETE FROM sign_in_failures WHERE at < \(forget)")
        try await session.execute("INSERT INTO sign_in_failures (account, address, at) VALUES (\(account), \(address), \(at))")
    }

    static func failures(account: String, address: String, since: Date, in session: PostgresSession) async throws
        -> SignInFailures
    {
        let account = account.lowercased()
        let since = since.timeIntervalSince1970
        let rows = try await session.rows(
            """
            SELECT
                count(*) FILTER (WHERE account = \(account) AND address = \(address) AND NOT cleared) AS pair,
                min(at) FILTER (WHERE account = \(account) AND address = \(address) AND NOT cleared) AS pair_oldest,
                count(*) FILTER (WHERE address = \(address)) AS by_address,
                min(at) FILTER (WHERE address = \(address)) AS address_oldest,
                count(*) FILTER (WHERE account = \(account)) AS by_account
            FROM sign_in_failures WHERE at > \(since) AND (account = \(account) OR address = \(address))
            """
        ) { row -> SignInFailures in
            let pairOldest: Double? = try row.get("pair_oldest")
            let addressOldest: Double? = try row.get("address_oldest")
            let pair: Int64 = try row.get("pair")
            let byAddress: Int64 = try row.get("by_address")
            let byAccount: Int64 = try row.get("by_account")
            return SignInFailures(
                pair: Int(pair), pairOldest: pairOldest.map(Date.init(timeIntervalSince1970:)), address: Int(byAddress),
                addressOldest: addressOldest.map(Date.init(timeIntervalSince1970:)), account: Int(byAccount))
        }
        return rows.first ?? SignInFailures()
    }

    static func clear(account: String, address: String, in session: PostgresSession) async throws {
        let account = account.lowercased()
        try await session.execute(
            "UPDATE sign_in_failures SET cleared = true WHERE account = \(account) AND address = \(address)")
    }
}

/// A session and its account, read in one statement.
struct SessionAccount: Sendable {
    var session: StoredSession
    var account: Account
}

/// An account and its password hash, as one Sendable value (tuples are not).
private struct Credentials: Sendable {
    var account: Account
    var hash: String
}

/// An account and the app password whose Fever key matched.
private struct FeverCredentials: Sendable {
    var account: Account
    var appPassword: AppPassword?
}
