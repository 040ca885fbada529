/// Fans the reader's changes out to whoever listens (the live pages now, the sync APIs later),
/// never waiting for a listener: each has a bounded buffer, and a listener that falls that far
/// behind loses the oldest changes (pages then resync their counts on the next one).
public actor ReaderChanges {
    private var listeners: [Int: AsyncStream<ReaderChange>.Continuation] = [:]
    private var nextID = 0

    public init() {}

    /// A stream of every change from now on.
    public func subscribe(bufferSize: Int = 256) -> AsyncStream<ReaderChange> {
        let (stream, continuation) = AsyncStream.makeStream(of: ReaderChange.self, bufferingPolicy: .bufferingNewest(bufferSize))
        let id = nextID
        nextID += 1
        listeners[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.remove(id) }
        }
        return stream
    }

    public func publish(_ change: ReaderChange) {
        for continuation in listeners.values { continuation.yield(change) }
    }

    private func remove(_ id: Int) {
        listeners[id] = nil
    }
}
