import Foundation
import Hummingbird
import KioskCore
import KioskDemo
import KioskModel
import KioskReader
import KioskSettings
import KioskSources
import KioskStore
@testable import KioskWeb
import Logging
import ServiceLifecycle
import Testing

/// The destination guards as `kiosk serve` wires them (`WebDependencies.live`), not as the test
/// harness builds its own fetcher: the feed fetcher and the image fetcher each refuse a name that
/// resolves into this machine's network; allowing private feeds opens the feed fetcher only.
/// The article fetcher (the image fetcher, `Parts.imageFetcher`) is tested through a stored entry,
/// and both fetchers with a configured source's server redirecting inward.
@Suite struct LiveWiringTests {
    /// Answers as a hostile DNS server would: a public-looking name pointing at loopback.
    static let resolver: DestinationGuard.Resolver = { host, _ in
        switch host.lowercased() {
        case "inward.example": ["127.0.0.1"]
        default: throw FetchError.network("unknown name")
        }
    }

    /// The live dependencies over a fresh data directory, their services running (the HTTP
    /// clients must be shut down by their service), stopped afterwards.
    static func withLive(
        allowPrivateFeeds: Bool = false, sources base: String = "http://127.0.0.1:9",
        _ body: (WebDependencies) async throws -> Void
    ) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-wiring-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        var settings = Settings(dataDirectory: directory)
        settings.allowPrivateFeeds = allowPrivateFeeds
        settings.port = 0
        // Sources on a port nobody listens on (or that answers 404): the engine's checks fail
        // quietly meanwhile.
        let catalogue = SourceCatalogue.demo(base: try #require(URL(string: base)), newsAPIKey: "demo")
        var config = AppConfig(settings: settings, catalogue: catalogue)
        config.passwordCost = 4
        let dependencies = try await WebDependencies.live(config, logger: .quiet, resolve: resolver)
        let group = ServiceGroup(services: dependencies.services, logger: .quiet)
        let running = Task { try await group.run() }
        do {
            try await body(dependencies)
        } catch {
            await group.triggerGracefulShutdown()
            _ = await running.result
            throw error
        }
        await group.triggerGracefulShutdown()
        _ = await running.result
    }

    @Test func everyFetcherRefusesANameThatResolvesInward() async throws {
        try await Self.withLive { live in
            await Self.expectFeedRefused("http://inward.example:8123/feed.xml", by: live, saying: "127.0.0.1")
            await Self.expectImageRefused(try #require(URL(string: "http://inward.example:8123/a.png")), by: live, saying: "127.0.0.1")
        }
    }

    /// The feed fetcher refuses `address` (found or followed), for a reason that names `culprit`.
    static func expectFeedRefused(
        _ address: String, by live: WebDependencies, saying culprit: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        do throws(FeedFinderError) {
            _ = try await live.reader.find(address)
            Issue.record("the feed fetcher fetched \(address)", sourceLocation: sourceLocation)
        } catch {
            guard case .addressRefused(let why) = error else {
                Issue.record("the feed fetcher failed otherwise: \(error)", sourceLocation: sourceLocation)
                return
            }
            #expect(why.contains(culprit), "\(why)", sourceLocation: sourceLocation)
        }
    }

    /// The image fetcher refuses `image` (asked or followed), for a reason that names `culprit`.
    static func expectImageRefused(
        _ image: URL, by live: WebDependencies, saying culprit: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        do throws(ImageError) {
            _ = try await live.images.image(for: image)
            Issue.record("the image fetcher fetched \(image)", sourceLocation: sourceLocation)
        } catch {
            guard case .fetch(.refused(let why)) = error else {
                Issue.record("the image fetcher failed otherwise: \(error)", sourceLocation: sourceLocation)
                return
            }
            #expect(why.contains(culprit), "\(why)", sourceLocation: sourceLocation)
        }
    }

    @Test func allowingPrivateFeedsOpensTheFeedFetcherOnly() async throws {
        try await Self.withLive(allowPrivateFeeds: true) { live in
            do throws(FeedFinderError) {
                _ = try await live.reader.find("http://inward.example:9/feed.xml")
                Issue.record("nothing listens there, yet a feed was found")
            } catch {
                if case .addressRefused(let why) = error { Issue.record("private feeds are allowed, yet: \(why)") }
            }
            let image = try #require(URL(string: "http://inward.example:9/a.png"))
            do throws(ImageError) {
                _ = try await live.images.image(for: image)
                Issue.record("the image fetcher fetched a name that resolves to loopback")
            } catch {
                guard case .fetch(.refused) = error else {
                    Issue.record("images must stay refused whatever feeds may do: \(error)")
                    return
                }
            }
        }
    }

    /// A configured source's server is trusted, but where it redirects is judged hop by hop: a
    /// redirect to a name that resolves inward is refused by the feed fetcher and by the image
    /// fetcher as `kiosk serve` builds them, and the inward address is never asked.
    @Test func aRedirectFromATrustedSourceIntoThisNetworkIsRefused() async throws {
        try await RedirectServer.run { server in
            // A configured source's authority is trusted and connected to as it is (the
            // system's resolver: localhost); where it redirects is not.
            let trusted = "http://localhost:\(server.port)"
            try await Self.withLive(sources: trusted) { live in
                await Self.expectFeedRefused(
                    "\(trusted)/away?to=http://inward.example:\(server.port)/secret.xml", by: live, saying: "inward.example")
                await Self.expectImageRefused(
                    try #require(URL(string: "\(trusted)/away?to=http://inward.example:\(server.port)/secret.png")), by: live,
                    saying: "inward.example")
            }
            #expect(await server.log.count(of: "/away") >= 2, "the trusted source was asked")
            #expect(await server.log.count(of: "/secret.xml") == 0, "the inward address was never asked")
            #expect(await server.log.count(of: "/secret.png") == 0, "the inward address was never asked")
        }
    }

    /// The media proxy's fetcher, as `kiosk serve` builds it, is the images' (private feeds
    /// allowed or not): a name that resolves inward is refused, and so is a trusted source's
    /// redirect there; the inward address is never asked.
    @Test func theMediaProxyRefusesANameThatResolvesInwardAndARedirectThere() async throws {
        try await RedirectServer.run { server in
            let trusted = "http://localhost:\(server.port)"
            try await Self.withLive(allowPrivateFeeds: true, sources: trusted) { live in
                let source = try #require(live.mediaSource)
                for address in [
                    "http://inward.example:\(server.port)/secret.mp3",
                    "\(trusted)/away?to=http://inward.example:\(server.port)/secret.mp3",
                ] {
                    do {
                        let media = try await source.open(try #require(URL(string: address)), "bytes=0-", nil)
                        Issue.record("the media proxy streamed \(address): \(media.status)")
                    } catch {
                        guard case .refused(let why)? = error as? FetchError else {
                            Issue.record("the media proxy failed otherwise for \(address): \(error)")
                            continue
                        }
                        #expect(why.contains("inward.example") || why.contains("127.0.0.1"), "\(why)")
                    }
                }
            }
            #expect(await server.log.count(of: "/away") >= 1, "the trusted source was asked")
            #expect(await server.log.count(of: "/secret.mp3") == 0, "the inward address was never asked")
        }
    }

    /// "Full article" for a stored entry whose link resolves inward, to a page that is really
    /// there (the sample server's article on loopback): the article service as `kiosk serve`
    /// builds it does not read it, and says the site could not be reached.
    @Test func anArticleForAStoredEntryIsNotFetchedFromInward() async throws {
        let pages = DemoServer(configuration: DemoConfiguration(latencies: [:], evolveEvery: [:]), logger: .quiet)
        let serving = Task { try await pages.run() }
        defer { serving.cancel() }
        let port = try #require(await pages.baseURL().port)
        let page = "/sites/articles/business/c0"
        // The page is there for anyone allowed to reach loopback.
        let direct = try #require(URL(string: "http://127.0.0.1:\(port)\(page)"))
        let client = HTTPFetcher.makeClient()
        let reached = try? await HTTPFetcher(client: client).fetch(FetchRequest(url: direct))
        try await client.shutdown()
        guard case .fetched(let body)? = reached else {
            Issue.record("the sample article is not served on loopback")
            return
        }
        #expect(!body.bytes.isEmpty)
        try await Self.withLive { live in
            let entry = Entry(id: "inward-1", title: "Inward", link: "http://inward.example:\(port)\(page)")
            let feed = SourceID("inward-feed")
            try await live.store.saveSubscriptions(
                [Subscription(id: feed, url: try #require(URL(string: "http://127.0.0.1:9/inward.xml")))], user: .owner)
            try await live.store.saveSourceState(SourceState(entries: [entry]), for: feed)
            let stored = try #require(
                try await live.store.storedEntry(source: feed, key: EntryIdentity.key(of: entry), user: .owner))
            let article = await live.articles.article(entry: stored.id, link: entry.link)
            #expect(article.outcome == .failed("the site could not be reached"), "\(article.outcome)")
            #expect(article.url == nil)
        }
    }

    /// Search's transcript reader (`TranscriptIndex`, a service of `kiosk serve`) fetches through
    /// the same guard: an episode whose transcript is on a name that resolves inward keeps a
    /// failure, and the loopback server is never asked.
    @Test func anEpisodesTranscriptIsNotFetchedFromInward() async throws {
        try await RedirectServer.run { server in
            try await Self.withLive { live in
                let feed = SourceID("inward-podcast")
                let episode = Entry(
                    id: "inward-episode", title: "Inward episode", link: "https://podcast.example/1",
                    enclosures: [Enclosure(url: "https://podcast.example/1.mp3", type: "audio/mpeg")],
                    episode: Episode(transcripts: [
                        MediaLink(url: "http://inward.example:\(server.port)/secret.vtt", type: "text/vtt")
                    ]))
                try await live.store.saveSubscriptions(
                    [Subscription(id: feed, url: try #require(URL(string: "http://127.0.0.1:9/podcast.xml")))], user: .owner)
                try await live.store.saveSourceState(SourceState(entries: [episode]), for: feed)
                let stored = try #require(
                    try await live.store.storedEntry(source: feed, key: EntryIdentity.key(of: episode), user: .owner))
                let deadline = ContinuousClock.now + .seconds(60)
                while await !live.hub.isListening(TranscriptIndex.hubName), ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(20))
                }
                await live.hub.publish(.changed(feed, [episode]))
                // Its claim row is written first (its own sentence), then the fetch's outcome.
                func outcome() async throws -> StoredTranscript.Outcome? {
                    guard let kept = try await live.store.transcript(entry: stored.id),
                        kept.outcome != .failed(TranscriptColumns.fetching)
                    else { return nil }
                    return kept.outcome
                }
                while try await outcome() == nil, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(50))
                }
                guard case .failed(let why)? = try await outcome() else {
                    Issue.record("the transcript was read, or never tried")
                    return
                }
                // Refused by the guard, for the address it resolves to.
                #expect(why.hasPrefix("the transcript could not be fetched") && why.contains("127.0.0.1"), "\(why)")
                #expect(try await live.store.transcriptTexts(entries: [stored.id]).isEmpty)
                #expect(await server.log.count(of: "/secret.vtt") == 0)
            }
        }
    }
}

/// A loopback server that redirects `/away?to=URL` to `URL` and answers everything else (the
/// inward targets `/secret.xml` and `/secret.png`) with 200, counting what it was asked.
private struct RedirectServer: Sendable {
    let port: Int
    let log: PathLog

    actor PathLog {
        private var paths: [String] = []
        func record(_ path: String) { paths.append(path) }
        func count(of path: String) -> Int { paths.filter { $0 == path }.count }
    }

    static func run(_ body: (RedirectServer) async throws -> Void) async throws {
        let log = PathLog()
        let router = Router()
        router.get("/away") { request, _ -> Response in
            await log.record("/away")
            let target = request.uri.queryParameters.get("to") ?? "/"
            return Response(status: .found, headers: [.location: target])
        }
        router.get("**") { request, _ -> Response in
            await log.record(request.uri.path)
            return Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(string: "secret")))
        }
        let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: "kiosk.redirect-server")
        logger.logLevel = .critical
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                portSink.yield(channel.localAddress?.port ?? 0)
                portSink.finish()
            },
            logger: logger
        )
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await app.run() }
            defer { group.cancelAll() }
            var iterator = ports.makeAsyncIterator()
            let port = try #require(await iterator.next())
            try await body(RedirectServer(port: port, log: log))
        }
    }
}
