import Logging
import PostgresNIO

// The tables replicas coordinate through, beside the store's own (KioskPostgres). Created under
// an advisory lock, so replicas starting together do it once; every statement may run again.

/// The cluster's own tables: feed leases and the live log.
public enum ClusterSchema {
    /// The advisory lock key of the cluster's migration ("KIOSKCLU").
    static let lockKey: Int64 = 0x4B49_4F53_4B43_4C55

    static let statements: [PostgresQuery] = [
        """
        CREATE TABLE IF NOT EXISTS feed_leases (
            feed TEXT PRIMARY KEY,
            next_due DOUBLE PRECISION NOT NULL DEFAULT 0,
            owner TEXT,
            lease_until DOUBLE PRECISION,
            checks BIGINT NOT NULL DEFAULT 0,
            last_checked DOUBLE PRECISION
        )
        """,
        """
        CREATE TABLE IF NOT EXISTS live_log (
            id BIGSERIAL PRIMARY KEY,
            at DOUBLE PRECISION NOT NULL,
            origin TEXT NOT NULL,
            kind TEXT NOT NULL,
            source TEXT,
            event TEXT,
            json TEXT,
            audience BIGINT[]
        )
        """,
        // Which replica checked each feed last: for operators, and to see the work shared.
        "ALTER TABLE feed_leases ADD COLUMN IF NOT EXISTS checked_by TEXT",
        // The feed's host, for politeness across replicas: leases held per host are counted.
        "ALTER TABLE feed_leases ADD COLUMN IF NOT EXISTS host TEXT NOT NULL DEFAULT ''",
        "CREATE INDEX IF NOT EXISTS feed_leases_held_by_host ON feed_leases (host, lease_until) WHERE owner IS NOT NULL",
    ]

    /// Creates what is missing.
    public static func migrate(_ client: PostgresClient, logger: Logger) async throws {
        try await client.withConnection { connection in
            try await connection.query("SELECT pg_advisory_lock(\(lockKey))", logger: logger)
            do {
                for statement in statements { try await connection.query(statement, logger: logger) }
            } catch {
                _ = try? await connection.query("SELECT pg_advisory_unlock(\(lockKey))", logger: logger)
                throw error
            }
            try await connection.query("SELECT pg_advisory_unlock(\(lockKey))", logger: logger)
        }
    }
}
