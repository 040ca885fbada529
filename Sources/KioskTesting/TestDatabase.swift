import Foundation
import KioskPostgres
import Logging
import PostgresNIO

/// A schema of its own in the test PostgreSQL (`KIOSK_TEST_DATABASE_URL`, started by
/// scripts/test.sh through scripts/postgres.sh), dropped afterwards, so tests run side by side.
/// Shared by the store's and the cluster's tests.
public enum TestDatabase {
    /// Why a PostgreSQL test cannot run: said in the test's failure, never skipped silently.
    public struct Unconfigured: Error, CustomStringConvertible {
        public var description: String {
            "KIOSK_TEST_DATABASE_URL is not set: the PostgreSQL tests need a server. Run "
                + "`scripts/postgres.sh start /tmp/kpg 55432` and export the URL it prints, e.g. "
                + "`export KIOSK_TEST_DATABASE_URL=postgres://kiosk:PASSWORD@127.0.0.1:55432/kiosk` (the script prints it with its password)"
        }
    }

    /// Quiet: the client's own warnings (a query before `run()` got going) are noise here.
    public static let logger: Logger = {
        var logger = Logger(label: "kiosk.test.postgres")
        logger.logLevel = .error
        return logger
    }()

    /// The server's address, from the environment.
    public static func url() throws -> String {
        guard let url = ProcessInfo.processInfo.environment["KIOSK_TEST_DATABASE_URL"], !url.isEmpty else {
            throw Unconfigured()
        }
        return url
    }

    /// The server's configuration as `kiosk` reads the URL, with connections on `schema` when given.
    public static func configuration(schema: String? = nil) throws -> PostgresClient.Configuration {
        var configuration = try PostgresURL.configuration(try url())
        configuration.options.minimumConnections = 0
        configuration.options.maximumConnections = 4
        if let schema { configuration.options.additionalStartupParameters.append(("search_path", schema)) }
        return configuration
    }

    /// Runs `body` with a fresh schema's configuration (every client made from it sees only that
    /// schema), dropping the schema afterwards.
    public static func withSchema<T>(_ body: (PostgresClient.Configuration) async throws -> T) async throws -> T {
        // The name is ours (letters and digits), never input.
        let schema = "kiosk_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let admin = try configuration()
        try await withClient(admin) { try await $0.query(PostgresQuery(unsafeSQL: "CREATE SCHEMA \(schema)"), logger: logger) }
        do {
            let result = try await body(try configuration(schema: schema))
            try await withClient(admin) { try await $0.query(PostgresQuery(unsafeSQL: "DROP SCHEMA \(schema) CASCADE"), logger: logger) }
            return result
        } catch {
            _ = try? await withClient(admin) {
                try await $0.query(PostgresQuery(unsafeSQL: "DROP SCHEMA \(schema) CASCADE"), logger: logger)
            }
            throw error
        }
    }

    /// Runs `body` with `count` running clients whose connections all use one new, empty schema
    /// (as replicas sharing a database would), dropping the schema afterwards.
    public static func withClients<T>(_ count: Int = 1, _ body: ([PostgresClient]) async throws -> T) async throws -> T {
        try await withSchema { configuration in
            let clients = (0..<max(1, count)).map { _ in PostgresClient(configuration: configuration, backgroundLogger: logger) }
            return try await withThrowingTaskGroup(of: Void.self) { group in
                for client in clients { group.addTask { await client.run() } }
                defer { group.cancelAll() }
                return try await body(clients)
            }
        }
    }

    /// A running client for the length of `body` (the benchmarks' too, with their own logger).
    public static func withClient<T>(
        _ configuration: PostgresClient.Configuration, logger: Logger = TestDatabase.logger, _ body: (PostgresClient) async throws -> T
    ) async throws -> T {
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            return try await body(client)
        }
    }
}
