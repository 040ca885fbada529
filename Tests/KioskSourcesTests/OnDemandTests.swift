import AsyncHTTPClient
import Foundation
import KioskCore
import KioskDemo
import KioskModel
import KioskTesting
import ServiceLifecycle
import Testing
@testable import KioskSources

/// Request-driven sources over real loopback HTTP against the sample server.
@Suite struct OnDemandTests {
    @Test func aClientHasOneJokeRequestInFlightAtATime() async throws {
        try await withSampleSources(latencies: [.jokes: .milliseconds(400)]) { server, catalogue, fetcher in
            let jokes = JokeService(url: catalogue.jokesURL, fetcher: fetcher, deviceID: UUID())
            async let first = jokes.joke(for: "tab-1")
            async let second = jokes.joke(for: "tab-1")  // a second click while the first is on its way
            let (a, b) = await (first, second)
            #expect(try a.get() == b.get())
            #expect(await server.control.requestCount(for: .jokes) == 1)
            #expect(await jokes.isFetching(for: "tab-1") == false)
            // Another client, or the same one later, gets a request of its own, and a new joke.
            let third = try await jokes.joke(for: "tab-1").get()
            #expect(third != (try a.get()))
            #expect(await server.control.requestCount(for: .jokes) == 2)
        }
    }

    // The identity itself lives in the store (KioskStoreTests: theDeviceIDIsMadeOnceAndStaysTheSame).
    @Test func theDeviceIdentityIsSent() async throws {
        let first = UUID()
        try await withSampleSources { _, catalogue, fetcher in
            // The joke API refuses a request without the header: success proves it was sent.
            let jokes = JokeService(url: catalogue.jokesURL, fetcher: fetcher, deviceID: first)
            #expect((try? await jokes.joke(for: "c").get()) != nil)
            let anonymous = CachedResource(name: "jokes", url: catalogue.jokesURL, fetcher: fetcher) { _ in "" }
            if case .fetch(.status(400, let message?, _))? = await anonymous.load().error {
                #expect(message.lowercased().contains("uuid") || message.lowercased().contains("device"))
            } else {
                Issue.record("a request without x-device-uuid should be refused with the API's message")
            }
        }
    }

    @Test func discoverPagesTenAtATimeUntilTheLastPage() async throws {
        try await withSampleSources { _, catalogue, fetcher in
            let discover = DiscoverService(settings: catalogue.newsAPI, fetcher: fetcher)
            let first = try await discover.headlines(category: "business").get()
            #expect(first.articles.count == 10)
            #expect(first.hasMore)
            var page = first
            var seen = first.articles.map(\.title)
            while page.hasMore {
                page = try await discover.headlines(category: "business", page: page.page + 1).get()
                seen += page.articles.map(\.title)
            }
            #expect(seen.count == first.totalResults)
            #expect(Set(seen).count == seen.count)
        }
    }

    @Test func apiErrorsCarryTheAPIsOwnMessage() async throws {
        try await withSampleSources { _, catalogue, fetcher in
            var keyless = catalogue.newsAPI
            keyless.apiKey = nil
            let result = await DiscoverService(settings: keyless, fetcher: fetcher).headlines(category: "business")
            guard case .failure(.fetch(.status(401, let message?, _))) = result else {
                Issue.record("expected the API's 401, got \(result)")
                return
            }
            #expect(message.contains("API key"))
            // Past 100 results the free plan answers 426 maximumResultsReached.
            var wide = catalogue.newsAPI
            wide.pageSize = 100
            let tooFar = await DiscoverService(settings: wide, fetcher: fetcher).headlines(category: "business", page: 2)
            guard case .failure(.fetch(.status(426, let tooFarMessage?, _))) = tooFar else {
                Issue.record("expected 426, got \(tooFar)")
                return
            }
            #expect(tooFarMessage.contains("100"))
        }
    }

    /// main: every new query was a call to the API (30 queries, 30 calls), spending the key's quota.
    @Test func discoverKeepsAnswersAndLimitsEachAccountsCalls() async throws {
        try await withSampleSources { server, catalogue, fetcher in
            let clock = ManualDate(Date(timeIntervalSince1970: 1_760_000_000))
            var budget = DiscoverService.Budget()
            budget.callsPerAccount = 3
            let discover = DiscoverService(settings: catalogue.newsAPI, fetcher: fetcher, budget: budget, now: { clock.now })
            let start = await server.control.requestCount(for: .newsAPI)
            func calls() async -> Int { await server.control.requestCount(for: .newsAPI) - start }

            // The same words, in any case and spacing, and the same category page: asked once.
            let first = try await discover.search("Climate", client: "a", account: "ada").get()
            #expect(try await discover.search("  climate ", client: "b", account: "ada").get() == first)
            _ = try await discover.headlines(category: "science", account: "ada").get()
            _ = try await discover.headlines(category: "science", account: "bob").get()
            #expect(await calls() == 2)

            // A refresh asks again (and counts).
            _ = try await discover.headlines(category: "science", account: "ada", fresh: true).get()
            #expect(await calls() == 3)

            // Ada has spent her three calls: a new query is refused with a sentence; kept answers
            // still come; Bob's calls are his own.
            guard case .failure(.fetch(.status(429, let message?, _))) = await discover.search("markets", client: "a", account: "ada")
            else {
                Issue.record("a fourth call in the window was not refused")
                return
            }
            #expect(message.contains("at most 3 times in 10 minutes"))
            #expect((try? await discover.search("climate", client: "a", account: "ada").get()) == first)
            #expect((try? await discover.search("markets", client: "c", account: "bob").get()) != nil)
            #expect(await calls() == 4)

            // Ten minutes later: answers asked anew, and Ada may call again.
            clock.now += 601
            #expect((try? await discover.search("markets", client: "a", account: "ada").get()) != nil)
            _ = try await discover.search("climate", client: "a", account: "ada").get()
            #expect(await calls() == 6)
        }
    }

    /// The calls are counted in the ledger it is given (the store, when serving): a second
    /// Discover on the same ledger, another replica or this one restarted, sees them.
    @Test func discoverCountsCallsWhereAnotherReplicaSeesThem() async throws {
        try await withSampleSources { _, catalogue, fetcher in
            let clock = ManualDate(Date(timeIntervalSince1970: 1_760_000_000))
            var budget = DiscoverService.Budget()
            budget.callsPerAccount = 2
            let ledger = MemoryAllowanceLedger()
            let one = DiscoverService(settings: catalogue.newsAPI, fetcher: fetcher, budget: budget, ledger: ledger, now: { clock.now })
            let other = DiscoverService(settings: catalogue.newsAPI, fetcher: fetcher, budget: budget, ledger: ledger, now: { clock.now })
            _ = try await one.search("climate", client: "a", account: "ada").get()
            _ = try await other.search("markets", client: "a", account: "ada").get()
            guard case .failure(.fetch(.status(429, _, _))) = await one.search("science", client: "a", account: "ada") else {
                Issue.record("a third call across two replicas was not refused")
                return
            }
        }
    }

    @Test func aNewerSearchSupersedesAnOlderOne() async throws {
        try await withSampleSources(latencies: [.newsAPI: .milliseconds(600)]) { _, catalogue, fetcher in
            let discover = DiscoverService(settings: catalogue.newsAPI, fetcher: fetcher)
            async let older = discover.search("market", client: "tab-1")
            try await Task.sleep(for: .milliseconds(100))
            async let newer = discover.search("climate", client: "tab-1")
            let (old, new) = await (older, newer)
            #expect(old == .failure(.superseded))
            let page = try new.get()
            #expect(page.articles.allSatisfy { article in
                ((article.title ?? "") + " " + (article.description ?? "")).lowercased().contains("climate")
            })
            // Another client's search is its own.
            #expect((try? await discover.search("market", client: "tab-2").get()) != nil)
        }
    }

    @Test func factsAndAlbumsKeepTheLastGoodValue() async throws {
        try await withSampleSources { server, catalogue, fetcher in
            let facts = CachedResource(name: "Facts", url: catalogue.factsURL, fetcher: fetcher) { body in
                try FactsParser.parse(Data(body.bytes))
            }
            let good = await facts.load()
            #expect(good.value?.rows.count == 13)
            #expect(good.error == nil)
            await server.control.setFault(.serverError, for: .facts)
            let failed = await facts.load()
            #expect(failed.value?.rows.count == 13)
            #expect(failed.error != nil)
            await server.control.setFault(.garbageBody, for: .facts)
            if case .unreadable? = await facts.load().error {} else { Issue.record("garbage should be unreadable") }
            let albums = CachedResource(name: "Top Albums", url: catalogue.albumsURL, fetcher: fetcher) { body in
                try AlbumFeedParser.parse(Data(body.bytes))
            }
            let chart = await albums.load().value
            #expect(chart?.albums.count == 100)
            #expect(chart?.albums.first?.artworkURL?.hasPrefix(catalogue.albumsURL?.scheme ?? "http") == true)
        }
    }

    @Test func aRefreshShowsTheLastCopyAtOnceAndItsOutcomeWhenItLands() async throws {
        try await withSampleSources { server, catalogue, fetcher in
            let facts = CachedResource(name: "Facts", url: catalogue.factsURL, fetcher: fetcher) { body in
                try FactsParser.parse(Data(body.bytes))
            }
            // Nothing cached yet: the first answer is the source's.
            let first = await facts.current(refresh: true)
            #expect(first.value?.rows.count == 13 && !first.refreshing)
            // A slow source: the refresh answers with the last copy, marked, and goes on.
            await server.control.setLatency(.seconds(2), for: .facts)
            let meanwhile = await facts.current(refresh: true)
            #expect(meanwhile.refreshing)
            #expect(meanwhile.value?.rows.count == 13)
            let again = await facts.current(refresh: true)
            #expect(again.refreshing, "a second tap joins the refresh under way")
            let landed = await facts.settled()
            #expect(!landed.refreshing && landed.value?.rows.count == 13 && landed.error == nil)
            #expect(await server.control.requestCount(for: .facts) == 2, "one refresh, however many taps")
            // A refresh that fails keeps the last copy, and says why.
            await server.control.setFault(.serverError, for: .facts)
            _ = await facts.current(refresh: true)
            let failed = await facts.settled()
            #expect(failed.value?.rows.count == 13 && failed.error != nil)
        }
    }

    @Test func aCategoryPageIsFetchedOnceForEveryoneWaitingAndCancelledWhenAllGiveUp() async throws {
        try await withSampleSources { server, catalogue, fetcher in
            let discover = DiscoverService(settings: catalogue.newsAPI, fetcher: fetcher)
            await server.control.setLatency(.seconds(2), for: .newsAPI)
            let before = await server.control.requestCount(for: .newsAPI)
            let leaving = Task { await discover.headlines(category: "science") }
            let staying = Task { await discover.headlines(category: "science") }
            try await Task.sleep(for: .milliseconds(300))
            leaving.cancel()  // one reader taps away; the other still waits
            #expect((try? await staying.value.get())?.articles.isEmpty == false)
            #expect(await server.control.requestCount(for: .newsAPI) == before + 1, "one request for both")
            // Everyone gives up: the request is cancelled, not waited out.
            let abandoned = Task { await discover.headlines(category: "health") }
            try await Task.sleep(for: .milliseconds(300))
            abandoned.cancel()
            if case .failure(.superseded) = await abandoned.value {} else { Issue.record("the abandoned request was not cancelled") }
        }
    }

    @Test func aSubscriberThatFallsBehindIsResynced() async throws {
        let hub = EventHub()
        let subscription = await hub.subscribe(bufferSize: 4)
        var iterator = subscription.makeAsyncIterator()
        guard case .resync(let start)? = await iterator.next() else {
            Issue.record("a subscription starts with a resync")
            return
        }
        #expect(start.sequence == 0)
        for index in 0..<50 {  // the reader is not reading: its buffer overflows
            await hub.publish(.changed("a", [Entry(id: "\(index)")]))
        }
        guard case .resync(let snapshot)? = await iterator.next() else {
            Issue.record("a reader that fell behind gets a resync, not a gap")
            return
        }
        #expect(snapshot.sequence == 50)
        #expect(snapshot.entries["a"] == [Entry(id: "49")])
        await hub.publish(.idle("a"))
        #expect(await iterator.next() == .event(EngineEvent(sequence: 51, kind: .idle("a"))))
    }

    @Test func theEngineStopsOnGracefulShutdown() async throws {
        try await withSampleSources { _, catalogue, fetcher in
            let engine = Engine(feeds: catalogue.feeds, fetcher: fetcher, hub: EventHub())
            let group = ServiceGroup(services: [engine], gracefulShutdownSignals: [], logger: .init(label: "test"))
            let running = Task { try await group.run() }
            try await Task.sleep(for: .milliseconds(300))
            await group.triggerGracefulShutdown()
            let clock = ContinuousClock()
            let start = clock.now
            try await running.value
            #expect(clock.now - start < .seconds(10))
        }
    }
}

