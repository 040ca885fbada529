@testable import KioskSources
import KioskTesting
import Testing

/// The engine's cap on checks in flight (64 in `kiosk serve`): never more than the limit at once,
/// and every check that waits gets its turn, however long the line.
@Suite struct CheckLimiterTests {
    /// How many hold a slot now, and the most that ever did at once.
    actor Gauge {
        private(set) var now = 0
        private(set) var peak = 0
        private(set) var finished = 0
        func enter() {
            now += 1
            peak = max(peak, now)
        }
        func leave() {
            now -= 1
            finished += 1
        }
    }

    @Test(arguments: [(limit: 3, checks: 40), (limit: 2, checks: 3_000)])
    func neverMoreThanTheLimitAndEveryWaiterGetsItsTurn(limit: Int, checks: Int) async {
        let limiter = CheckLimiter(limit: limit)
        let gauge = Gauge()
        await withDiscardingTaskGroup { group in
            for _ in 0..<checks {
                group.addTask {
                    await limiter.acquire()
                    await gauge.enter()
                    await Task.yield()  // a check takes a while: let the others try meanwhile
                    await gauge.leave()
                    await limiter.release()
                }
            }
        }
        #expect(await gauge.finished == checks)  // 3,000 waiters: the line is compacted as it goes
        #expect(await gauge.peak <= limit)
        #expect(await gauge.now == 0)
    }

    @Test func theLineIsFirstComeFirstServed() async {
        let limiter = CheckLimiter(limit: 1)
        await limiter.acquire()
        let order = Order()
        var waiters: [Task<Void, Never>] = []
        for number in 0..<5 {
            waiters.append(Task {
                await order.queued(number)
                await limiter.acquire()
                await order.served(number)
                await limiter.release()
            })
            // The next waiter joins only once this one is in line (queued, and no slot free).
            _ = await eventually { await order.queuedCount == number + 1 }
            _ = await eventually { await limiter.waitingCount == number + 1 }
        }
        await limiter.release()
        for waiter in waiters { await waiter.value }
        #expect(await order.servedOrder == [0, 1, 2, 3, 4])
    }

    actor Order {
        private(set) var queuedCount = 0
        private(set) var servedOrder: [Int] = []
        func queued(_ number: Int) { queuedCount += 1 }
        func served(_ number: Int) { servedOrder.append(number) }
    }
}
