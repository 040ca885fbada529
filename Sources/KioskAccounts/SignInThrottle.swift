/// Failed sign-ins counted per account name and per client address over a sliding window: past
/// either limit, further attempts are refused until the oldest failure leaves the window. A
/// success clears the account's failures (not the address's: one address guessing many names
/// stays throttled).
public actor SignInThrottle {
    public struct Limits: Sendable {
        public var perAccount: Int
        public var perAddress: Int
        public var window: Duration

        public init(perAccount: Int = 5, perAddress: Int = 20, window: Duration = .seconds(15 * 60)) {
            self.perAccount = perAccount
            self.perAddress = perAddress
            self.window = window
        }
    }

    private let limits: Limits
    private let start: ContinuousClock.Instant
    private var accounts: [String: [Duration]] = [:]
    private var addresses: [String: [Duration]] = [:]

    public init(limits: Limits = Limits()) {
        self.limits = limits
        self.start = .now
    }

    private var now: Duration { ContinuousClock.now - start }

    /// How long `account` from `address` must wait before trying again; nil: it may try now.
    public func wait(account: String, address: String) -> Duration? {
        let now = now
        let byAccount = recent(&accounts, key: account.lowercased(), now: now)
        let byAddress = recent(&addresses, key: address, now: now)
        var waits: [Duration] = []
        if byAccount.count >= limits.perAccount, let oldest = byAccount.first { waits.append(oldest + limits.window - now) }
        if byAddress.count >= limits.perAddress, let oldest = byAddress.first { waits.append(oldest + limits.window - now) }
        return waits.max()
    }

    public func failed(account: String, address: String) {
        let now = now
        accounts[account.lowercased(), default: []].append(now)
        addresses[address, default: []].append(now)
        if accounts.count > 10_000 || addresses.count > 10_000 { forgetOld(now: now) }
    }

    public func succeeded(account: String) {
        accounts[account.lowercased()] = nil
    }

    private func recent(_ table: inout [String: [Duration]], key: String, now: Duration) -> [Duration] {
        let kept = (table[key] ?? []).filter { now - $0 < limits.window }
        table[key] = kept.isEmpty ? nil : kept
        return kept
    }

    private func forgetOld(now: Duration) {
        accounts = accounts.filter { $0.value.contains { now - $0 < limits.window } }
        addresses = addresses.filter { $0.value.contains { now - $0 < limits.window } }
    }
}
