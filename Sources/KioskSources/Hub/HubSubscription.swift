/// One subscriber's view of the hub: a resync with the state at subscription time, then events
/// in order. If the subscriber fell behind and events were dropped, the gap in sequence numbers
/// is turned into a fresh resync, so a reader never silently misses a change.
public struct HubSubscription: AsyncSequence, Sendable {
    public typealias Element = HubUpdate

    let events: AsyncStream<EngineEvent>
    let start: HubSnapshot
    let hub: EventHub

    public func makeAsyncIterator() -> Iterator {
        Iterator(events: events.makeAsyncIterator(), start: start, hub: hub)
    }

    public struct Iterator: AsyncIteratorProtocol {
        var events: AsyncStream<EngineEvent>.AsyncIterator
        var start: HubSnapshot?
        let hub: EventHub
        var lastSequence: UInt64

        init(events: AsyncStream<EngineEvent>.AsyncIterator, start: HubSnapshot, hub: EventHub) {
            self.events = events
            self.start = start
            self.hub = hub
            lastSequence = start.sequence
        }

        public mutating func next() async -> HubUpdate? {
            if let start {
                self.start = nil
                return .resync(start)
            }
            while let event = await events.next() {
                if event.sequence <= lastSequence { continue }  // already in the last snapshot
                if event.sequence == lastSequence + 1 {
                    lastSequence = event.sequence
                    return .event(event)
                }
                // Events were dropped for this reader: hand it the whole state instead.
                let snapshot = await hub.currentSnapshot()
                lastSequence = snapshot.sequence
                return .resync(snapshot)
            }
            return nil
        }
    }
}
