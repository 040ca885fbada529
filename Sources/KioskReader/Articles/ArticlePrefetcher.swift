import Foundation
import KioskModel
import KioskSources
import KioskStore
import Logging
import ServiceLifecycle

/// "Show full articles": the newest entries of each feed a follower reads as full articles that
/// have no article kept yet are fetched through `ArticleService`, so they are ready when opened
/// and when apps sync. A pass runs when such a feed changes (the hub says so: its new entries are
/// read at once, not at the next tick), when asked (`Wake`), and every `pause` (a minute).
/// Politely: at most two pages of a host at once (the service's rule), a host that keeps failing
/// left alone for a while, each entry once (a failure is kept too), once per cluster (the
/// service's claims); a feed's backlog, the entries it had when it was first seen here, is spread
/// over its interval (twenty on a ten-minute feed: two a pass for ten passes), while entries that
/// arrive later are read at once, `perFeedPerPass` a pass, passes following each other until done.
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
    private let hub: EventHub?
    private let pacing = Pacing()

    /// What the passes remember: which hosts keep failing, and for how many passes to leave
    /// them be (1, 2, 4... up to 64 passes, about an hour, after each failure in a row; a page
    /// read resets it); and by which pass each feed's waiting pages are to be read.
    actor Pacing {
        private var pass = 0
        private var failures: [String: (count: Int, skipUntil: Int)] = [:]
        private var deadlines: [SourceID: Int] = [:]
        /// Each feed's newest waiting entry when it was first seen here (by the store's id, which
        /// grows with arrival): what is above arrived later. A feed not in it has not been seen.
        private var backlogTop: [SourceID: Int64] = [:]
        /// The feeds read as full articles at the last pass: their changes wake a pass.
        private(set) var fullArticleFeeds: Set<SourceID> = []

        func hasSeen(_ feed: SourceID) -> Bool { backlogTop[feed] != nil }

        /// Splits `waiting` into what arrived since the feed was first seen and its backlog.
        func arrivals(of feed: SourceID, in waiting: [ArticleWanted]) -> (arrived: [ArticleWanted], backlog: [ArticleWanted]) {
            guard let top = backlogTop[feed] else {
                backlogTop[feed] = waiting.map(\.entry).max() ?? 0
                return ([], waiting)
            }
            return (waiting.filter { $0.entry > top }, waiting.filter { $0.entry <= top })
        }

        func setFullArticleFeeds(_ feeds: Set<SourceID>) {
            fullArticleFeeds = feeds
            backlogTop = backlogTop.filter { feeds.contains($0.key) }
        }

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

        /// The pass's number: a new one on the minute's tick (rests and backlog shares are
        /// counted in ticks, however many passes arrivals make in between), else the current one.
        func number(tick: Bool) -> Int {
            if tick { pass += 1 }
            return pass
        }

        /// Whether the minute's tick came since the last pass took it.
        private var tickDue = false

        func markTick() { tickDue = true }

        func takeTick() -> Bool {
            defer { tickDue = false }
            return tickDue
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
        pause: Duration = .seconds(60), perFeedPerPass: Int = 10, wake: Wake = Wake(), hub: EventHub? = nil,
        logger: Logger = Logger(label: "kiosk.articles")
    ) {
        self.wake = wake
        self.hub = hub
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
                let ticks = pacing
                group.addTask {
                    while !Task.isCancelled {
                        await ticks.markTick()
                        wake.now()
                        do { try await clock.sleep(for: pause, tolerance: nil) } catch { return }
                    }
                }
                // A feed read as full articles changed: its new entries are read now. (The store
                // holds them before the hub is told.)
                if let hub {
                    let pacing = pacing
                    let updates = await hub.subscribe(bufferSize: 1_024, name: Self.hubName)
                    group.addTask {
                        for await update in updates {
                            switch update {
                            case .event(let event):
                                guard case .changed(let id, _, _) = event.kind,
                                    await pacing.fullArticleFeeds.contains(id)
                                else { continue }
                                wake.now()
                            case .resync:
                                wake.now()
                            }
                        }
                    }
                }
                // Ends when cancelled (the service group shutting down).
                for await _ in wake.passes {
                    // More arrivals than a pass takes: the next pass follows, a second later.
                    if await pass(tick: pacing.takeTick()).more {
                        try? await clock.sleep(for: .seconds(1), tolerance: nil)
                        wake.now()
                    }
                }
                group.cancelAll()
            }
        }
    }

    /// What the hub knows this service as (``EventHub/isListening(_:)``).
    public static let hubName = "article-prefetcher"

    /// One pass over the feeds read as full articles; returns how many pages it fetched: each
    /// feed's new arrivals (at most `perFeedPerPass`) and, on a `tick` (the minute's) or when the
    /// feed is seen for the first time, its backlog's share (spread over its interval, within the same cap) and one probe of each host
    /// whose pages keep failing; none of a host resting after failures. Rests and shares are
    /// counted in ticks, so passes made for arrivals between two ticks change neither. Also says
    /// whether arrivals that could be read are left for another pass.
    @discardableResult
    public func pass(tick: Bool = true) async -> (fetched: Int, more: Bool) {
        let number = await pacing.number(tick: tick)
        let feeds: [FullArticleFeed]
        do {
            feeds = try await store.fullArticleFeeds()
        } catch {
            logger.warning("cannot list the feeds read as full articles", metadata: ["error": "\(error)"])
            return (0, false)
        }
        await pacing.setFullArticleFeeds(Set(feeds.map(\.id)))
        var wanted: [ArticleWanted] = []
        var probed: Set<String> = []
        var more = false
        for feed in feeds {
            do {
                let waiting = try await store.entriesWithoutArticles(of: feed.id, limit: perFeedPerPass * 4)
                // A feed seen for the first time (just set to full articles) has its first share
                // at once, whatever made the pass.
                let firstSeen = await !pacing.hasSeen(feed.id)
                let (arrived, backlog) = await pacing.arrivals(of: feed.id, in: waiting)
                let share =
                    tick || firstSeen
                    ? await pacing.share(
                        of: feed.id, waiting: backlog.count, passesPerInterval: Self.passes(in: feed.interval, each: pause),
                        cap: perFeedPerPass, at: number) : 0
                var readable: [(entry: ArticleWanted, arrived: Bool)] = []
                for (entry, isArrival) in arrived.map({ ($0, true) }) + backlog.map({ ($0, false) }) {
                    // An entry with no link to a page is read too: its failure is kept, once.
                    if let host = Self.host(entry.link) {
                        if await pacing.isResting(host, at: number) { continue }
                        if await pacing.isFailing(host), !tick || !probed.insert(host).inserted { continue }
                    }
                    readable.append((entry, isArrival))
                }
                let readableArrivals = readable.filter(\.arrived).count
                let taken = Array(readable.prefix(min(perFeedPerPass, readableArrivals + share)))
                wanted += taken.map(\.entry)
                if readableArrivals > taken.filter(\.arrived).count { more = true }
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
        return (wanted.count, more)
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
