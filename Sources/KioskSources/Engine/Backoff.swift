/// Capped exponential backoff with jitter: after the n-th failure in a row the next check waits
/// `interval × 2ⁿ` (at most `cap`), spread by ±`jitter` so failing sources don't retry in step.
public struct Backoff: Sendable, Hashable {
    public var cap: Duration
    /// Fraction of the delay by which it may vary, 0…1.
    public var jitter: Double

    public init(cap: Duration = .seconds(300), jitter: Double = 0.2) {
        self.cap = cap
        self.jitter = min(max(jitter, 0), 1)
    }

    /// The wait before the next check after `failures` failures in a row (0 = the plain interval).
    public func delay(after failures: Int, interval: Duration, using random: inout some RandomNumberGenerator)
        -> Duration
    {
        guard failures > 0 else { return interval }
        let factor = Double(1 << min(failures, 20))
        let base = min(interval * factor, cap)
        let spread = Double.random(in: -jitter...jitter, using: &random)
        return max(.milliseconds(1), base * (1 + spread))
    }
}
