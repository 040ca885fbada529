/// Hands out jokes as the Switter server did: one device hears every joke once, in shuffled
/// order, before any joke repeats; then a new shuffled round starts.
actor JokeTeller {
    /// Devices are remembered until this many are known; then everyone starts a fresh round,
    /// so memory stays bounded whatever clients send as their device id.
    private static let maximumDevices = 10_000

    private let jokes: [String]
    /// Per device: the joke indices still to tell in this round, next last.
    private var remaining: [String: [Int]] = [:]
    private var lastTold: [String: Int] = [:]

    init(jokes: [String] = JokeBook.jokes) {
        self.jokes = jokes
    }

    /// The next joke for `device`, or nil when there are no jokes at all.
    func nextJoke(for device: String) -> String? {
        guard !jokes.isEmpty else { return nil }
        var deck = remaining[device] ?? []
        if deck.isEmpty {
            if remaining[device] == nil, remaining.count >= Self.maximumDevices {
                remaining = [:]
                lastTold = [:]
            }
            deck = Array(jokes.indices).shuffled()
            // A new round must not open with the joke that closed the last one.
            if deck.count > 1, let last = lastTold[device], deck.last == last {
                deck.swapAt(0, deck.count - 1)
            }
        }
        let index = deck.removeLast()
        remaining[device] = deck
        lastTold[device] = index
        return jokes[index]
    }
}
