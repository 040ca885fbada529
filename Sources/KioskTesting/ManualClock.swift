import NIOConcurrencyHelpers

/// A clock that stands still until a test moves it: `sleep` returns only when `advance` has
/// carried `now` past the sleeper's deadline (or the sleeper is cancelled). Logic about time
/// (deadlines, intervals, backoff) runs on it without waiting real seconds, so a loaded machine
/// cannot make such a test late.
public final class ManualClock: Clock, Sendable {
    public struct Instant: InstantProtocol, CustomStringConvertible {
        /// Time since the clock was made.
        public var offset: Duration

        public init(offset: Duration) { self.offset = offset }
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
        public var description: String { "t+\(offset)" }
    }

    private struct Sleeper {
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var nextID = 0
        var sleepers: [Int: Sleeper] = [:]
        /// Ids of sleepers cancelled before they were registered.
        var cancelledEarly: Set<Int> = []
    }

    private let state = NIOLockedValueBox(State())

    public init() {}

    public var now: Instant { state.withLockedValue { $0.now } }
    public var minimumResolution: Duration { .zero }

    /// How many sleepers are waiting now.
    public var sleeperCount: Int { state.withLockedValue { $0.sleepers.count } }

    /// The earliest deadline anyone is waiting for.
    public var nextDeadline: Instant? { state.withLockedValue { $0.sleepers.values.map(\.deadline).min() } }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let id = state.withLockedValue { state -> Int in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resume: Result<Void, any Error>? = state.withLockedValue { state in
                    if state.cancelledEarly.remove(id) != nil { return .failure(CancellationError()) }
                    if deadline <= state.now { return .success(()) }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return nil
                }
                if let resume { continuation.resume(with: resume) }
            }
        } onCancel: {
            let sleeper = state.withLockedValue { state -> Sleeper? in
                guard let sleeper = state.sleepers.removeValue(forKey: id) else {
                    state.cancelledEarly.insert(id)
                    return nil
                }
                return sleeper
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
        // A sleep that ended normally leaves no trace of an early cancellation behind.
        _ = state.withLockedValue { $0.cancelledEarly.remove(id) }
    }

    /// Moves time forward by `duration`, waking every sleeper whose deadline has come, earliest
    /// first.
    public func advance(by duration: Duration) {
        let due = state.withLockedValue { state -> [Sleeper] in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let ids = state.sleepers.filter { $0.value.deadline <= now }.map(\.key)
            return ids.compactMap { state.sleepers.removeValue(forKey: $0) }.sorted { $0.deadline < $1.deadline }
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Waits in real time until at least `count` sleepers wait on this clock: the moment code
    /// under test has reached its pauses. False if that has not happened within `limit`, a bound
    /// that only catches code that never pauses (nothing in a passing test comes near it).
    public func waitForSleepers(atLeast count: Int, within limit: Duration = .seconds(60)) async -> Bool {
        await eventually(within: limit, every: .milliseconds(2)) { sleeperCount >= count }
    }
}
