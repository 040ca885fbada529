/// Failed sign-ins counted over a sliding window, so that the guesser is throttled and not the
/// owner: past the limit for one address, or for one account from one address, that address
/// (or that address on that account) is refused until the oldest failure leaves the window. The
/// account as a whole, guessed at from many addresses, is only slowed down, never locked: the
/// owner signing in from elsewhere still gets in, an app password is checked before any delay,
/// and sessions already open are never touched. A success clears its own address's failures on
/// the account (not the address's other failures: one address guessing many names stays
/// throttled).
public actor SignInThrottle {
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

    private let limits: Limits
    private let start: ContinuousClock.Instant
    private let clock: @Sendable () -> ContinuousClock.Instant
    /// By account and address together.
    private var pairs: [String: [Duration]] = [:]
    private var addresses: [String: [Duration]] = [:]
    /// By account, from everywhere: for the slowdown only.
    private var accounts: [String: [Duration]] = [:]

    public init(limits: Limits = Limits(), clock: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.limits = limits
        self.clock = clock
        self.start = clock()
    }

    private var now: Duration { clock() - start }

    private static func pair(_ account: String, _ address: String) -> String { account.lowercased() + "\u{1F}" + address }

    /// How long `account` from `address` must wait before trying again; nil: it may try now.
    public func wait(account: String, address: String) -> Duration? {
        let now = now
        let byPair = recent(&pairs, key: Self.pair(account, address), now: now)
        let byAddress = recent(&addresses, key: address, now: now)
        var waits: [Duration] = []
        if byPair.count >= limits.perAccount, let oldest = byPair.first { waits.append(oldest + limits.window - now) }
        if byAddress.count >= limits.perAddress, let oldest = byAddress.first { waits.append(oldest + limits.window - now) }
        return waits.max()
    }

    /// How long a password check of `account` waits first: nothing until many failures from
    /// everywhere, then growing with them, never more than the cap.
    public func slowdown(account: String) -> Duration {
        let failures = recent(&accounts, key: account.lowercased(), now: now).count
        guard failures >= limits.slowAccountAfter else { return .zero }
        return min(limits.slowdownCap, limits.slowdownStep * (failures - limits.slowAccountAfter + 1))
    }

    public func failed(account: String, address: String) {
        let now = now
        pairs[Self.pair(account, address), default: []].append(now)
        addresses[address, default: []].append(now)
        accounts[account.lowercased(), default: []].append(now)
        if pairs.count > 10_000 || addresses.count > 10_000 || accounts.count > 10_000 { forgetOld(now: now) }
    }

    public func succeeded(account: String, address: String) {
        pairs[Self.pair(account, address)] = nil
    }

    private func recent(_ table: inout [String: [Duration]], key: String, now: Duration) -> [Duration] {
        let kept = (table[key] ?? []).filter { now - $0 < limits.window }
        table[key] = kept.isEmpty ? nil : kept
        return kept
    }

    private func forgetOld(now: Duration) {
        pairs = pairs.filter { $0.value.contains { now - $0 < limits.window } }
        addresses = addresses.filter { $0.value.contains { now - $0 < limits.window } }
        accounts = accounts.filter { $0.value.contains { now - $0 < limits.window } }
    }
}
