/// Polls `condition` every `interval` until it holds; returns whether it did.
///
/// It gives up only once `limit` has passed *and* the condition has been asked as often as the
/// limit allows at that interval (`limit / interval` times). A wall-clock deadline alone is not
/// enough on a loaded 2-core machine: CPU-bound tests (a 100 MB feed, the hostile documents) can
/// hold Swift's cooperative pool for over a minute, and a deadline then passes before the code
/// under test, or this loop, has run at all (seen: a broadcaster test failing its 20 s wait after
/// 72 s in the parallel bulk). Counting the asks makes the bound about work, not about the clock.
/// It runs on the caller's actor, so the condition may read that actor's state.
public func eventually(
    isolation: isolated (any Actor)? = #isolation, within limit: Duration = .seconds(20), every interval: Duration = .milliseconds(20),
    _ condition: () async throws -> Bool
) async rethrows -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: limit)
    let asks = Int((limit / interval).rounded(.up))
    var asked = 0
    while asked < asks || clock.now < deadline {
        if try await condition() { return true }
        asked += 1
        try? await Task.sleep(for: interval)
    }
    return try await condition()
}
