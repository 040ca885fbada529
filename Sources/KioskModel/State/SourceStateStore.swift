import Foundation

// The engine's only view of persistence. It lives in the model, beside the values it keeps, so
// the engine never depends on a database: the stores implement it, tests a dictionary or a double.

/// Where the engine keeps what it learned about each source, so a restart starts warm.
public protocol SourceStateStore: Sendable {
    /// Everything remembered, for a warm start.
    func loadSourceStates() async throws -> [SourceID: SourceState]
    /// Called after every check outcome that changed something, BEFORE the engine publishes it
    /// (so whatever a client was told is on disk).
    func saveSourceState(_ state: SourceState, for id: SourceID) async throws
    /// The same, for an outcome pages must hear of (`announcing`: the change or failure). A
    /// store shared by replicas writes the announcement to the live log in the same
    /// transaction as the state, so a replica that dies after saving cannot take it along; a
    /// store of one Kiosk has no log and saves the state alone (the default).
    func saveSourceState(_ state: SourceState, for id: SourceID, announcing: SharedLogRecord?) async throws
}

extension SourceStateStore {
    public func saveSourceState(_ state: SourceState, for id: SourceID, announcing: SharedLogRecord?) async throws {
        try await saveSourceState(state, for: id)
    }
}
