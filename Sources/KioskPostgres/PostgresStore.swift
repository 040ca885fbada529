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
    let client: PostgresClient
    let logger: Logger
    /// The time, for "received at" and state changes (a benchmark simulates days with its own).
    let now: @Sendable () -> Date
    /// Told how long each transaction took (for `/metrics`).
    private let onWrite: StoreWriteTimer?
    /// What messages call the database (never its password).
    let database = "the PostgreSQL database"

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
        ("entries", "id"), ("subscriptions", "seq"), ("users", "id"), ("app_passwords", "id"), ("saved_searches", "id"),
        ("rules", "id"), ("push_devices", "id"),
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
