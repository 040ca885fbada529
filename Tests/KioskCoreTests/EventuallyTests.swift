import KioskTesting
import Synchronization
import Testing

/// The test helper every waiting test leans on: a stall longer than its limit (the cooperative
/// pool held by CPU-bound tests) must not turn a wait into a failure.
@Suite struct EventuallyTests {
    @Test func aStallLongerThanTheLimitStillLeavesTheConditionItsAsks() async {
        let asks = Mutex(0)
        let held = await eventually(within: .milliseconds(100), every: .milliseconds(5)) {
            let ask = asks.withLock { count in
                count += 1
                return count
            }
            // The first ask stalls past the whole limit, as a starved task does.
            if ask == 1 { try? await Task.sleep(for: .milliseconds(300)) }
            return ask >= 3
        }
        #expect(held, "gave up after \(asks.withLock { $0 }) asks")
    }

    @Test func aConditionThatNeverHoldsIsFalseAfterItsAsks() async {
        let asks = Mutex(0)
        let held = await eventually(within: .milliseconds(50), every: .milliseconds(5)) {
            asks.withLock { $0 += 1 }
            return false
        }
        #expect(!held)
        #expect(asks.withLock { $0 } >= 10)
    }
}
