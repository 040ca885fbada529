import Foundation
import KioskModel
import KioskSources
import KioskStore
import Logging
import ServiceLifecycle

/// "Show full articles": every pass (a minute by default), the newest entries of each feed a
/// follower reads as full articles that have no article kept yet are fetched through
/// `ArticleService`, so they are ready when opened and when apps sync. Politely: a feed's new
/// pages are spread over its interval (a burst of twenty on a ten-minute feed: two a pass for
/// ten passes, at most `perFeedPerPass`), at most two pages of a host at once (the service's
/// rule), each entry once (a failure is kept too, so it is not fetched again by this).
public struct ArticlePrefetcher: Service {
    /// Asks for a pass now rather than at the next minute (a feed was just set to "Show full
    /// articles"); asks made while a pass runs make one more pass, not one each.
    public struct Wake: Sendable {
        fileprivate let passes: AsyncStream<Void>
        private let continuation: AsyncStream<Void>.Continuation

        public init() {
            (passes, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        }

        public func now() { continuation.yield() }
    }

    private let store: any ArticleStore
    private let articles: ArticleService
    private let clock: any Clock<Duration>
    private let pause: Duration
    private let perFeedPerPass: Int
    private let logger: Logger
    private let wake: Wake
    private let pacing = Pacing()

    /// What the passes remember: which hosts keep failing, and for how many passes to leave
    /// them be (1, 2, 4... up to 64 passes, about an hour, after each failure in a row; a page
    /// read resets it); and by which pass each feed's waiting pages are to be read.
    actor Pacing {
        private var pass = 0
        private var failures: [String: (count: Int, skipUntil: Int)] = [:]
        private var deadlines: [SourceID: Int] = [:]

        /// How many of `feed`'s `waiting` pages this pass reads: the waiting pages shared out
        /// over the passes left until the feed's deadline, one interval (`passesPerInterval`)
        /// after its backlog began; at least one (the first page at once), at most `cap`.
        func share(of feed: SourceID, waiting: Int, passesPerInterval: Int, cap: Int, at pass: Int) -> Int {
            guard waiting > 0 else {
                deadlines[feed] = nil
                return 0
            }
            var deadline = deadlines[feed] ?? 0
            if deadline < pass { deadline = pass + max(1, passesPerInterval) - 1 }
            deadlines[feed] = deadline
            let left = deadline - pass + 1
            return min(cap, max(1, (waiting + left - 1) / left))
        }

        func nextPass() -> Int {
            pass += 1
            return pass
        }

        func isResting(_ host: String, at pass: Int) -> Bool {
            (failures[host]?.skipUntil ?? 0) > pass
        }

        /// Whether the host's last page failed: one page of it a pass, as a probe.
        func isFailing(_ host: String) -> Bool { failures[host] != nil }

        func record(_ host: String, failed: Bool, at pass: Int) {
            guard failed else {
                failures[host] = nil
                return
            }
            // After n failures in a row, the next 2^(n-1) passes leave the host be.
            let count = (failures[host]?.count ?? 0) + 1
            failures[host] = (count, pass + 1 + min(64, 1 << min(count - 1, 6)))
        }
    }

    public init(
        store: any ArticleStore, articles: ArticleService, clock: any Clock<Duration> = ContinuousClock(),
        pause: Duration = .seconds(60), perFeedPerPass: Int = 10, wake: Wake = Wake(),
        logger: Logger = Logger(label: "kiosk.articles")
    ) {
        self.wake = wake
        self.store = store
        self.articles = articles
        self.clock = clock
        self.pause = pause
        self.perFeedPerPass = perFeedPerPass
        self.logger = logger
    }

    /// Passes until the service group shuts down (a signal): then the pass in flight is
    /// cancelled, so `kiosk` stops at once instead of waiting on it forever.
    public func run() async throws {
        let wake = wake
        let clock = clock
        let pause = pause
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                // The minute's tick is one more way to ask for a pass.
                group.addTask {
                    while !Task.isCancelled {
                        wake.now()
                        do { try await clock.sleep(for: pause, tolerance: nil) } catch { return }
                    }
                }
                // Ends when cancelled (the service group shutting down).
                for await _ in wake.passes { await pass() }
                group.cancelAll()
            }
        }
    }

    /// One pass over the feeds read as full articles; returns how many pages it fetched: each
    /// feed's share (its waiting pages spread over its interval, at most `perFeedPerPass`), and
    /// none of a host whose pages keep failing, for a while.
    @discardableResult
    public func pass() async -> Int {
        let number = await pacing.nextPass()
        let feeds: [FullArticleFeed]
        do {
            feeds = try await store.fullArticleFeeds()
        } catch {
            logger.warning("cannot list the feeds read as full articles", metadata: ["error": "\(error)"])
            return 0
        }
        var wanted: [ArticleWanted] = []
        var probed: Set<String> = []
        for feed in feeds {
            do {
                let waiting = try await store.entriesWithoutArticles(of: feed.id, limit: perFeedPerPass * 4)
                let share = await pacing.share(
                    of: feed.id, waiting: waiting.count, passesPerInterval: Self.passes(in: feed.interval, each: pause),
                    cap: perFeedPerPass, at: number)
                var taken = 0
                for entry in waiting where taken < share {
                    // An entry with no link to a page is read too: its failure is kept, once.
                    if let host = Self.host(entry.link) {
                        if await pacing.isResting(host, at: number) { continue }
                        if await pacing.isFailing(host), !probed.insert(host).inserted { continue }
                    }
                    wanted.append(entry)
                    taken += 1
                }
            } catch {
                logger.warning("cannot list a feed's entries", metadata: ["source": "\(feed.id)", "error": "\(error)"])
            }
        }
        let articles = articles
        let pacing = pacing
        await withTaskGroup(of: Void.self) { group in
            for entry in wanted {
                group.addTask {
                    let outcome = await articles.article(entry: entry.entry, link: entry.link)
                    if let host = Self.host(entry.link) { await pacing.record(host, failed: outcome.article == nil, at: number) }
                }
            }
        }
        return wanted.count
    }

    /// How many passes, `each` apart, an interval spans (at least one).
    static func passes(in interval: Duration, each pause: Duration) -> Int {
        guard pause > .zero else { return 1 }
        return max(1, Int((interval / pause).rounded(.up)))
    }

    static func host(_ link: String?) -> String? {
        link.flatMap(URL.init(string:))?.host?.lowercased()
    }
}
