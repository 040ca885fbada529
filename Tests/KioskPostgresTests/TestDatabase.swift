import KioskPostgres
import KioskTesting
import PostgresNIO

extension TestDatabase {
    /// One migrated store on a schema of its own.
    static func withStore<T>(_ body: (PostgresStore, PostgresClient) async throws -> T) async throws -> T {
        try await withClients(1) { clients in
            let store = PostgresStore(client: clients[0])
            try await store.migrate()
            return try await body(store, clients[0])
        }
    }
}
