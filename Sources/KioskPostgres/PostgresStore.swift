import Foundation
import KioskCore
import KioskModel
import KioskStore
import Logging
import PostgresNIO

// Several replicas share one PostgreSQL database: every write is one statement or one
// transaction, so what one replica wrote is whole when another reads it. The client (its pool,
// its `run()`) belongs to the caller; the store only leases connections from it.

/// The PostgreSQL store: the same `KioskStore` as `SQLiteStore`, for several replicas.
public final class PostgresStore: KioskStore {
    private let client: PostgresClient
    private let logger: Logger
    /// The time, for "received at" and state changes (a benchmark simulates days with its own).
    private let now: @Sendable () -> Date
    /// Told how long each transaction took (for `/metrics`).
    private let onWrite: StoreWriteTimer?
    /// What messages call the database (never its password).
    private let database = "the PostgreSQL database"

    /// Advisory lock classes (the first half of a two-key lock) the store takes in transactions.
    static let userLockClass: Int32 = 0x4B_6975  // one user's read and star state
    static let accountsLockClass: Int32 = 0x4B_6961  // adding accounts

    /// A store on `client`, which the caller runs (`client.run()`) for as long as the store is
    /// used. Call `migrate()` once before anything else.
    public init(
        client: PostgresClient, logger: Logger = Logger(label: "kiosk.store.postgres"),
        now: @escaping @Sendable () -> Date = { Date() }, onWrite: StoreWriteTimer? = nil
    ) {
        self.client = client
        self.logger = logger
        self.now = now
        self.onWrite = onWrite
    }

    /// Brings the schema up to date under a session-level advisory lock taken on one connection,
    /// so replicas starting together migrate one after the other. Idempotent.
    public func migrate() async throws {
        try await connection { session in try await PostgresMigrations.migrate(session) }
    }

    /// Whether every migration step has been applied.
    public func isMigrated() async throws -> Bool {
        try await connection { session in try await PostgresMigrations.isComplete(session) }
    }

    /// Moves every identity column's sequence past the largest id in its table, so rows copied
    /// with explicit ids (`SQLiteToPostgres`) are never given an id again.
    public func resetSequences() async throws {
        try await connection { session in try await Self.resetSequences(in: session) }
    }

    /// The tables and columns whose values a sequence gives.
    static let identityColumns: [(table: String, column: String)] = [
        ("entries", "id"), ("subscriptions", "seq"), ("users", "id"), ("app_passwords", "id"),
    ]

    static func resetSequences(in session: PostgresSession) async throws {
        for (table, column) in identityColumns {
            // Names from the list above, never input.
            try await session.execute(
                PostgresQuery(
                    unsafeSQL: """
                        SELECT setval(pg_get_serial_sequence('\(table)', '\(column)'),
                            COALESCE((SELECT MAX(\(column)) FROM \(table)), 0) + 1, false)
                        """))
        }
    }

    /// One feed's state (entries, validators, failures) as `loadSourceStates()` gives it; nil if
    /// unknown. Replicas reload a feed another replica checked.
    public func sourceState(for id: SourceID) async throws(StoreError) -> SourceState? {
        try await connection { session in try await PostgresSourceRows.load(id, in: session) }
    }

    // MARK: - Source states (the engine's view)

    public func loadSourceStates() async throws(StoreError) -> [SourceID: SourceState] {
        try await transaction { session in
            // One snapshot for the sources and their entries.
            try await session.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            return try await PostgresSourceRows.loadAll(in: session)
        }
    }

    public func saveSourceState(_ state: SourceState, for id: SourceID) async throws(StoreError) {
        let now = now()
        try await connection { session in try await PostgresSourceRows.save(state, for: id, now: now, in: session) }
    }

    /// Saves `state` in one transaction with what `alsoWrite` writes on its connection (first):
    /// both commit or neither does (a replica's live log record: see `SourceStateStore`).
    public func saveSourceState(
        _ state: SourceState, for id: SourceID, alsoWrite: @Sendable (PostgresConnection) async throws -> Void
    ) async throws(StoreError) {
        let now = now()
        try await transaction { session in
            try await alsoWrite(session.connection)
            try await PostgresSourceRows.save(state, for: id, now: now, in: session)
        }
    }

    public func entries(for source: SourceID) async throws(StoreError) -> [Entry] {
        try await connection { session in try await PostgresEntryRows.load(of: source, in: session)[source] ?? [] }
    }

    // MARK: - Subscriptions

    public func feeds() async throws(StoreError) -> [Subscription] {
        try await connection { session in try await PostgresSubscriptionRows.feeds(in: session) }
    }

    public func saveFeeds(_ feeds: [Subscription]) async throws(StoreError) {
        try await transaction { session in try await PostgresSubscriptionRows.saveFeeds(feeds, in: session) }
    }

    public func subscriptions(user: UserID) async throws(StoreError) -> [Subscription] {
        try await connection { session in try await PostgresSubscriptionRows.subscriptions(of: user, in: session) }
    }

    public func saveSubscriptions(_ subscriptions: [Subscription], user: UserID) async throws(StoreError) {
        try await transaction { session in
            try await PostgresSubscriptionRows.save(subscriptions, user: user, in: session)
        }
    }

    @discardableResult
    public func removeSubscription(_ id: SourceID, user: UserID) async throws(StoreError) -> Bool {
        try await transaction { session in try await PostgresSubscriptionRows.remove(id, user: user, in: session) }
    }

    public func followers(of id: SourceID) async throws(StoreError) -> [UserID] {
        try await connection { session in try await PostgresSubscriptionRows.followers(of: id, in: session) }
    }

    public func feedHealth() async throws(StoreError) -> [SourceID: FeedHealth] {
        try await connection { session in try await PostgresSubscriptionRows.health(in: session) }
    }

    public func subscriptionsVersion(user: UserID) async throws(StoreError) -> Int64 {
        try await connection { session in try await PostgresSubscriptionRows.version(of: user, in: session) }
    }

    public func touchSubscriptions(user: UserID) async throws(StoreError) {
        try await transaction { session in try await PostgresSubscriptionRows.bumpVersion(of: [user], in: session) }
    }

    public func removeFeed(_ id: SourceID) async throws(StoreError) {
        try await transaction { session in try await PostgresSubscriptionRows.removeFeed(id, in: session) }
    }

    // MARK: - Reading

    public func readingList(_ filter: EntryFilter, user: UserID) async throws(StoreError) -> [StoredEntry] {
        try await connection { session in try await PostgresReadingRows.list(filter, user: user, in: session) }
    }

    public func storedEntry(source: SourceID, key: String, user: UserID) async throws(StoreError) -> StoredEntry? {
        try await connection { session in
            try await PostgresReadingRows.entry(source: source, key: key, user: user, in: session)
        }
    }

    public func storedEntries(ids: [Int64], user: UserID) async throws(StoreError) -> [StoredEntry] {
        try await connection { session in try await PostgresReadingRows.entries(ids: ids, user: user, in: session) }
    }

    public func newestEntryID(sources: [SourceID]?, user: UserID) async throws(StoreError) -> Int64 {
        try await connection { session in
            try await PostgresReadingRows.newestID(sources: sources, user: user, in: session)
        }
    }

    public func itemRefs(_ query: ItemQuery, user: UserID) async throws(StoreError) -> [ItemRef] {
        try await connection { session in try await PostgresItemRefs.itemRefs(query, user: user, in: session) }
    }

    public func newestEntryID(sources: [SourceID]?, receivedBy date: Date, user: UserID) async throws(StoreError)
        -> Int64
    {
        try await connection { session in
            try await PostgresReadingRows.newestID(sources: sources, receivedBy: date, user: user, in: session)
        }
    }

    public func itemCount(user: UserID) async throws(StoreError) -> Int {
        try await connection { session in try await PostgresReadingRows.itemCount(user: user, in: session) }
    }

    public func unreadCounts(user: UserID) async throws(StoreError) -> [SourceID: Int] {
        try await connection { session in try await PostgresReadingRows.unreadCounts(user: user, in: session) }
    }

    public func starredCount(user: UserID) async throws(StoreError) -> Int {
        try await connection { session in try await PostgresReadingRows.starredCount(user: user, in: session) }
    }

    public func setRead(_ read: Bool, ids: [Int64], user: UserID) async throws(StoreError) -> [Int64] {
        let now = now()
        return try await transaction { session in
            try await PostgresReadingRows.setRead(read, ids: ids, user: user, now: now, in: session)
        }
    }

    public func setStarred(_ starred: Bool, ids: [Int64], user: UserID) async throws(StoreError) -> [Int64] {
        let now = now()
        return try await transaction { session in
            try await PostgresReadingRows.setStarred(starred, ids: ids, user: user, now: now, in: session)
        }
    }

    public func markAllRead(sources: [SourceID]?, upTo: Int64, user: UserID) async throws(StoreError) -> [Int64] {
        let now = now()
        return try await transaction { session in
            try await PostgresReadingRows.markAllRead(sources: sources, upTo: upTo, user: user, now: now, in: session)
        }
    }

    @discardableResult
    public func prune(_ policy: RetentionPolicy, now: Date) async throws(StoreError) -> Int {
        try await transaction { session in try await PostgresReadingRows.prune(policy, now: now, in: session) }
    }

    // MARK: - Accounts

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

    // MARK: - App state

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

    // MARK: - Articles

    public func article(entry: Int64) async throws(StoreError) -> StoredArticle? {
        try await connection { session in try await PostgresArticleRows.load(entry: entry, in: session) }
    }

    public func saveArticle(_ article: StoredArticle, entry: Int64) async throws(StoreError) {
        try await connection { session in try await PostgresArticleRows.save(article, entry: entry, in: session) }
    }

    public func articles(entries: [Int64]) async throws(StoreError) -> [Int64: StoredArticle] {
        guard !entries.isEmpty else { return [:] }
        return try await connection { session in try await PostgresArticleRows.load(entries: entries, in: session) }
    }

    public func claimArticleFetch(entry: Int64, until: Date, now: Date) async throws(StoreError) -> Bool {
        try await connection { session in
            try await PostgresArticleRows.claim(entry: entry, until: until, now: now, in: session)
        }
    }

    public func fullArticleFeeds() async throws(StoreError) -> [FullArticleFeed] {
        try await connection { session in try await PostgresArticleRows.fullArticleFeeds(in: session) }
    }

    public func entriesWithoutArticles(of source: SourceID, limit: Int) async throws(StoreError) -> [ArticleWanted] {
        try await connection { session in
            try await PostgresArticleRows.entriesWithoutArticles(of: source, limit: limit, in: session)
        }
    }

    // MARK: - Search

    public func search(_ text: String, limit: Int, user: UserID?) async throws(StoreError) -> [SearchHit] {
        guard limit > 0, let query = PostgresSearchText.tsQuery(text) else { return [] }
        return try await connection { session in
            try await PostgresEntryRows.search(query, limit: limit, user: user, in: session)
        }
    }

    // MARK: - Access

    /// A leased connection (each statement its own transaction), its errors as `StoreError`.
    func connection<T: Sendable>(_ body: (PostgresSession) async throws -> T) async throws(StoreError) -> T {
        do {
            return try await client.withConnection { connection in
                try await body(PostgresSession(connection: connection, logger: logger))
            }
        } catch {
            throw StoreError.postgres(error, database: database)
        }
    }

    /// A transaction (committed when `body` returns, rolled back when it throws), its errors as
    /// `StoreError`.
    func transaction<T: Sendable>(_ body: (PostgresSession) async throws -> T) async throws(StoreError) -> T {
        let clock = ContinuousClock()
        let start = clock.now
        defer { onWrite?(clock.now - start) }
        do {
            return try await client.withTransaction(logger: logger) { connection in
                try await body(PostgresSession(connection: connection, logger: logger))
            }
        } catch {
            throw StoreError.postgres(error, database: database)
        }
    }
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
