import Foundation
import KioskSources
import KioskStore
import Logging
import ServiceLifecycle

/// "Show full articles": every pass (a minute by default), the newest entries of each feed a
/// follower reads as full articles that have no article kept yet are fetched through
/// `ArticleService`, so they are ready when opened and when apps sync. Politely: a few per feed
/// per pass (spread over passes, not all at once), at most two pages of a host at once (the
/// service's rule), each entry once (a failure is kept too, so it is not fetched again by this).
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

    /// One pass over the feeds read as full articles; returns how many pages it fetched.
    @discardableResult
    public func pass() async -> Int {
        let feeds: [SourceID]
        do {
            feeds = try await store.fullArticleFeeds()
        } catch {
            logger.warning("cannot list the feeds read as full articles", metadata: ["error": "\(error)"])
            return 0
        }
        var wanted: [ArticleWanted] = []
        for feed in feeds {
            do {
                wanted += try await store.entriesWithoutArticles(of: feed, limit: perFeedPerPass)
            } catch {
                logger.warning("cannot list a feed's entries", metadata: ["source": "\(feed)", "error": "\(error)"])
            }
        }
        let articles = articles
        await withTaskGroup(of: Void.self) { group in
            for entry in wanted {
                group.addTask { _ = await articles.article(entry: entry.entry, link: entry.link) }
            }
        }
        return wanted.count
    }
}
