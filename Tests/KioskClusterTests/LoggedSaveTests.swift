import Foundation
import KioskCluster
import KioskCore
import KioskModel
import KioskPostgres
import KioskTesting
import PostgresNIO
import Testing

/// A replica's check outcome and its live log record commit together: a replica that dies after
/// saving a change cannot leave it stored but never announced, nor announce a state that was
/// never stored.
@Suite struct LoggedSaveTests {
    @Test func aStateSavedWithItsRecordIsDeliveredWithThatState() async throws {
        try await TestDatabase.withClients(1) { clients in
            let client = clients[0]
            let store = PostgresStore(client: client)
            try await store.migrate()
            try await ClusterSchema.migrate(client, logger: TestDatabase.logger)
            let log = ChangeLog(
                client: client, origin: "a", loadState: { try await store.sourceState(for: $0) }, logger: TestDatabase.logger)
            let state = SourceState(entries: [Entry(id: "1", title: "One"), Entry(id: "2", title: "Two")])
            try await store.saveSourceState(state, for: "business") { connection in
                try await log.append(.changed("business", added: 2), on: connection)
            }
            let items = try #require(try await log.records(after: 0, through: try await log.newestID(), limit: 10))
            #expect(items.count == 1)
            guard case .noted(_, "business", .changed(added: 2))? = items.first else {
                Issue.record("not the record written: \(items)")
                return
            }
            #expect(try await store.sourceState(for: "business")?.entries?.map(\.id) == ["1", "2"])
        }
    }

    @Test func aSaveThatFailsLeavesNeitherTheStateNorTheRecord() async throws {
        struct Cut: Error {}
        try await TestDatabase.withClients(1) { clients in
            let client = clients[0]
            let store = PostgresStore(client: client)
            try await store.migrate()
            try await ClusterSchema.migrate(client, logger: TestDatabase.logger)
            let log = ChangeLog(
                client: client, origin: "a", loadState: { try await store.sourceState(for: $0) }, logger: TestDatabase.logger)
            let before = SourceState(entries: [Entry(id: "1", title: "One")])
            try await store.saveSourceState(before, for: "business")
            // The record is written, then the transaction breaks (as the connection of a killed
            // replica would): neither the record nor the new state is there.
            await #expect(throws: (any Error).self) {
                try await store.saveSourceState(SourceState(entries: [Entry(id: "9", title: "Nine")]), for: "business") {
                    connection in
                    try await log.append(.changed("business", added: 1), on: connection)
                    throw Cut()
                }
            }
            #expect(try await log.newestID() == 0)
            #expect(try await store.sourceState(for: "business")?.entries?.map(\.id) == ["1"])
        }
    }
}
