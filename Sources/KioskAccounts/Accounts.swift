import Foundation
import KioskStore

/// Accounts and how people prove who they are: passwords (bcrypt), named app passwords for
/// devices, web sessions and sync-API tokens (random, stored as SHA-256), sign-in throttling.
/// The command line, the web app and the sync APIs all go through it.
public struct Accounts: Sendable {
    /// A session just opened: the token goes to the client once (cookie, `Auth=`), never stored.
    public struct OpenedSession: Sendable {
        public var token: String
        public var session: StoredSession
    }

    private let store: any AccountStore
    private let hasher: PasswordHasher
    private let throttle: SignInThrottle
    /// A hash to check against when the name is unknown, so a wrong name takes as long as a
    /// wrong password (no telling which names exist by timing).
    private let decoyHash: @Sendable () async throws -> String

    public static let webSessionLifetime: Duration = .seconds(30 * 24 * 3_600)
    public static let apiSessionLifetime: Duration = .seconds(365 * 24 * 3_600)

    /// Waits out the throttle's slowdown (tests pass one that records instead of waiting).
    private let pause: @Sendable (Duration) async -> Void

    public init(
        store: any AccountStore, hasher: PasswordHasher, throttle: SignInThrottle? = nil,
        pause: @escaping @Sendable (Duration) async -> Void = { try? await Task.sleep(for: $0) }
    ) {
        self.pause = pause
        self.store = store
        self.hasher = hasher
        self.throttle = throttle ?? SignInThrottle(store: store)
        let decoy = DecoyHash(hasher: hasher)
        self.decoyHash = { try await decoy.value() }
    }

    // MARK: - Managing accounts

    public func list() async throws(AccountError) -> [Account] {
        try await storing { try await store.accounts() }
    }

    /// Whether any account exists (none: the single local owner, on loopback only).
    public func exist() async throws(AccountError) -> Bool {
        try await storing { try await store.accountCount() } > 0
    }

    public func account(_ id: UserID) async throws(AccountError) -> Account? {
        try await storing { try await store.account(id) }
    }

    @discardableResult
    public func add(name: String, password: String, isAdmin: Bool) async throws(AccountError) -> Account {
        let name = try Self.validName(name)
        try Self.checkPassword(password)
        let hash = try await storing { try await hasher.hash(password) }
        let account: Account
        do {
            account = try await store.addAccount(name: name, passwordHash: hash, isAdmin: isAdmin)
        } catch StoreError.conflict {
            throw .nameTaken(name)
        } catch {
            throw .storage("\(error)")
        }
        return account
    }

    /// Sets a new password; every web sign-in made with the old one ends.
    public func changePassword(name: String, to password: String) async throws(AccountError) {
        try Self.checkPassword(password)
        guard let found = try await storing({ try await store.credentials(name: name) }) else {
            throw .unknownAccount(name)
        }
        let hash = try await storing { try await hasher.hash(password) }
        try await storing { try await store.setPasswordHash(hash, user: found.account.id) }
    }

    /// Removes an account and everything of it; returns the feeds nobody follows any more.
    @discardableResult
    public func remove(name: String) async throws(AccountError) -> [String] {
        guard let found = try await storing({ try await store.credentials(name: name) }) else {
            throw .unknownAccount(name)
        }
        return try await storing { try await store.removeAccount(found.account.id) }.map(\.rawValue)
    }

    public func setHomeName(_ name: String?, user: UserID) async throws(AccountError) {
        let trimmed = name?.trimmingCharacters(in: .whitespacesAndNewlines)
        if let trimmed, trimmed.count > 100 { throw .invalidName("A name is at most 100 characters.") }
        try await storing { try await store.setHomeName(trimmed?.isEmpty == false ? trimmed : nil, user: user) }
    }

    /// "Load media through Kiosk" for this account; nil goes back to the server's default.
    public func setMediaThroughKiosk(_ value: Bool?, user: UserID) async throws(AccountError) {
        try await storing { try await store.setMediaThroughKiosk(value, user: user) }
    }

    // MARK: - Proving who you are

    /// Checks a name and password (the account's own, or, when `appPasswords`, one of its app
    /// passwords), throttled per account and per address.
    public func verify(name: String, password: String, address: String, appPasswords: Bool = false)
        async throws(AccountError) -> (account: Account, appPassword: AppPassword?)
    {
        // One read of the failures says both whether to refuse and how long to slow the check.
        let verdict = try await storing { try await throttle.check(account: name, address: address) }
        if let wait = verdict.wait { throw .throttled(retryAfter: wait) }
        let found = try await storing { try await store.credentials(name: name) }
        if let found {
            // An app password first: others' guesses never slow or refuse a device that has one.
            if appPasswords,
                let app = try await storing({
                    try await store.useAppPassword(secretHash: Secret.hash(password), user: found.account.id)
                })
            {
                try await storing { try await throttle.succeeded(account: name, address: address) }
                return (found.account, app)
            }
            if verdict.slowdown > .zero { await pause(verdict.slowdown) }
            if try await storing({ try await hasher.verify(password, found.passwordHash) }) {
                try await storing { try await throttle.succeeded(account: name, address: address) }
                return (found.account, nil)
            }
        } else {
            _ = try? await hasher.verify(password, try await decoyHash())
        }
        try await storing { try await throttle.failed(account: name, address: address) }
        throw .wrongCredentials
    }

    /// The account and app password a Fever API key belongs to: MD5 of `name:app password`. Only
    /// app passwords have Fever keys: Fever's key is a fast hash of the password, so one made from
    /// the account's own password would undo bcrypt for anyone holding the database (an app
    /// password is random, 100 bits, so its fast hash gives nothing away). A wrong key counts
    /// against the address.
    public func verifyFever(apiKey: String, address: String) async throws(AccountError)
        -> (account: Account, appPassword: AppPassword?)
    {
        if let wait = try await storing({ try await throttle.wait(account: "fever:" + address, address: address) }) {
            throw .throttled(retryAfter: wait)
        }
        let key = apiKey.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard key.count == 32, let found = try await storing({ try await store.feverCredentials(keyHash: Secret.hash(key)) })
        else {
            try await storing { try await throttle.failed(account: "fever:" + address, address: address) }
            throw .wrongCredentials
        }
        return found
    }

    /// Opens a session for `account` (a new token every time: a sign-in never reuses an id
    /// someone may have planted).
    public func openSession(_ kind: StoredSession.Kind, for account: Account, appPassword: AppPassword? = nil)
        async throws(AccountError) -> OpenedSession
    {
        let token = Secret.token()
        let lifetime = kind == .web ? Self.webSessionLifetime : Self.apiSessionLifetime
        let session = StoredSession(
            user: account.id, kind: kind, csrf: Secret.token(bytes: 20), appPassword: appPassword?.id,
            expiresAt: Date().addingTimeInterval(Double(lifetime.components.seconds)))
        try await storing { try await store.saveSession(tokenHash: Secret.hash(token), session) }
        return OpenedSession(token: token, session: session)
    }

    /// The session and account a token belongs to, if it is current and of `kind`.
    public func session(token: String, kind: StoredSession.Kind) async throws(AccountError)
        -> (account: Account, session: StoredSession)?
    {
        guard !token.isEmpty, token.utf8.count <= 256 else { return nil }
        guard let found = try await storing({ try await store.sessionAccount(tokenHash: Secret.hash(token)) }),
            found.session.kind == kind
        else { return nil }
        return (found.account, found.session)
    }

    public func closeSession(token: String) async throws(AccountError) {
        try await storing { try await store.removeSession(tokenHash: Secret.hash(token)) }
    }

    // MARK: - App passwords

    /// A new app password for a device: the secret is shown once and only its hash is kept.
    public func createAppPassword(name: String, user: UserID) async throws(AccountError)
        -> (password: AppPassword, secret: String)
    {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.count <= 100,
            !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { throw .invalidName("Name the device in at most 100 characters, for example “iPhone”.") }
        let secret = Secret.appPassword()
        let password = try await storing {
            try await store.addAppPassword(name: trimmed, secretHash: Secret.hash(secret), user: user)
        }
        if let account = try await storing({ try await store.account(user) }) {
            let feverKey = Secret.hash(Secret.feverKey(name: account.name, password: secret))
            try await storing { try await store.setFeverKeyHash(feverKey, appPassword: password.id) }
        }
        return (password, secret)
    }

    public func appPasswords(user: UserID) async throws(AccountError) -> [AppPassword] {
        try await storing { try await store.appPasswords(user: user) }
    }

    /// Revokes an app password and every session opened with it, at once.
    @discardableResult
    public func revokeAppPassword(_ id: Int64, user: UserID) async throws(AccountError) -> Bool {
        try await storing { try await store.removeAppPassword(id, user: user) }
    }

    // MARK: - Rules

    /// Account names: 1 to 64 letters, digits and `. _ - @`, so they survive a URL, a form,
    /// a config file and a shell.
    public static func validName(_ name: String) throws(AccountError) -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "._-@"))
        guard (1...64).contains(trimmed.count), trimmed.unicodeScalars.allSatisfy(allowed.contains) else {
            throw .invalidName("A name is 1 to 64 letters, digits, dots, dashes, underscores or @.")
        }
        return trimmed
    }

    /// Passwords: at least 8 characters, at most 72 bytes (bcrypt reads no further, and a
    /// password it silently cut would be a surprise).
    public static func checkPassword(_ password: String) throws(AccountError) {
        guard password.count >= 8 else { throw .invalidPassword("A password is at least 8 characters.") }
        guard password.utf8.count <= 72 else { throw .invalidPassword("A password is at most 72 bytes.") }
    }

    private func storing<T: Sendable>(_ body: () async throws -> T) async throws(AccountError) -> T {
        do { return try await body() } catch let error as AccountError { throw error } catch {
            throw .storage("\(error)")
        }
    }
}

/// The decoy hash, made once, on first use.
private actor DecoyHash {
    private let hasher: PasswordHasher
    private var hash: String?

    init(hasher: PasswordHasher) { self.hasher = hasher }

    func value() async throws -> String {
        if let hash { return hash }
        let made = try await hasher.hash(Secret.token())
        hash = made
        return made
    }
}
