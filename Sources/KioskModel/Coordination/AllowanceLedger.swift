import Foundation

/// Allowances an account may use so many times in a window (OPML imports an hour, Discover's
/// calls to the news service), counted where every replica and every restart sees them: the
/// store. A count kept in one process's memory would be cleared by a restart and multiplied by
/// replicas.
public protocol AllowanceLedger: Sendable {
    /// Counts one use of `allowance` by `account` at `now` when fewer than `limit` were counted
    /// in the `window` before it, and returns nil; otherwise counts nothing and returns when the
    /// oldest use still in the window was made (from which the caller says when to try again).
    /// Uses a window old are forgotten. Concurrent calls, from any replica, never let more than
    /// `limit` through.
    func spend(_ allowance: String, account: String, limit: Int, window: Duration, now: Date) async throws -> Date?
}

/// One process's ledger, in memory: what a component counts with when given no store (tests, the
/// benchmarks), and the oracle the stores' contract test compares with.
public actor MemoryAllowanceLedger: AllowanceLedger {
    private var uses: [String: [Date]] = [:]

    public init() {}

    public func spend(_ allowance: String, account: String, limit: Int, window: Duration, now: Date) -> Date? {
        let key = allowance + "\u{1F}" + account
        let seconds = window / .seconds(1)
        var recent = (uses[key] ?? []).filter { now.timeIntervalSince($0) < seconds }
        guard recent.count < limit else {
            uses[key] = recent
            return recent.min()
        }
        recent.append(now)
        uses[key] = recent
        return nil
    }
}
