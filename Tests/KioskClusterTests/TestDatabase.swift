import Foundation
import Logging
import PostgresNIO
import Testing

/// A schema of its own in the test PostgreSQL (`KIOSK_TEST_DATABASE_URL`, started by
/// scripts/test.sh through scripts/postgres.sh), dropped afterwards, so tests run side by side.
enum TestDatabase {
    /// Quiet: the client's own warnings (a query before `run()` got going) are noise here.
    static let logger: Logger = {
        var logger = Logger(label: "kiosk.test.postgres")
        logger.logLevel = .error
        return logger
    }()

    struct Unconfigured: Error, CustomStringConvertible {
        var description: String {
            "KIOSK_TEST_DATABASE_URL is not set: run `scripts/postgres.sh start /tmp/kpg 55432` and export the URL it prints"
        }
    }

    /// The server's configuration, from the environment.
    static func configuration(schema: String? = nil) throws -> PostgresClient.Configuration {
        guard let text = ProcessInfo.processInfo.environment["KIOSK_TEST_DATABASE_URL"],
            let url = URLComponents(string: text), let host = url.host
        else { throw Unconfigured() }
        var configuration = PostgresClient.Configuration(
            host: host, port: url.port ?? 5432, username: url.user ?? "kiosk", password: url.password,
            database: String(url.path.dropFirst()), tls: .disable)
        if let schema { configuration.options.additionalStartupParameters = [("search_path", schema)] }
        return configuration
    }

    /// Runs `body` with a fresh schema's configuration: every client made from it sees only it.
    static func withSchema<T: Sendable>(_ body: (PostgresClient.Configuration) async throws -> T) async throws -> T {
        let schema = "cluster_test_\(UInt64.random(in: 0...UInt64.max))"
        let admin = try configuration()
        try await withClient(admin) { try await $0.query("CREATE SCHEMA \(unescaped: schema)", logger: logger) }
        do {
            let result = try await body(try configuration(schema: schema))
            try await withClient(admin) { try await $0.query("DROP SCHEMA \(unescaped: schema) CASCADE", logger: logger) }
            return result
        } catch {
            _ = try? await withClient(admin) { try await $0.query("DROP SCHEMA \(unescaped: schema) CASCADE", logger: logger) }
            throw error
        }
    }

    /// A running client for the length of `body`.
    static func withClient<T: Sendable>(
        _ configuration: PostgresClient.Configuration, _ body: (PostgresClient) async throws -> T
    ) async throws -> T {
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            return try await body(client)
        }
    }
}
