import Foundation
import KioskCluster
import KioskModel
import KioskPostgres

/// The engine's store on a cluster: a check's outcome that pages must hear of is written to the
/// live log in the same transaction as the feed's state. A replica killed after saving a change
/// can no longer take its announcement along (before, an in-memory outbox appended it a moment
/// later, and the change, already stored, was never announced by anyone).
struct LoggedSourceStates: SourceStateStore {
    let store: PostgresStore
    let log: ChangeLog

    func loadSourceStates() async throws -> [SourceID: SourceState] {
        try await store.loadSourceStates()
    }

    func saveSourceState(_ state: SourceState, for id: SourceID) async throws {
        try await store.saveSourceState(state, for: id)
    }

    func saveSourceState(_ state: SourceState, for id: SourceID, announcing: SharedLogRecord?) async throws {
        guard let announcing else { return try await store.saveSourceState(state, for: id) }
        try await store.saveSourceState(state, for: id) { connection in try await log.append(announcing, on: connection) }
    }
}
