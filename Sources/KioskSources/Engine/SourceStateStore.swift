import Foundation

// The engine's only view of persistence. It lives here, not in KioskStore, so the engine never
// depends on GRDB: KioskStore implements it with SQLite, tests with a dictionary or a double.

/// Where the engine keeps what it learned about each source, so a restart starts warm.
public protocol SourceStateStore: Sendable {
    /// Everything remembered, for a warm start.
    func loadSourceStates() async throws -> [SourceID: SourceState]
    /// Called after every check outcome that changed something, BEFORE the engine publishes it
    /// (so whatever a client was told is on disk).
    func saveSourceState(_ state: SourceState, for id: SourceID) async throws
}

extension SourceState {
    /// Whether this state differs from `previous` in what a store keeps: entries, validators and
    /// the failure bookkeeping. `lastSuccess` alone is no reason to write (see its comment).
    func needsSaving(comparedTo previous: Self?) -> Bool {
        guard let previous else { return true }
        return entries != previous.entries || validators != previous.validators || failures != previous.failures
            || lastError != previous.lastError || lastFailure != previous.lastFailure
    }
}
