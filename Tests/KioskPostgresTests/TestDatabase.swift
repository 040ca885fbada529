import Foundation
import KioskPostgres
import PostgresNIO

/// Why a PostgreSQL test cannot run: said in the test's failure, never skipped silently.
struct TestDatabaseMissing: Error, CustomStringConvertible {
    var description: String {
        "KIOSK_TEST_DATABASE_URL is not set: the PostgreSQL tests need a server. Run "
            + "`scripts/postgres.sh start /tmp/kpg 55432` and export the URL it prints, e.g. "
            + "`export KIOSK_TEST_DATABASE_URL=postgres://kiosk@127.0.0.1:55432/kiosk`"
    }
}

/// A schema of its own in the database at `KIOSK_TEST_DATABASE_URL`, for one test.
enum TestDatabase {
    static func url() throws -> String {
        guard let url = ProcessInfo.processInfo.environment["KIOSK_TEST_DATABASE_URL"], !url.isEmpty else {
            throw TestDatabaseMissing()
        }
        return url
    }

    /// Runs `body` with `count` running clients whose connections all use one new, empty schema
    /// (as replicas sharing a database would), dropping the schema afterwards.
    static func withClients<T>(_ count: Int = 1, _ body: ([PostgresClient]) async throws -> T) async throws -> T {
        let url = try url()
        let schema = "kiosk_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        var configuration = try PostgresURL.configuration(url)
        configuration.options.minimumConnections = 0
        configuration.options.maximumConnections = 4
        configuration.options.additionalStartupParameters.append(("search_path", schema))
        let clients = (0..<max(1, count)).map { _ in PostgresClient(configuration: configuration) }
        let runners = clients.map { client in Task { await client.run() } }
        defer { runners.forEach { $0.cancel() } }
        let admin = clients[0]
        // The name is ours (letters and digits), never input.
        try await admin.query(PostgresQuery(unsafeSQL: "CREATE SCHEMA \(schema)"))
        do {
            let result = try await body(clients)
            try await admin.query(PostgresQuery(unsafeSQL: "DROP SCHEMA \(schema) CASCADE"))
            return result
        } catch {
            _ = try? await admin.query(PostgresQuery(unsafeSQL: "DROP SCHEMA \(schema) CASCADE"))
            throw error
        }
    }

    /// One migrated store on a schema of its own.
    static func withStore<T>(_ body: (PostgresStore, PostgresClient) async throws -> T) async throws -> T {
        try await withClients(1) { clients in
            let store = PostgresStore(client: clients[0])
            try await store.migrate()
            return try await body(store, clients[0])
        }
    }
}
