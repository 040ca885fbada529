import Foundation
import GRDB
import KioskCore
import KioskModel
import KioskStore

// One SQLite file in WAL mode: the engine's writes never block the web app's reads, and a crash
// loses at most the transaction in flight. GRDB serialises writes on one connection and runs
// reads on a small pool, off the caller's executor.

/// The SQLite store: the default `KioskStore`, one file on one machine.
public final class SQLiteStore: KioskStore {
    /// A pool on a file, a queue in memory: both are writers, and the store needs nothing more.
    private let writer: any DatabaseWriter
    /// Where the database lives, for messages.
    public let path: String
    /// The time, for "received at" and state changes (a benchmark simulates days with its own).
    private let now: @Sendable () -> Date
    /// Told how long each write transaction took (for `/metrics`).
    private let onWrite: StoreWriteTimer?

    /// Opens (creating it and its folders if needed) the database at `path` and brings its
    /// schema up to date.
    /// - Parameter readOnly: open without ever writing (no migration; the schema must be
    ///   current); every save then fails with `StoreError.readOnly`.
    /// - Parameter onWrite: told how long each write transaction took, queueing included.
    public init(
        path: URL, readOnly: Bool = false, now: @escaping @Sendable () -> Date = { Date() }, onWrite: StoreWriteTimer? = nil
    ) throws(StoreError) {
        let location = path.path
        if !readOnly {
            do {
                try FileManager.default.createDirectory(
                    at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
            } catch {
                throw .cannotOpen(path: location, reason: "its folder cannot be created: \(error.localizedDescription)")
            }
        }
        do {
            let pool = try DatabasePool(path: location, configuration: Self.configuration(readOnly: readOnly))
            if readOnly {
                guard try pool.read({ db in try Migrations.migrator.hasCompletedMigrations(db) }) else {
                    throw StoreError.cannotOpen(
                        path: location, reason: "its schema is not this Kiosk's, and it was opened read-only")
                }
            } else {
                try Migrations.migrator.migrate(pool)
            }
            writer = pool
        } catch {
            throw StoreError(error, path: location)
        }
        self.path = location
        self.now = now
        self.onWrite = onWrite
    }

    private init(writer: any DatabaseWriter, path: String) {
        self.writer = writer
        self.path = path
        self.now = { Date() }
        self.onWrite = nil
    }

    /// A store in memory, gone when released: for tests and benchmarks that want the SQL
    /// without the file.
    public static func inMemoryDatabase() throws(StoreError) -> SQLiteStore {
        let path = "(in-memory database)"
        do {
            let queue = try DatabaseQueue(configuration: configuration(readOnly: false))
            try Migrations.migrator.migrate(queue)
            return SQLiteStore(writer: queue, path: path)
        } catch {
            throw StoreError(error, path: path)
        }
    }

    private static func configuration(readOnly: Bool) -> Configuration {
        var configuration = Configuration()
        configuration.label = "kiosk.store"
        configuration.readonly = readOnly
        // Another process holding the file briefly (a backup, the sqlite3 shell) is waited for.
        configuration.busyMode = .timeout(5)
        return configuration
    }

    /// Closes the database; any later call fails. Releasing the store closes it too.
    public func close() throws(StoreError) {
        do { try writer.close() } catch { throw StoreError(error, path: path) }
    }

    // MARK: - Source states (the engine's view)

    public func loadSourceStates() async throws(StoreError) -> [SourceID: SourceState] {
        try await read { db in try SourceRows.loadAll(in: db) }
    }

    public func saveSourceState(_ state: SourceState, for id: SourceID) async throws(StoreError) {
        let now = now()
        try await write { db in try SourceRows.save(state, for: id, in: db, now: now) }
    }

    public func entries(for source: SourceID) async throws(StoreError) -> [Entry] {
        try await read { db in try EntryRows.load(of: source, in: db)[source] ?? [] }
    }

    // MARK: - Subscriptions

    public func feeds() async throws(StoreError) -> [Subscription] {
        try await read { db in try SubscriptionRows.feeds(in: db) }
    }

    public func saveFeeds(_ feeds: [Subscription]) async throws(StoreError) {
        try await write { db in try SubscriptionRows.saveFeeds(feeds, in: db) }
    }

    public func subscriptions(user: UserID) async throws(StoreError) -> [Subscription] {
        try await read { db in try SubscriptionRows.subscriptions(of: user, in: db) }
    }

    public func saveSubscriptions(_ subscriptions: [Subscription], user: UserID) async throws(StoreError) {
        try await write { db in try SubscriptionRows.save(subscriptions, user: user, in: db) }
    }

    @discardableResult
    public func removeSubscription(_ id: SourceID, user: UserID) async throws(StoreError) -> Bool {
        try await write { db in try SubscriptionRows.remove(id, user: user, in: db) }
    }

    public func followers(of id: SourceID) async throws(StoreError) -> [UserID] {
        try await read { db in try SubscriptionRows.followers(of: id, in: db) }
    }

    public func feedHealth() async throws(StoreError) -> [SourceID: FeedHealth] {
        try await read { db in try SubscriptionRows.health(in: db) }
    }

    public func subscriptionsVersion(user: UserID) async throws(StoreError) -> Int64 {
        try await read { db in try SubscriptionRows.version(of: user, in: db) }
    }

    public func touchSubscriptions(user: UserID) async throws(StoreError) {
        try await write { db in try SubscriptionRows.bumpVersion(of: [user], in: db) }
    }

    public func removeFeed(_ id: SourceID) async throws(StoreError) {
        try await write { db in try SubscriptionRows.removeFeed(id, in: db) }
    }

    // MARK: - Reading

    public func readingList(_ filter: EntryFilter, user: UserID) async throws(StoreError) -> [StoredEntry] {
        try await read { db in try ReadingRows.list(filter, user: user, in: db) }
    }

    public func storedEntry(source: SourceID, key: String, user: UserID) async throws(StoreError) -> StoredEntry? {
        try await read { db in try ReadingRows.entry(source: source, key: key, user: user, in: db) }
    }

    public func storedEntries(ids: [Int64], user: UserID) async throws(StoreError) -> [StoredEntry] {
        try await read { db in try ReadingRows.entries(ids: ids, user: user, in: db) }
    }

    public func newestEntryID(sources: [SourceID]?, user: UserID) async throws(StoreError) -> Int64 {
        try await read { db in try ReadingRows.newestID(sources: sources, user: user, in: db) }
    }

    public func itemRefs(_ query: ItemQuery, user: UserID) async throws(StoreError) -> [ItemRef] {
        try await read { db in try ReadingRows.itemRefs(query, user: user, in: db) }
    }

    public func newestEntryID(sources: [SourceID]?, receivedBy date: Date, user: UserID) async throws(StoreError) -> Int64 {
        try await read { db in try ReadingRows.newestID(sources: sources, receivedBy: date, user: user, in: db) }
    }

    public func itemCount(user: UserID) async throws(StoreError) -> Int {
        try await read { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM entries WHERE source IN (SELECT source FROM user_feeds WHERE user_id = ?)",
                arguments: [user.rawValue]) ?? 0
        }
    }

    public func unreadCounts(user: UserID) async throws(StoreError) -> [SourceID: Int] {
        try await read { db in try ReadingRows.unreadCounts(user: user, in: db) }
    }

    public func starredCount(user: UserID) async throws(StoreError) -> Int {
        try await read { db in try ReadingRows.starredCount(user: user, in: db) }
    }

    public func setRead(_ read: Bool, ids: [Int64], user: UserID) async throws(StoreError) -> [Int64] {
        let now = now()
        return try await write { db in try ReadingRows.setRead(read, ids: ids, user: user, now: now, in: db) }
    }

    public func setStarred(_ starred: Bool, ids: [Int64], user: UserID) async throws(StoreError) -> [Int64] {
        let now = now()
        return try await write { db in try ReadingRows.setStarred(starred, ids: ids, user: user, now: now, in: db) }
    }

    public func markAllRead(sources: [SourceID]?, upTo: Int64, user: UserID) async throws(StoreError) -> [Int64] {
        let now = now()
        return try await write { db in
            try ReadingRows.markAllRead(sources: sources, upTo: upTo, user: user, now: now, in: db)
        }
    }

    @discardableResult
    public func prune(_ policy: RetentionPolicy, now: Date) async throws(StoreError) -> Int {
        try await write { db in try ReadingRows.prune(policy, now: now, in: db) }
    }

    // MARK: - Accounts

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

    // MARK: - App state

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

    // MARK: - Articles

    public func article(entry: Int64) async throws(StoreError) -> StoredArticle? {
        try await read { db in try ArticleRows.load(entry: entry, in: db) }
    }

    public func saveArticle(_ article: StoredArticle, entry: Int64) async throws(StoreError) {
        try await write { db in try ArticleRows.save(article, entry: entry, in: db) }
    }

    public func articles(entries: [Int64]) async throws(StoreError) -> [Int64: StoredArticle] {
        guard !entries.isEmpty else { return [:] }
        return try await read { db in try ArticleRows.load(entries: entries, in: db) }
    }

    public func claimArticleFetch(entry: Int64, until: Date, now: Date) async throws(StoreError) -> Bool {
        try await write { db in try ArticleRows.claim(entry: entry, until: until, now: now, in: db) }
    }

    public func fullArticleFeeds() async throws(StoreError) -> [FullArticleFeed] {
        try await read { db in try ArticleRows.fullArticleFeeds(in: db) }
    }

    public func entriesWithoutArticles(of source: SourceID, limit: Int) async throws(StoreError) -> [ArticleWanted] {
        try await read { db in try ArticleRows.entriesWithoutArticles(of: source, limit: limit, in: db) }
    }

    // MARK: - Search

    public func search(_ text: String, limit: Int, user: UserID?) async throws(StoreError) -> [SearchHit] {
        guard limit > 0, let query = SearchText.ftsQuery(text) else { return [] }
        return try await read { db in try EntryRows.search(query, limit: limit, user: user, in: db) }
    }

    // MARK: - Access

    /// A read transaction off the caller's executor, its errors as `StoreError`.
    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(StoreError) -> T {
        do { return try await writer.read(body) } catch { throw StoreError(error, path: path) }
    }

    /// A write transaction (committed when `body` returns), its errors as `StoreError`.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(StoreError) -> T {
        let clock = ContinuousClock()
        let start = clock.now
        defer { onWrite?(clock.now - start) }
        do { return try await writer.write(body) } catch { throw StoreError(error, path: path) }
    }
}

extension SQLiteStore {
    /// SQLite's own view of the file, for tests and diagnostics: `PRAGMA journal_mode`.
    public func journalMode() async throws(StoreError) -> String {
        try await read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "" }
    }

    /// `PRAGMA integrity_check`: "ok", or SQLite's list of what is damaged.
    public func integrityCheck() async throws(StoreError) -> String {
        try await read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(separator: "\n") }
    }
}
