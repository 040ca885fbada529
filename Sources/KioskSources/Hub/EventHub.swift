import Foundation

// Fan-out of engine events to any number of subscribers (SSE clients, loggers, tests). Publishing
// never waits for a subscriber: each has a bounded buffer, and one that falls behind loses the
// oldest events and is handed a resync (the current snapshot) instead of a gap.

/// Publishes engine events to subscribers and keeps the current state for late joiners.
public actor EventHub {
    private var snapshot = HubSnapshot()
    private var subscribers: [UUID: AsyncStream<EngineEvent>.Continuation] = [:]
    /// The subscribers that said who they are, by name (what waits on them asks by name, not by
    /// counting).
    private var named: [UUID: String] = [:]

    public init() {}

    /// Numbers `kind`, folds it into the snapshot and hands it to every subscriber.
    @discardableResult
    public func publish(_ kind: EngineEvent.Kind) -> EngineEvent {
        let event = EngineEvent(sequence: snapshot.sequence + 1, kind: kind)
        snapshot.apply(event)
        for continuation in subscribers.values {
            continuation.yield(event)  // never blocks: the buffer drops the oldest when full
        }
        return event
    }

    /// The current state, for a subscriber that (re)draws from scratch.
    public func currentSnapshot() -> HubSnapshot { snapshot }

    /// A subscription starting now: first a resync with the current state, then every event.
    /// - Parameters:
    ///   - bufferSize: events held for a slow reader before it is resynced.
    ///   - name: who listens (`"metrics"`), for ``isListening(_:)``.
    public func subscribe(bufferSize: Int = 256, name: String? = nil) -> HubSubscription {
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(
            of: EngineEvent.self, bufferingPolicy: .bufferingNewest(max(1, bufferSize)))
        continuation.onTermination = { [weak self] _ in
            Task { await self?.unsubscribe(id) }
        }
        subscribers[id] = continuation
        named[id] = name
        return HubSubscription(events: stream, start: snapshot, hub: self)
    }

    /// Whether a subscriber called `name` is attached.
    public func isListening(_ name: String) -> Bool {
        named.values.contains(name)
    }

    private func unsubscribe(_ id: UUID) {
        subscribers[id] = nil
        named[id] = nil
    }
}
