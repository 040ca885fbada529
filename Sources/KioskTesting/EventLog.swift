import KioskCore
import KioskModel
import KioskSources

/// Collects hub events in the background, so a test can wait for the one it expects (shared by
/// the engine's tests in KioskSourcesTests and the store's in KioskStoreTests).
public actor EventLog {
    public private(set) var events: [EngineEvent] = []

    public init() {}

    public func append(_ event: EngineEvent) { events.append(event) }

    public func changed(_ id: SourceID) -> [[Entry]] {
        events.compactMap { if case .changed(id, let entries, _) = $0.kind { entries } else { nil } }
    }

    public func failures(_ id: SourceID) -> [SourceError] {
        events.compactMap { if case .failed(id, let error) = $0.kind { error } else { nil } }
    }

    /// Waits (polling, generous deadline) until `condition` holds.
    public func wait(timeout: Duration = .seconds(20), until condition: @Sendable ([EngineEvent]) -> Bool) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while clock.now < deadline {
            if condition(events) { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return condition(events)
    }
}

extension EventHub {
    /// Subscribes now and records every event into a new log from a background task.
    public func record() -> (EventLog, Task<Void, Never>) {
        let log = EventLog()
        let subscription = subscribe()
        let task = Task {
            for await update in subscription {
                if case .event(let event) = update { await log.append(event) }
            }
        }
        return (log, task)
    }
}
