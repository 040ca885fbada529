import Foundation
import KioskStore

/// Failed sign-ins counted over a sliding window, so that the guesser is throttled and not the
/// owner: past the limit for one address, or for one account from one address, that address
/// (or that address on that account) is refused until the oldest failure leaves the window. The
/// account as a whole, guessed at from many addresses, is only slowed down, never locked: the
/// owner signing in from elsewhere still gets in, an app password is checked before any delay,
/// and sessions already open are never touched. A success clears its own address's failures on
/// the account (not the address's other failures: one address guessing many names stays
/// throttled). The failures are counted in the store (`AccountStore`), so N replicas on one
/// database allow what one does, and a restart forgets nothing.
public struct SignInThrottle: Sendable {
    public struct Limits: Sendable {
        /// Failures on one account from one address before that address is refused for it.
        public var perAccount: Int
        /// Failures from one address, whatever the names, before it is refused.
        public var perAddress: Int
        public var window: Duration
        /// Failures on one account from everywhere after which each of its password checks waits...
        public var slowAccountAfter: Int
        /// ... this long per failure beyond, at most `slowdownCap`.
        public var slowdownStep: Duration
        public var slowdownCap: Duration

        public init(
            perAccount: Int = 5, perAddress: Int = 20, window: Duration = .seconds(15 * 60), slowAccountAfter: Int = 10,
            slowdownStep: Duration = .milliseconds(250), slowdownCap: Duration = .seconds(5)
        ) {
            self.perAccount = perAccount
            self.perAddress = perAddress
            self.window = window
            self.slowAccountAfter = slowAccountAfter
            self.slowdownStep = slowdownStep
            self.slowdownCap = slowdownCap
        }
    }

    private let store: any AccountStore
    private let limits: Limits
    private let now: @Sendable () -> Date

    /// - Parameter store: where failures are counted (the database: every replica and every
    ///   restart see the same ones).
    public init(store: any AccountStore, limits: Limits = Limits(), now: @escaping @Sendable () -> Date = Date.init) {
        self.store = store
        self.limits = limits
        self.now = now
    }

    private var window: TimeInterval { limits.window / .seconds(1) }

    /// What the throttle says of an attempt as `account` from `address`: how long it must wait
    /// before trying (nil: it may try now), and how long its password check waits first.
    public struct Verdict: Sendable, Equatable {
        public var wait: Duration?
        public var slowdown: Duration
    }

    /// The throttle's verdict on an attempt, from one read of the failures in the window.
    public func check(account: String, address: String) async throws -> Verdict {
        let now = now()
        let failures = try await store.signInFailures(account: account, address: address, since: now - window)
        var waits: [TimeInterval] = []
        if failures.pair >= limits.perAccount, let oldest = failures.pairOldest {
            waits.append(oldest.timeIntervalSince(now) + window)
        }
        if failures.address >= limits.perAddress, let oldest = failures.addressOldest {
            waits.append(oldest.timeIntervalSince(now) + window)
        }
        // Whole milliseconds, at least one: a wait is never nothing.
        let wait = waits.max().map { Duration.milliseconds(max(1, Int64(($0 * 1000).rounded(.up)))) }
        // The account's failures from everywhere: nothing until many, then growing, at most the cap.
        var slowdown = Duration.zero
        if failures.account >= limits.slowAccountAfter {
            slowdown = min(limits.slowdownCap, limits.slowdownStep * (failures.account - limits.slowAccountAfter + 1))
        }
        return Verdict(wait: wait, slowdown: slowdown)
    }

    /// How long `account` from `address` must wait before trying again; nil: it may try now.
    public func wait(account: String, address: String) async throws -> Duration? {
        try await check(account: account, address: address).wait
    }

    /// How long a password check of `account` waits first (from any address).
    public func slowdown(account: String) async throws -> Duration {
        try await check(account: account, address: "").slowdown
    }

    public func failed(account: String, address: String) async throws {
        let now = now()
        try await store.recordSignInFailure(account: account, address: address, at: now, forgetBefore: now - window)
    }

    public func succeeded(account: String, address: String) async throws {
        try await store.clearSignInFailures(account: account, address: address)
    }
}
