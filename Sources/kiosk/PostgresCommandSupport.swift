import Foundation
import KioskPostgres
import Logging
import PostgresNIO

/// What commands other than serving need of PostgreSQL: a store on a running client, migrated,
/// for the length of one command.
enum PostgresCommandSupport {
    static func withStore<T: Sendable>(url: String, _ body: (PostgresStore, PostgresClient) async throws -> T) async throws -> T {
        var logger = Logger(label: "kiosk")
        logger.logLevel = .error
        let client = PostgresClient(configuration: try PostgresURL.configuration(url), backgroundLogger: logger)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            let store = PostgresStore(client: client, logger: logger)
            try await store.migrate()
            return try await body(store, client)
        }
    }
}
