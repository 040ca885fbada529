import Foundation
import KioskCore
import KioskModel
import KioskReader
import KioskSQLite
import KioskSources
import KioskStore
import KioskTesting
import Logging
import ServiceLifecycle
import Testing

/// The reader view's fetching: once per entry, politely per host, failures as sentences.
@Suite struct ArticleServiceTests {
    /// Answers every page with `answer` after `gate` opens, counting requests and the most in flight.
    actor Pages: Fetching {
        var answer: Result<FetchResult, FetchError>
        private(set) var requests: [URL] = []
        private(set) var inFlight = 0
        private(set) var mostInFlight = 0
        private var held = true
        private var waiting: [CheckedContinuation<Void, Never>] = []

        init(_ answer: Result<FetchResult, FetchError>, held: Bool = false) {
            self.answer = answer
            self.held = held
        }

        func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResult {
            requests.append(request.url)
            inFlight += 1
            mostInFlight = max(mostInFlight, inFlight)
            if held { await withCheckedContinuation { waiting.append($0) } }
            inFlight -= 1
            return try answer.get()
        }

        func open() {
            held = false
            for waiter in waiting { waiter.resume() }
            waiting = []
        }

        func set(_ answer: Result<FetchResult, FetchError>) { self.answer = answer }
    }

    static func page(_ html: String, type: String? = "text/html; charset=utf-8", at url: String = "https://example.com/story")
        -> Result<FetchResult, FetchError>
    {
        let final = URL(string: url) ?? URL(fileURLWithPath: "/")
        return .success(.fetched(FetchedBody(bytes: Array(html.utf8), contentType: type, finalURL: final)))
    }

    /// An extractor that calls the page's text the article.
    static let extract: ArticleService.Extract = { bytes, _, _ in
        let text = String(decoding: bytes, as: UTF8.self)
        guard !text.isEmpty else { throw ArticleError.emptyPage }
        return ReaderArticle(title: "T", html: "<p>\(text)</p>", text: text, wordCount: 1)
    }

    /// A store holding `count` entries of one feed, and their ids.
    static func store(entries count: Int) async throws -> (SQLiteStore, [Int64]) {
        let store = try SQLiteStore.inMemoryDatabase()
        let feedURL = try #require(URL(string: "https://feed.example/feed.xml"))
        try await store.saveSubscriptions([Subscription(id: "feed", url: feedURL)], user: .owner)
        try await store.saveSourceState(
            SourceState(entries: (0..<count).map { Entry(id: "e\($0)", title: "E\($0)") }), for: "feed")
        let ids = try await store.readingList(EntryFilter(sources: ["feed"]), user: .owner).map(\.id)
        return (store, ids)
    }

    @Test func aPageIsFetchedOnceAndKeptWithItsEntry() async throws {
        let (store, ids) = try await Self.store(entries: 1)
        let id = try #require(ids.first)
        let pages = Pages(Self.page("The whole story."))
        let service = ArticleService(store: store, fetcher: pages, extract: Self.extract)
        let first = await service.article(entry: id, link: "https://example.com/story")
        #expect(first.article?.text == "The whole story.")
        #expect(first.url == "https://example.com/story")
        let again = await service.article(entry: id, link: "https://example.com/story")
        #expect(again == first)
        #expect(await pages.requests.count == 1)
        #expect(try await store.article(entry: id) == first)

        // A new service over the same store (a restart, another replica) fetches nothing either.
        let other = ArticleService(store: store, fetcher: pages, extract: Self.extract)
        #expect(await other.article(entry: id, link: "https://example.com/story") == first)
        #expect(await pages.requests.count == 1)
    }

    @Test func twoReplicasOverOneDatabaseFetchAPageOnce() async throws {
        let (store, ids) = try await Self.store(entries: 1)
        let id = try #require(ids.first)
        let pages = Pages(Self.page("Story."), held: true)
        var limits = ArticleService.Limits()
        limits.claimPoll = .milliseconds(10)
        // A claim that outlasts any stall of a loaded machine (at 20 s, a starved run let it lapse).
        limits.claimWait = .seconds(600)
        let first = ArticleService(store: store, fetcher: pages, extract: Self.extract, limits: limits)
        let second = ArticleService(store: store, fetcher: pages, extract: Self.extract, limits: limits)
        async let fromFirst = first.article(entry: id, link: "https://example.com/story")
        #expect(await eventually { await pages.inFlight == 1 })
        // The second replica waits for the first's page instead of fetching it too.
        async let fromSecond = second.article(entry: id, link: "https://example.com/story")
        try await Task.sleep(for: .milliseconds(100))
        #expect(await pages.requests.count == 1)
        await pages.open()
        let (one, two) = await (fromFirst, fromSecond)
        #expect(one.article?.text == "Story.")
        #expect(two == one)
        #expect(await pages.requests.count == 1)
    }

    @Test func aClaimLeftByAReplicaThatDiedIsWaitedOutThenFetchedHere() async throws {
        let (store, ids) = try await Self.store(entries: 1)
        let id = try #require(ids.first)
        // A replica claimed the page for a moment, then died before keeping anything.
        #expect(try await store.claimArticleFetch(entry: id, until: Date().addingTimeInterval(0.3), now: Date()))
        let pages = Pages(Self.page("Story."))
        var limits = ArticleService.Limits()
        limits.claimWait = .milliseconds(300)
        limits.claimPoll = .milliseconds(10)
        let service = ArticleService(store: store, fetcher: pages, extract: Self.extract, limits: limits)
        let article = await service.article(entry: id, link: "https://example.com/story")
        #expect(article.article?.text == "Story.")
        #expect(await pages.requests.count == 1)
    }

    @Test func manyAskingAtOnceMakeOneRequest() async throws {
        let (store, ids) = try await Self.store(entries: 1)
        let id = try #require(ids.first)
        let pages = Pages(Self.page("Story."), held: true)
        let service = ArticleService(store: store, fetcher: pages, extract: Self.extract)
        try await withThrowingTaskGroup(of: StoredArticle.self) { group in
            for _ in 0..<8 { group.addTask { await service.article(entry: id, link: "https://example.com/s") } }
            #expect(await eventually { await pages.inFlight == 1 })
            await pages.open()
            for try await outcome in group { #expect(outcome.article?.text == "Story.") }
        }
        #expect(await pages.requests.count == 1)
    }

    @Test func atMostTwoPagesOfOneHostAtOnce() async throws {
        let (store, ids) = try await Self.store(entries: 6)
        let pages = Pages(Self.page("Story."), held: true)
        let service = ArticleService(store: store, fetcher: pages, extract: Self.extract)
        await withTaskGroup(of: Void.self) { group in
            for (index, id) in ids.enumerated() {
                let host = index < 5 ? "busy.example" : "other.example"
                group.addTask { _ = await service.article(entry: id, link: "https://\(host)/\(index)") }
            }
            // Two of the busy host and the other host's one start; the rest wait their turn.
            #expect(await eventually { await pages.inFlight == 3 })
            #expect(await pages.requests.filter { $0.host == "busy.example" }.count == 2)
            await pages.open()
        }
        #expect(await pages.requests.count == 6)
        #expect(await pages.mostInFlight == 3)
    }

    @Test(arguments: [
        (FetchError.status(code: 403, message: nil, retryAfter: nil), "the site refused to give the page (HTTP 403)"),
        (.status(code: 404, message: nil, retryAfter: nil), "the page is gone (HTTP 404)"),
        (.tooLarge(limit: 5 << 20), "the page is too large (over 5 MB)"),
        (.timeout, "the site did not answer within 10 seconds"),
        (.refused("a private address"), "the site could not be reached"),
        (.network("connection refused"), "the site could not be reached"),
        (.tooManyRedirects, "the page redirects too many times"),
    ])
    func aFailureIsASentence(_ error: FetchError, _ sentence: String) async throws {
        let (store, ids) = try await Self.store(entries: 1)
        let id = try #require(ids.first)
        let service = ArticleService(store: store, fetcher: Pages(.failure(error)), extract: Self.extract)
        let outcome = await service.article(entry: id, link: "https://example.com/story")
        #expect(outcome.outcome == .failed(sentence))
    }

    @Test func notAPageNotAnArticleAndNoLinkAreSentencesToo() async throws {
        let (store, ids) = try await Self.store(entries: 3)
        let pdf = ArticleService(store: store, fetcher: Pages(Self.page("%PDF", type: "application/pdf")), extract: Self.extract)
        #expect(await pdf.article(entry: ids[0], link: "https://example.com/a.pdf").outcome == .failed("the link is not a web page (application/pdf)"))
        let empty = ArticleService(store: store, fetcher: Pages(Self.page("")), extract: Self.extract)
        #expect(await empty.article(entry: ids[1], link: "https://example.com/e").outcome == .failed(ArticleError.emptyPage.description))
        let pages = Pages(Self.page("x"))
        let none = ArticleService(store: store, fetcher: pages, extract: Self.extract)
        #expect(await none.article(entry: ids[2], link: "javascript:alert(1)").outcome == .failed("the entry has no link to a web page"))
        #expect(await none.article(entry: ids[2], link: nil).outcome == .failed("the entry has no link to a web page"))
        #expect(await pages.requests.isEmpty)
    }

    @Test func aFailureStandsForAnHourThenThePageIsTriedAgain() async throws {
        let (store, ids) = try await Self.store(entries: 1)
        let id = try #require(ids.first)
        let clock = ManualDate(Date(timeIntervalSince1970: 1_800_000_000))
        let pages = Pages(.failure(.timeout))
        let service = ArticleService(store: store, fetcher: pages, extract: Self.extract, now: { clock.now })
        #expect(await service.article(entry: id, link: "https://example.com/s").article == nil)
        await pages.set(Self.page("Back."))
        clock.now += 3_599
        #expect(await service.article(entry: id, link: "https://example.com/s").article == nil)
        #expect(await pages.requests.count == 1)
        clock.now += 1
        #expect(await service.article(entry: id, link: "https://example.com/s").article?.text == "Back.")
        #expect(await pages.requests.count == 2)
    }
}



/// "Show full articles": the background passes and the suggestion.
@Suite struct ArticlePrefetcherTests {
    /// Pages of two sites: down.example answers 503, every other site a page.
    actor HostPages: Fetching {
        private(set) var requests: [URL] = []
        func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResult {
            requests.append(request.url)
            if request.url.host == "down.example" { throw .status(code: 503, message: nil, retryAfter: nil) }
            return try ArticleServiceTests.page("A page.", at: request.url.absoluteString).get()
        }
        func count(_ host: String) -> Int { requests.filter { $0.host == host }.count }
    }

    @Test func aWakeMakesAPassAtOnceRatherThanAtTheNextTick() async throws {
        let store = try SQLiteStore.inMemoryDatabase()
        let feed = try #require(URL(string: "https://wanted.example/feed.xml"))
        try await store.saveSubscriptions([Subscription(id: "wanted", url: feed)], user: .owner)
        try await store.saveSourceState(
            SourceState(entries: [Entry(id: "a", title: "A", link: "https://wanted.example/a")]), for: "wanted")
        let pages = ArticleServiceTests.Pages(ArticleServiceTests.page("A whole article."))
        let articles = ArticleService(store: store, fetcher: pages, extract: ArticleServiceTests.extract)
        let wake = ArticlePrefetcher.Wake()
        // An hour between ticks: only the wake can make the second pass within the test.
        let prefetcher = ArticlePrefetcher(store: store, articles: articles, pause: .seconds(3_600), wake: wake)
        let group = ServiceGroup(services: [prefetcher], gracefulShutdownSignals: [], logger: Logger(label: "test"))
        let running = Task { try await group.run() }
        defer { running.cancel() }
        // The first pass (at start) finds no feed read as full articles.
        try await Task.sleep(for: .milliseconds(200))
        #expect(await pages.requests.isEmpty)

        try await store.saveSubscriptions([Subscription(id: "wanted", url: feed, fullArticles: true)], user: .owner)
        wake.now()
        #expect(await eventually { await pages.requests.count == 1 })
        await group.triggerGracefulShutdown()
        try? await running.value
    }

    /// A site whose pages keep failing is left alone for a while (1, 2, 4... passes after each
    /// failure in a row), while other sites' pages go on being read.
    @Test func aHostThatKeepsFailingIsLeftAloneForAWhile() async throws {
        let store = try SQLiteStore.inMemoryDatabase()
        let feed = try #require(URL(string: "https://mixed.example/feed.xml"))
        // Checked every minute, so each pass may read all of its waiting pages.
        try await store.saveSubscriptions(
            [Subscription(id: "mixed", url: feed, interval: .seconds(60), fullArticles: true)], user: .owner)
        var entries: [Entry] = []
        func arrive(_ round: Int) async throws {
            entries = [
                Entry(id: "down\(round)", title: "D\(round)", link: "https://down.example/\(round)"),
                Entry(id: "up\(round)", title: "U\(round)", link: "https://up.example/\(round)"),
            ] + entries
            try await store.saveSourceState(SourceState(entries: entries), for: "mixed")
        }
        let pages = HostPages()
        let articles = ArticleService(store: store, fetcher: pages, extract: ArticleServiceTests.extract)
        let prefetcher = ArticlePrefetcher(store: store, articles: articles)
        // Pass 1: both hosts asked; the down one fails. Pass 2: it rests. Pass 3: asked again,
        // fails again. Passes 4 and 5: it rests. Pass 6: asked again.
        var downAsked: [Int] = []
        for round in 1...6 {
            try await arrive(round)
            _ = await prefetcher.pass()
            downAsked.append(await pages.count("down.example"))
        }
        #expect(downAsked == [1, 1, 2, 2, 2, 3])
        #expect(await pages.count("up.example") == 6, "the other host's pages were all read")
    }

    /// Passes made for arrivals between two ticks count as no time: a resting host stays resting
    /// (it was shortened by every pass before), a failing one is not probed, and its waiting
    /// entries do not make passes follow each other.
    @Test func passesForArrivalsNeitherShortenARestNorProbe() async throws {
        let store = try SQLiteStore.inMemoryDatabase()
        let feed = try #require(URL(string: "https://mixed.example/feed.xml"))
        try await store.saveSubscriptions(
            [Subscription(id: "mixed", url: feed, interval: .seconds(60), fullArticles: true)], user: .owner)
        var entries = [Entry(id: "d0", title: "D0", link: "https://down.example/0")]
        try await store.saveSourceState(SourceState(entries: entries), for: "mixed")
        let pages = HostPages()
        let articles = ArticleService(store: store, fetcher: pages, extract: ArticleServiceTests.extract)
        let prefetcher = ArticlePrefetcher(store: store, articles: articles)
        #expect(await prefetcher.pass().fetched == 1)  // a tick: asked, failed; resting for a tick
        // Fifteen arrive on the failing host: passes for them ask nothing and want no more.
        entries = (1...15).map { Entry(id: "d\($0)", title: "D\($0)", link: "https://down.example/\($0)") } + entries
        try await store.saveSourceState(SourceState(entries: entries), for: "mixed")
        for _ in 0..<5 {
            let pass = await prefetcher.pass(tick: false)
            #expect(pass.fetched == 0 && !pass.more)
        }
        #expect(await pages.count("down.example") == 1)
        // Arrivals on a healthy host are read between ticks all the same.
        entries = [Entry(id: "u1", title: "U1", link: "https://up.example/1")] + entries
        try await store.saveSourceState(SourceState(entries: entries), for: "mixed")
        #expect(await prefetcher.pass(tick: false).fetched == 1)
        // The next tick's pass rests the host still (one tick); the one after probes it once.
        #expect(await prefetcher.pass().fetched == 0)
        #expect(await prefetcher.pass().fetched == 1)
        #expect(await pages.count("down.example") == 2)
    }

    @Test func aSignalEndsThePasses() async throws {
        // Before, the loop never heard the group's graceful shutdown: SIGTERM left `kiosk`
        // running, its web server closed and everything else still going.
        let store = try SQLiteStore.inMemoryDatabase()
        let feed = try #require(URL(string: "https://wanted.example/feed.xml"))
        try await store.saveSubscriptions([Subscription(id: "wanted", url: feed, fullArticles: true)], user: .owner)
        try await store.saveSourceState(
            SourceState(entries: [Entry(id: "a", title: "A", link: "https://wanted.example/a")]), for: "wanted")
        let pages = ArticleServiceTests.Pages(ArticleServiceTests.page("A whole article."))
        let articles = ArticleService(store: store, fetcher: pages, extract: ArticleServiceTests.extract)
        let prefetcher = ArticlePrefetcher(store: store, articles: articles, pause: .seconds(3_600))
        let group = ServiceGroup(services: [prefetcher], gracefulShutdownSignals: [], logger: Logger(label: "test"))
        let running = Task { try await group.run() }
        // Running (its first pass fetched the one page) before the signal, however loaded the machine.
        #expect(await eventually { await pages.requests.count == 1 })
        await group.triggerGracefulShutdown()
        let clock = ContinuousClock()
        let start = clock.now
        // Cancelled if it does not end by itself, so a regression fails rather than hangs.
        let watchdog = Task {
            try await Task.sleep(for: .seconds(30))
            running.cancel()
        }
        try? await running.value
        watchdog.cancel()
        #expect(clock.now - start < .seconds(25))
    }

    @Test func aPassFetchesTheNewEntriesOfFeedsReadAsFullArticlesOnce() async throws {
        let store = try SQLiteStore.inMemoryDatabase()
        let wanted = try #require(URL(string: "https://wanted.example/feed.xml"))
        let plain = try #require(URL(string: "https://plain.example/feed.xml"))
        try await store.saveSubscriptions(
            // Checked every minute: a pass (a minute) may read all its waiting pages.
            [Subscription(id: "wanted", url: wanted, interval: .seconds(60), fullArticles: true), Subscription(id: "plain", url: plain)],
            user: .owner)
        let entries = (0..<3).map { Entry(id: "w\($0)", title: "W\($0)", link: "https://wanted.example/\($0)") }
        try await store.saveSourceState(SourceState(entries: entries), for: "wanted")
        try await store.saveSourceState(
            SourceState(entries: [Entry(id: "p", title: "P", link: "https://plain.example/p")]), for: "plain")
        let pages = ArticleServiceTests.Pages(ArticleServiceTests.page("A whole article."))
        let articles = ArticleService(store: store, fetcher: pages, extract: ArticleServiceTests.extract)
        let prefetcher = ArticlePrefetcher(store: store, articles: articles)

        #expect(await prefetcher.pass().fetched == 3)
        #expect(Set(await pages.requests.map(\.absoluteString)) == Set(entries.compactMap(\.link)))
        // Every entry has its article now; the next pass has nothing to do.
        #expect(await prefetcher.pass().fetched == 0)
        #expect(await pages.requests.count == 3)

        // A new entry arrives: the next pass fetches it alone.
        try await store.saveSourceState(
            SourceState(entries: [Entry(id: "w9", title: "W9", link: "https://wanted.example/9")] + entries), for: "wanted")
        #expect(await prefetcher.pass().fetched == 1)
        #expect(await pages.requests.last?.absoluteString == "https://wanted.example/9")
    }

    /// A burst of new entries is read over the feed's interval, not at once: twenty on a feed
    /// checked every ten minutes are read two a pass (a minute) for ten passes, the first at once;
    /// one on an hourly feed is read at the first pass.
    @Test func aBurstIsSpreadOverTheFeedsInterval() async throws {
        let store = try SQLiteStore.inMemoryDatabase()
        let busy = try #require(URL(string: "https://busy.example/feed.xml"))
        let quiet = try #require(URL(string: "https://quiet.example/feed.xml"))
        try await store.saveSubscriptions(
            [
                Subscription(id: "busy", url: busy, interval: .seconds(600), fullArticles: true),
                Subscription(id: "quiet", url: quiet, interval: .seconds(3_600), fullArticles: true),
            ], user: .owner)
        let burst = (0..<20).map { Entry(id: "b\($0)", title: "B\($0)", link: "https://busy.example/\($0)") }
        try await store.saveSourceState(SourceState(entries: burst), for: "busy")
        try await store.saveSourceState(
            SourceState(entries: [Entry(id: "q", title: "Q", link: "https://quiet.example/q")]), for: "quiet")
        let pages = ArticleServiceTests.Pages(ArticleServiceTests.page("A whole article."))
        let articles = ArticleService(store: store, fetcher: pages, extract: ArticleServiceTests.extract)
        let prefetcher = ArticlePrefetcher(store: store, articles: articles, pause: .seconds(60))

        var perPass: [Int] = []
        for _ in 0..<11 { perPass.append(await prefetcher.pass().fetched) }
        // Pass 1: two of the burst and the quiet feed's one; then two a pass until the tenth.
        #expect(perPass == [3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 0])
        #expect(await pages.requests.count == 21)

        // Entries that arrive later are not backlog: read at once (they took five passes before,
        // spread like a backlog: an article opened soon after its entry arrived was a summary).
        let second = (20..<25).map { Entry(id: "b\($0)", title: "B\($0)", link: "https://busy.example/\($0)") }
        try await store.saveSourceState(SourceState(entries: second + burst), for: "busy")
        let next = await prefetcher.pass()
        #expect(next.fetched == 5 && !next.more)
        #expect(await prefetcher.pass().fetched == 0)

        // More arrivals than a pass takes (ten): the pass says so, and the next one takes the rest.
        let flood = (25..<37).map { Entry(id: "b\($0)", title: "B\($0)", link: "https://busy.example/\($0)") }
        try await store.saveSourceState(SourceState(entries: flood + second + burst), for: "busy")
        let first = await prefetcher.pass()
        #expect(first.fetched == 10 && first.more)
        #expect(await prefetcher.pass().fetched == 2)
    }

    /// A feed read as full articles changes: its new entries' pages are read then, not at the next
    /// tick (an hour away here), so an entry opened or synced seconds after it arrived is whole.
    @Test func aFeedThatChangesHasItsNewPagesReadAtOnce() async throws {
        let store = try SQLiteStore.inMemoryDatabase()
        let feed = try #require(URL(string: "https://wanted.example/feed.xml"))
        try await store.saveSubscriptions(
            [Subscription(id: "wanted", url: feed, interval: .seconds(300), fullArticles: true)], user: .owner)
        let first = Entry(id: "a", title: "A", link: "https://wanted.example/a")
        try await store.saveSourceState(SourceState(entries: [first]), for: "wanted")
        let pages = ArticleServiceTests.Pages(ArticleServiceTests.page("A whole article."))
        let articles = ArticleService(store: store, fetcher: pages, extract: ArticleServiceTests.extract)
        let hub = EventHub()
        let prefetcher = ArticlePrefetcher(store: store, articles: articles, pause: .seconds(3_600), hub: hub)
        let group = ServiceGroup(services: [prefetcher], gracefulShutdownSignals: [], logger: Logger(label: "test"))
        let running = Task { try await group.run() }
        defer { running.cancel() }
        // The pass at start reads the backlog (one page) and the service listens to the hub.
        #expect(await eventually { await pages.requests.count == 1 })
        #expect(await eventually { await hub.isListening(ArticlePrefetcher.hubName) })

        // Six arrive at once (the engine saves before it tells the hub); a five-minute feed's
        // backlog would have been spread over five passes, an hour apart here.
        let arrived = (1...6).map { Entry(id: "n\($0)", title: "N\($0)", link: "https://wanted.example/n\($0)") }
        try await store.saveSourceState(SourceState(entries: arrived + [first]), for: "wanted")
        await hub.publish(.changed("wanted", arrived + [first]))
        #expect(await eventually { await pages.requests.count == 7 })
        #expect(Set(await pages.requests.map(\.absoluteString)).isSuperset(of: arrived.compactMap(\.link)))
        await group.triggerGracefulShutdown()
        try? await running.value
    }

    @Test func summariesUnderAFifthOfTheirArticlesAreSuggestedFullArticles() {
        #expect(FullArticleSuggestion(sample: [(40, 800), (30, 600), (50, 500)])?.share == 0.05)
        #expect(FullArticleSuggestion(sample: [(40, 800), (30, 600), (50, 500)])?.sentence
            == "This feed's entries hold about 5% of their articles' words. Show full articles to read the rest here.")
        // Whole articles in the feed, or too few to judge: nothing suggested.
        #expect(FullArticleSuggestion(sample: [(800, 800), (590, 600), (500, 500)]) == nil)
        #expect(FullArticleSuggestion(sample: [(10, 800), (10, 600)]) == nil)
        #expect(FullArticleSuggestion.words(ofSummary: "<p>Two <b>short</b> sentences. Here.</p>") == 4)
    }
}
