import Foundation
import KioskModel
import KioskStore
@testable import KioskReader
import Testing

/// The reader's counts cache: counts read before a change are never kept after it. (The reader is
/// an actor: a `/reader/counts` request waiting on the store and a mark read interleave, and the
/// counts from before the read were kept for the next page; a page whose last change that was
/// showed them for good, seen as a browser test's offline reader never catching up.)
@Suite struct CountsCacheTests {
    private let user = UserID(1)
    private let counts = CountsCache.Counts(unread: [SourceID("a"): 3], starred: 1)

    @Test func countsAreReusedForTheirLifetimeWhileNoEntryArrived() {
        var cache = CountsCache(lifetime: .seconds(2))
        let start = ContinuousClock.now
        cache.keep(counts, for: cache.ticket(user: user, newest: 10, now: start))
        #expect(cache.counts(user: user, newest: 10, now: start + .seconds(1)) == counts)
        #expect(cache.counts(user: user, newest: 11, now: start + .seconds(1)) == nil)
        #expect(cache.counts(user: user, newest: 10, now: start + .seconds(3)) == nil)
        #expect(cache.counts(user: UserID(2), newest: 10, now: start) == nil)
    }

    @Test func countsComputedWhileAChangeWasMadeAreNotKept() {
        var cache = CountsCache(lifetime: .seconds(2))
        let start = ContinuousClock.now
        // A count begins, a read is saved meanwhile, the count (from before the read) ends.
        let ticket = cache.ticket(user: user, newest: 10, now: start)
        cache.invalidate(user)
        cache.keep(counts, for: ticket)
        #expect(cache.counts(user: user, newest: 10, now: start) == nil)
        // A count begun after the change is kept; another user's change does not touch it.
        cache.keep(counts, for: cache.ticket(user: user, newest: 10, now: start))
        cache.invalidate(UserID(2))
        #expect(cache.counts(user: user, newest: 10, now: start) == counts)
        cache.invalidate(user)
        #expect(cache.counts(user: user, newest: 10, now: start) == nil)
    }
}
