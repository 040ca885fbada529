import AsyncHTTPClient
import Foundation
import KioskModel
import KioskSources
import NIOCore
import Testing

/// The media proxy's side of the network (`HTTPFetcher.stream`): a player's ranges go through
/// (the first bytes, the middle, the end), redirects into the private network are refused as
/// for feeds, only playable types are passed on, and a publisher that stalls holds nobody else.
@Suite struct MediaStreamTests {
    @Test func theWholeFileStreamsWithItsLengthTypeAndRanges() async throws {
        try await withGuardedFetcher { server, fetcher in
            let media = try await fetcher.stream(try Self.url(server, "/media/episode"))
            #expect(media.status == 200)
            #expect(media.contentType == "audio/mpeg")
            #expect(media.contentLength == TestServer.episode.count)
            #expect(media.acceptsRanges)
            #expect(media.etag == "\"ep1\"")
            #expect(try await Self.collect(media) == TestServer.episode)
            // Ranges count stored bytes: compression is never asked for.
            #expect(await server.log.headers("/media/episode").last?["accept-encoding"] == ["identity"])
        }
    }

    @Test(arguments: [
        ("bytes=0-99", 0, 99), ("bytes=4000-4999", 4000, 4999), ("bytes=-500", 9500, 9999), ("bytes=9000-", 9000, 9999),
    ])
    func aPlayersRangeGoesThroughAndOnlyItsBytesCome(_ range: String, _ first: Int, _ last: Int) async throws {
        try await withGuardedFetcher { server, fetcher in
            let media = try await fetcher.stream(try Self.url(server, "/media/episode"), range: range, ifRange: "\"ep1\"")
            #expect(media.status == 206)
            #expect(media.contentRange == "bytes \(first)-\(last)/10000")
            #expect(media.contentLength == last - first + 1)
            #expect(try await Self.collect(media) == Array(TestServer.episode[first...last]))
            let sent = await server.log.headers("/media/episode").last
            #expect(sent?["range"] == [range])
            #expect(sent?["if-range"] == ["\"ep1\""])
        }
    }

    @Test func aRangeTheFileDoesNotHaveIsTheFilesOwn416() async throws {
        try await withGuardedFetcher { server, fetcher in
            let media = try await fetcher.stream(try Self.url(server, "/media/episode"), range: "bytes=20000-")
            #expect(media.status == 416)
            #expect(media.contentRange == "bytes */10000")
        }
    }

    /// Anything but one plain range of bytes is not sent on: the whole file is asked for.
    @Test(arguments: ["bytes=0-1,5-9", "bytes=9-1", "items=0-1", "bytes=0-1\r\nX-Evil: 1", "bytes=-"])
    func aRangeThatIsNotOnePlainRangeIsNotSent(_ range: String) async throws {
        try await withGuardedFetcher { server, fetcher in
            let media = try await fetcher.stream(try Self.url(server, "/media/episode"), range: range)
            #expect(media.status == 200)
            #expect(await server.log.headers("/media/episode").last?["range"] == nil)
        }
    }

    /// A page linked as an enclosure is never passed on as a page (Kiosk's origin would serve it).
    @Test(arguments: ["text/html", "image/svg+xml", "application/javascript", "text/html; charset=utf-8"])
    func anAnswerThatIsNoMediaHasNoTypePassedOn(_ type: String) async throws {
        try await withGuardedFetcher { server, fetcher in
            var components = try #require(URLComponents(url: try Self.url(server, "/media/episode"), resolvingAgainstBaseURL: false))
            components.queryItems = [URLQueryItem(name: "type", value: type)]
            let media = try await fetcher.stream(try #require(components.url))
            #expect(media.contentType == nil)
        }
    }

    /// A redirect to a private address (refused before asking), and to a name that resolves
    /// inward only when connecting (refused by the connect guard).
    @Test(arguments: ["http://127.0.0.1:1/media/episode", "http://10.0.0.1/media/episode", "http://intranet.example/media/episode"])
    func aRedirectIntoThePrivateNetworkIsRefused(_ location: String) async throws {
        try await withGuardedFetcher { server, fetcher in
            var components = try #require(URLComponents(string: "http://public.example:\(server.port)/redirect/to"))
            components.queryItems = [URLQueryItem(name: "url", value: location)]
            let url = try #require(components.url)
            do throws(FetchError) {
                let media = try await fetcher.stream(url)
                Issue.record("\(location) streamed: \(media.status)")
            } catch {
                guard case .refused = error else {
                    Issue.record("expected a refusal, got \(error)")
                    return
                }
            }
        }
    }

    /// A publisher that compresses anyway: gzip is undone, but its ranges would count other
    /// bytes, so none are offered; an encoding the client cannot undo is an error, not noise.
    @Test func aCompressedAnswerOffersNoRangesAndAnUnknownEncodingIsRefused() async throws {
        try await withGuardedFetcher { server, fetcher in
            let gzip = try await fetcher.stream(try Self.url(server, "/media/encoded/gzip"))
            #expect(gzip.status == 200)
            #expect(!gzip.acceptsRanges)
            #expect(gzip.contentLength == nil)
            #expect(try await Self.collect(gzip) == TestServer.episode)
            let brotli = try Self.url(server, "/media/encoded/br")
            do throws(FetchError) {
                let media = try await fetcher.stream(brotli)
                Issue.record("a br answer streamed: \(media.status)")
            } catch {
                #expect(error == .status(code: 200, message: nil, retryAfter: nil))
            }
        }
    }

    @Test func anErrorStatusIsAnError() async throws {
        try await withGuardedFetcher { server, fetcher in
            let url = try Self.url(server, "/status/html")
            do throws(FetchError) {
                _ = try await fetcher.stream(url)
                Issue.record("a 502 streamed")
            } catch {
                #expect(error == .status(code: 502, message: nil, retryAfter: nil))
            }
        }
    }

    /// One stalled publisher holds its own stream, nobody else's.
    @Test func aStalledPublisherDoesNotHoldAnotherStream() async throws {
        try await withGuardedFetcher { server, fetcher in
            let stalled = try await fetcher.stream(try Self.url(server, "/media/stall"))
            let reading = Task {
                var count = 0
                for try await buffer in stalled.body { count += buffer.readableBytes }
                return count
            }
            let started = ContinuousClock.now
            for _ in 0..<3 {
                let media = try await fetcher.stream(try Self.url(server, "/media/episode"), range: "bytes=0-999")
                #expect(try await Self.collect(media).count == 1_000)
            }
            #expect(ContinuousClock.now - started < .seconds(20), "the other streams waited for the stalled one")
            reading.cancel()
        }
    }

    // MARK: helpers

    /// A fetcher as `kiosk serve` builds one for media (`FetchClients.fetcher()`), whose guard
    /// resolves `public.example` to the test server and lets only its port through.
    private func withGuardedFetcher(_ body: (TestServer, HTTPFetcher) async throws -> Void) async throws {
        try await TestServer.run { server in
            let port = server.port
            let clients = try await FetchClients.start(
                resolve: { host, _ in host == "public.example" ? ["127.0.0.1"] : ["127.0.0.2"] }, hostAddresses: .none,
                allows: { address, to in address == "127.0.0.1" && to == port })
            // The check before a request sees the test server's name as public.
            let destinations = DestinationGuard(
                resolve: { host, _ in host == "127.0.0.1" ? ["127.0.0.1"] : ["93.184.216.34"] }, hostAddresses: .none)
            let fetcher = HTTPFetcher(client: clients.direct, guardedClient: clients.guarded, destinations: destinations)
            do {
                try await body(server, fetcher)
            } catch {
                try? await clients.shutdown()
                throw error
            }
            try await clients.shutdown()
        }
    }

    /// `path` on the test server by a name the checks take for a public host.
    private static func url(_ server: TestServer, _ path: String) throws -> URL {
        try #require(URL(string: "http://public.example:\(server.port)\(path)"))
    }

    private static func collect(_ media: StreamedMedia) async throws -> [UInt8] {
        var bytes: [UInt8] = []
        for try await buffer in media.body { bytes += buffer.readableBytesView }
        return bytes
    }
}
