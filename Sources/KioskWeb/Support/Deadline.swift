import Foundation

// A task group waits for every child, so racing a database call against a timer in one only
// bounds the wait if the call honours cancellation; a query already sent on a half-open
// connection does not. Here the call runs in a task of its own, and whoever answers first (the
// call or the timer) resumes the caller; the call may finish later, unheard.

/// Runs `operation`, giving up on it after `timeout` on `clock`: nil then (or if it throws).
func withinDeadline<T: Sendable, C: Clock<Duration>>(
    _ timeout: Duration, clock: C = ContinuousClock(), _ operation: @escaping @Sendable () async throws -> T
) async -> T? {
    await withinDeadline(timeout, sleep: { try await clock.sleep(for: $0) }, operation)
}

/// Runs `operation`, giving up on it once `sleep(timeout)` returns: nil then (or if it throws).
func withinDeadline<T: Sendable>(
    _ timeout: Duration, sleep: @escaping @Sendable (Duration) async throws -> Void,
    _ operation: @escaping @Sendable () async throws -> T
) async -> T? {
    let gate = DeadlineGate<T>()
    return await withCheckedContinuation { continuation in
        Task { await gate.set(continuation) }
        let work = Task { await gate.finish(try? await operation()) }
        Task {
            try? await sleep(timeout)
            await gate.finish(nil)
            work.cancel()
        }
    }
}

/// The one answer of a `withinDeadline`: the first to finish resumes the caller.
private actor DeadlineGate<T: Sendable> {
    private var continuation: CheckedContinuation<T?, Never>?
    private var answer: T??

    func set(_ continuation: CheckedContinuation<T?, Never>) {
        if let answer {
            continuation.resume(returning: answer)
        } else {
            self.continuation = continuation
        }
    }

    func finish(_ value: T?) {
        guard answer == nil else { return }
        answer = .some(value)
        continuation?.resume(returning: value)
        continuation = nil
    }
}
