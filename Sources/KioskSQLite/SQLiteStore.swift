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
    let writer: any DatabaseWriter
    /// Where the database lives, for messages.
    public let path: String
    /// The time, for "received at" and state changes (a benchmark simulates days with its own).
    let now: @Sendable () -> Date
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
