import Foundation
import KioskCore
import KioskModel
import KioskPostgres
import KioskSources
import KioskStore
import KioskTesting
import PostgresNIO
import Testing

/// The schema's migrations: idempotent, and safe for replicas starting together.
@Suite struct MigrationTests {
    private static let tables = [
        "allowance_uses", "app_state", "article_claims", "articles", "entries", "list_versions", "entry_labels", "entry_states", "hidden_entries", "playback_positions", "push_devices", "push_outbox", "push_queue", "rule_days", "rules", "saved_searches", "schema_migrations", "sessions", "sign_in_failures", "sources", "subscriptions", "transcripts",
        "user_feeds", "user_marks", "users", "app_passwords",
    ].sorted()

    private func tables(_ client: PostgresClient) async throws -> [String] {
        var names: [String] = []
        let rows = try await client.query(
            "SELECT table_name::text FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1")
        for try await (name) in rows.decode(String.self) { names.append(name) }
        return names
    }

    private func steps(_ client: PostgresClient) async throws -> [String] {
        var names: [String] = []
        for try await (name) in try await client.query("SELECT name FROM schema_migrations ORDER BY name").decode(String.self) {
            names.append(name)
        }
        return names
    }

    @Test func migratingTwiceChangesNothingTheSecondTime() async throws {
        try await TestDatabase.withClients(1) { clients in
            let store = PostgresStore(client: clients[0])
            #expect(try await store.isMigrated() == false)
            try await store.migrate()
            #expect(try await store.isMigrated())
            #expect(try await tables(clients[0]) == Self.tables)
            let applied = try await steps(clients[0])
            try await store.saveSourceState(SourceState(entries: [Entry(id: "1", title: "One")]), for: "a")
            try await store.migrate()
            #expect(try await steps(clients[0]) == applied)
            #expect(try await store.entries(for: "a").map(\.title) == ["One"], "data survives a second migration")
        }
    }

    @Test func threeReplicasMigratingAtOnceAllSucceedOnce() async throws {
        try await TestDatabase.withClients(3) { clients in
            let stores = clients.map { PostgresStore(client: $0) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for store in stores {
                    group.addTask { try await store.migrate() }
                }
                try await group.waitForAll()
            }
            #expect(try await tables(clients[0]) == Self.tables)
            let applied = try await steps(clients[0])
            #expect(applied == ["accounts", "allowance_uses", "app_state", "article_claims", "articles", "entries_by_received", "entries_by_source_id", "full_articles", "hidden", "labels", "list_versions", "media_through_kiosk", "playback_positions", "push_devices", "push_queue", "rules", "saved_searches", "sign_in_failures", "sources", "subscriptions", "transcripts", "validators_request", "webhooks",
            ])
            for store in stores {
                #expect(try await store.isMigrated())
            }
            // Every replica works on the one schema.
            try await stores[0].saveSourceState(SourceState(entries: [Entry(id: "1", title: "One")]), for: "a")
            #expect(try await stores[2].entries(for: "a").map(\.title) == ["One"])
        }
    }

    @Test func copiedIdsAreNeverGivenAgainOnceSequencesAreReset() async throws {
        try await TestDatabase.withStore { store, client in
            try await client.query(
                """
                INSERT INTO users (id, name, password_hash, created_at) VALUES (41, 'copied', 'h', 0)
                """)
            try await store.resetSequences()
            let added = try await store.addAccount(name: "new", passwordHash: "h", isAdmin: false)
            #expect(added.id == UserID(42))
            try await store.resetSequences()  // idempotent
            #expect(try await store.addAccount(name: "newer", passwordHash: "h", isAdmin: false).id == UserID(43))
        }
    }
}
