/// At most `limit` checks in flight, the rest waiting in line (first come, first served).
/// With thousands of sources, waiting here is cheap, while thousands of requests queued inside the
/// HTTP client's connection pool make every dispatch slower.
actor CheckLimiter {
    private let limit: Int
    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var head = 0

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Checks waiting for a slot (for tests).
    var waitingCount: Int { waiting.count - head }

    /// Waits for a free slot.
    func acquire() async {
        if running < limit {
            running += 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Frees a slot, handing it to the longest waiter if any.
    func release() {
        if head < waiting.count {
            let next = waiting[head]
            head += 1
            if head > 1024, head * 2 > waiting.count {  // drop the consumed prefix now and then
                waiting.removeFirst(head)
                head = 0
            }
            next.resume()  // the slot passes on: `running` is unchanged
        } else {
            running -= 1
        }
    }
}
