import KioskModel
import NIOCore

/// The moment by which one exchange must be over, body included.
///
/// AsyncHTTPClient's own deadline stops applying once the response head has arrived, so the
/// body is read under ``run(_:)``, which races the read against this same moment.
struct FetchDeadline: Sendable {
    /// Longest timeout honoured; a larger one (or an overflowing one) is treated as this.
    static let longest: Duration = .seconds(24 * 60 * 60)

    /// The moment, for Swift concurrency's clock.
    let instant: ContinuousClock.Instant
    /// The same moment, for AsyncHTTPClient's `execute(_:deadline:)`.
    let nio: NIODeadline

    /// A deadline `timeout` from now; negative timeouts mean "already passed".
    init(after timeout: Duration) {
        let clamped = min(max(timeout, .zero), Self.longest)
        self.instant = ContinuousClock.now + clamped
        self.nio = NIODeadline.now() + TimeAmount(clamped)
    }

    /// Runs `operation` in a child task and cancels it when the deadline passes first.
    /// - Throws: ``FetchError/timeout`` when the deadline won, otherwise whatever `operation` threw.
    func run<Value: Sendable>(_ operation: @escaping @Sendable () async throws -> Value) async throws -> Value {
        try await withThrowingTaskGroup(of: Value?.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                // nil says "the clock won". If the caller is cancelled this throws CancellationError,
                // which is not a timeout; once the operation has won, its error is never looked at.
                try await Task.sleep(until: instant, clock: .continuous)
                return nil
            }
            defer { group.cancelAll() }
            // The first child to finish decides; the loser is cancelled by the defer above.
            guard let first = try await group.next(), let value = first else {
                throw FetchError.timeout
            }
            return value
        }
    }
}
