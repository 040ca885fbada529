import AsyncHTTPClient
import Foundation
import KioskModel
@testable import KioskSources
import NIOCore
import NIOSSL
import Testing

/// HTTPFetcher against a real Hummingbird server on loopback: no mocked HTTP layer.
@Suite struct HTTPFetcherTests {
    /// Generous bound for "ended promptly": timeouts are 1–2 s, so only a hang gets near it.
    static let promptly: Duration = .seconds(10)

    // MARK: conditional GET and bodies

    @Test func firstFetchBringsBodyAndValidatorsThenAConditionalGetIsNotModified() async throws {
        try await withFetcher { server, fetcher in
            let url = try server.url("/feed")
            let first = try await fetcher.fetch(FetchRequest(url: url))
            guard case .fetched(let body) = first else {
                Issue.record("expected a body, got \(first)")
                return
            }
            #expect(body.bytes == Array(TestServer.feedXML.utf8))
            #expect(body.validators == Validators(etag: TestServer.etag, lastModified: TestServer.lastModified))
            #expect(body.contentType == "application/rss+xml; charset=utf-8")
            #expect(body.charset == "utf-8")
            #expect(body.finalURL == url)

            let second = try await fetcher.fetch(FetchRequest(url: url, validators: body.validators))
            #expect(second == .notModified(freshFor: nil))
            let sent = await server.log.headers("/feed").last
            #expect(sent?["if-none-match"] == [TestServer.etag])
            #expect(sent?["if-modified-since"] == [TestServer.lastModified])
        }
    }

    @Test func cacheControlMaxAgeIsReadIntoTheResultOfA200AndA304() async throws {
        try await withFetcher { server, fetcher in
            let url = try server.url("/cached")
            let first = try await fetcher.fetch(FetchRequest(url: url))
            #expect(first.freshFor == .seconds(600))
            guard case .fetched(let body) = first else {
                Issue.record("expected a body, got \(first)")
                return
            }
            let second = try await fetcher.fetch(FetchRequest(url: url, validators: body.validators))
            #expect(second == .notModified(freshFor: .seconds(300)))
            // An answer that says nothing gives no hint.
            #expect(try await fetcher.fetch(FetchRequest(url: try server.url("/plain"))).freshFor == nil)
        }
    }

    @Test func lastModifiedAloneAlsoGivesNotModified() async throws {
        try await withFetcher { server, fetcher in
            let request = FetchRequest(url: try server.url("/feed"), validators: Validators(lastModified: TestServer.lastModified))
            #expect(try await fetcher.fetch(request) == .notModified(freshFor: nil))
        }
    }

    @Test func anAnswerWithoutValidatorsReplacesTheOldOnesWithNone() async throws {
        try await withFetcher { server, fetcher in
            let request = FetchRequest(url: try server.url("/plain"), validators: Validators(etag: "\"old\""))
            guard case .fetched(let body) = try await fetcher.fetch(request) else {
                Issue.record("expected a body")
                return
            }
            #expect(body.validators.isEmpty)
        }
    }

    @Test func gzipBodyIsDecompressedAndAcceptEncodingIsSent() async throws {
        try await withFetcher { server, fetcher in
            guard case .fetched(let body) = try await fetcher.fetch(FetchRequest(url: try server.url("/gzip"))) else {
                Issue.record("expected a body")
                return
            }
            #expect(body.bytes == Array(TestServer.feedXML.utf8))
            #expect(await server.log.headers("/gzip").last?["accept-encoding"] == ["gzip, deflate"])
        }
    }

    @Test func garbageBodyIsReturnedUnchangedForTheParserToJudge() async throws {
        try await withFetcher { server, fetcher in
            guard case .fetched(let body) = try await fetcher.fetch(FetchRequest(url: try server.url("/garbage"))) else {
                Issue.record("expected a body")
                return
            }
            #expect(body.bytes == TestServer.garbage)
        }
    }

    @Test func garbageClaimingGzipIsANetworkError() async throws {
        try await withFetcher { server, fetcher in
            let result = await outcome(fetcher, FetchRequest(url: try server.url("/garbage-gzip"), timeout: .seconds(2)))
            #expect(isNetworkError(result), "got \(result)")
        }
    }

    // MARK: time

    @Test func slowTricklingBodyEndsInTimeout() async throws {
        try await withFetcher { server, fetcher in
            let start = ContinuousClock.now
            let result = await outcome(fetcher, FetchRequest(url: try server.url("/slow"), timeout: .seconds(1)))
            #expect(result == .failure(.timeout))
            #expect(ContinuousClock.now - start < Self.promptly)
        }
    }

    @Test func serverThatNeverAnswersEndsInTimeout() async throws {
        try await withFetcher { server, fetcher in
            let start = ContinuousClock.now
            let result = await outcome(fetcher, FetchRequest(url: try server.url("/never"), timeout: .seconds(1)))
            #expect(result == .failure(.timeout))
            #expect(ContinuousClock.now - start < Self.promptly)
        }
    }

    /// Judged by order, not seconds: the slow source never answers and its timeout is a minute
    /// away, so the fast one can only come back first if it did not wait behind the slow one.
    /// A fetcher that served one request at a time would fail this however fast the machine.
    @Test(.timeLimit(.minutes(2))) func aSlowSourceDoesNotDelayAnother() async throws {
        try await withFetcher { server, fetcher in
            let slowRequest = FetchRequest(url: try server.url("/never"), timeout: .seconds(60))
            let fastRequest = FetchRequest(url: try server.url("/feed"), timeout: .seconds(60))
            let slowEnded = Flag()
            let slow = Task {
                let result = await outcome(fetcher, slowRequest)
                await slowEnded.raise()
                return result
            }
            // The slow request is at the server, hanging, before the fast one starts.
            while await server.log.count("/never") == 0 { try await Task.sleep(for: .milliseconds(10)) }
            let fast = await outcome(fetcher, fastRequest)
            if case .success(.fetched) = fast {} else { Issue.record("fast source failed: \(fast)") }
            #expect(await !slowEnded.isRaised, "the fast source was answered only after the slow one ended")
            slow.cancel()
            #expect(await slow.value == .failure(.network("the request was cancelled")))
        }
    }

    /// A cancelled caller gets the cancellation at once, not the minute-long timeout: the answer
    /// itself (cancelled, not timed out) proves it; the bound only catches a hang.
    @Test func aCancelledCallerEndsWithANetworkErrorPromptly() async throws {
        try await withFetcher { server, fetcher in
            let request = FetchRequest(url: try server.url("/slow"), timeout: .seconds(60))
            let start = ContinuousClock.now
            let task = Task { await outcome(fetcher, request) }
            while await server.log.count("/slow") == 0 { try await Task.sleep(for: .milliseconds(10)) }
            task.cancel()
            #expect(await task.value == .failure(.network("the request was cancelled")))
            #expect(ContinuousClock.now - start < .seconds(45))
        }
    }

    // MARK: statuses

    @Test func newsAPIErrorBodyGivesItsMessage() async throws {
        try await withFetcher { server, fetcher in
            let result = await outcome(fetcher, FetchRequest(url: try server.url("/status/newsapi")))
            #expect(result == .failure(.status(code: 500, message: "Your API key is invalid or incorrect.", retryAfter: nil)))
        }
    }

    @Test func switterErrorBodyGivesItsReason() async throws {
        try await withFetcher { server, fetcher in
            let result = await outcome(fetcher, FetchRequest(url: try server.url("/status/joke")))
            #expect(result == .failure(.status(code: 400, message: "Missing x-device-uuid header", retryAfter: nil)))
        }
    }

    @Test func tooManyRequestsCarriesRetryAfterSeconds() async throws {
        try await withFetcher { server, fetcher in
            let result = await outcome(fetcher, FetchRequest(url: try server.url("/status/ratelimit")))
            #expect(
                result == .failure(.status(code: 429, message: "You have made too many requests.", retryAfter: .seconds(7)))
            )
        }
    }

    @Test func retryAfterAsAnHTTPDateBecomesADuration() async throws {
        try await withFetcher { server, fetcher in
            let result = await outcome(fetcher, FetchRequest(url: try server.url("/status/retry-date")))
            guard case .failure(.status(503, nil, let retryAfter?)) = result else {
                Issue.record("expected a 503 with Retry-After, got \(result)")
                return
            }
            #expect(retryAfter > .seconds(100) && retryAfter <= .seconds(121))
        }
    }

    @Test func errorBodyOfNoKnownShapeGivesNoMessage() async throws {
        try await withFetcher { server, fetcher in
            let result = await outcome(fetcher, FetchRequest(url: try server.url("/status/html")))
            #expect(result == .failure(.status(code: 502, message: nil, retryAfter: nil)))
        }
    }

    // MARK: size

    @Test func announcedOversizedBodyIsRefused() async throws {
        try await withFetcher { server, fetcher in
            let result = await outcome(fetcher, FetchRequest(url: try server.url("/huge"), maxBytes: 1 << 20))
            #expect(result == .failure(.tooLarge(limit: 1 << 20)))
        }
    }

    @Test func unannouncedOversizedBodyIsCutOffAtTheLimit() async throws {
        try await withFetcher { server, fetcher in
            let start = ContinuousClock.now
            let result = await outcome(fetcher, FetchRequest(url: try server.url("/huge-chunked"), maxBytes: 1 << 20))
            #expect(result == .failure(.tooLarge(limit: 1 << 20)))
            #expect(ContinuousClock.now - start < Self.promptly)
        }
    }

    @Test func gzipBombIsRefusedByTheDecompressionRatio() async throws {
        // 8 MB inflated from ~50 KB: under this 64 MB cap, so only the ratio limit can refuse it.
        try await withFetcher { server, fetcher in
            let result = await outcome(fetcher, FetchRequest(url: try server.url("/bomb"), maxBytes: 64 << 20))
            #expect(result == .failure(.tooLarge(limit: 64 << 20)))
        }
    }

    @Test func decompressedBytesCountAgainstTheLimit() async throws {
        // A ratio limit above the bomb's ~158× leaves the byte count as the only guard.
        try await withFetcher(client: HTTPFetcher.makeClient(decompressionRatioLimit: 1_000)) { server, fetcher in
            let result = await outcome(fetcher, FetchRequest(url: try server.url("/bomb"), maxBytes: 1 << 20))
            #expect(result == .failure(.tooLarge(limit: 1 << 20)))
        }
    }

    // MARK: redirects

    @Test func aChainOfThreeRedirectsIsFollowed() async throws {
        try await withFetcher { server, fetcher in
            let result = try await fetcher.fetch(FetchRequest(url: try server.url("/redirect/chain/3")))
            guard case .fetched(let body) = result else {
                Issue.record("expected a body, got \(result)")
                return
            }
            #expect(body.bytes == Array("arrived".utf8))
            #expect(body.finalURL == (try server.url("/redirect/chain/0")))
        }
    }

    @Test func aChainOfTenRedirectsIsTooMany() async throws {
        try await withFetcher { server, fetcher in
            let result = await outcome(fetcher, FetchRequest(url: try server.url("/redirect/chain/10")))
            #expect(result == .failure(.tooManyRedirects))
        }
    }

    @Test func aRedirectLoopIsRefused() async throws {
        try await withFetcher { server, fetcher in
            let result = await outcome(fetcher, FetchRequest(url: try server.url("/redirect/loop/a")))
            #expect(result == .failure(.tooManyRedirects))
            // Refused as a cycle, long before the limit of 5.
            #expect(await server.log.count("/redirect/loop/a") == 1)
        }
    }

    @Test func aRedirectFromHTTPSToPlainHTTPIsADowngradeAndRefused() throws {
        func refusal(_ from: String, _ to: String) throws -> String? {
            HTTPFetcher.downgradeRefusal(from: try #require(URL(string: from)), to: try #require(URL(string: to)))
        }
        #expect(try refusal("https://news.example/feed", "http://news.example/feed") == "news.example redirects from https to http")
        #expect(try refusal("https://news.example/feed", "http://elsewhere.example/feed") == "news.example redirects from https to http")
        #expect(try refusal("HTTPS://news.example/feed", "HTTP://news.example:8080/feed") != nil)
        #expect(try refusal("https://news.example/feed", "https://cdn.example/feed") == nil)
        #expect(try refusal("http://news.example/feed", "https://news.example/feed") == nil)
        #expect(try refusal("http://news.example/feed", "http://news.example/other") == nil)
    }

    @Test func theDowngradeRefusalIsAFetchErrorAUserCanRead() {
        let error = FetchError.refused("news.example redirects from https to http")
        #expect(error.description.hasSuffix("news.example redirects from https to http"))
    }

    // MARK: network and URLs

    @Test func connectionResetMidBodyIsANetworkError() async throws {
        try await withFetcher { server, fetcher in
            let result = await outcome(fetcher, FetchRequest(url: try server.url("/reset"), timeout: .seconds(5)))
            #expect(isNetworkError(result), "got \(result)")
        }
    }

    @Test func refusedConnectionIsANetworkError() async throws {
        try await withFetcher { _, fetcher in
            // Port 1 (tcpmux) is not served on loopback here.
            let url = try #require(URL(string: "http://127.0.0.1:1/feed"))
            let start = ContinuousClock.now
            let result = await outcome(fetcher, FetchRequest(url: url, timeout: .seconds(2)))
            #expect(isNetworkError(result), "got \(result)")
            #expect(ContinuousClock.now - start < Self.promptly)
        }
    }

    @Test(arguments: ["ftp://127.0.0.1/feed", "file:///etc/passwd", "http+unix://%2Ftmp%2Fsock/feed", "http:///feed"])
    func onlyHTTPAndHTTPSURLsAreFetched(address: String) async throws {
        try await withFetcher { _, fetcher in
            let url = try #require(URL(string: address))
            #expect(await outcome(fetcher, FetchRequest(url: url)) == .failure(.invalidURL(url.absoluteString)))
        }
    }

    // MARK: headers and cookies

    @Test func headersReachTheServerAndNoCookieIsCarriedOver() async throws {
        try await withFetcher { server, fetcher in
            let request = FetchRequest(url: try server.url("/echo"), headers: ["x-device-uuid": "7d3f0c1e-test"])
            _ = try await fetcher.fetch(request)
            _ = try await fetcher.fetch(request)
            let seen = await server.log.headers("/echo")
            try #require(seen.count == 2)
            #expect(seen[0]["user-agent"] == ["Kiosk/1.0 (self-hosted news reader)"])
            #expect(seen[0]["x-device-uuid"] == ["7d3f0c1e-test"])
            #expect(seen[1]["x-device-uuid"] == ["7d3f0c1e-test"])
            // The first answer set a cookie; the second request must not send it back.
            #expect(seen[1]["cookie"] == nil)
        }
    }

    @Test func aSourceMayNameItsOwnUserAgent() async throws {
        try await withFetcher { server, fetcher in
            _ = try await fetcher.fetch(FetchRequest(url: try server.url("/echo"), headers: ["User-Agent": "Custom/2"]))
            let seen = await server.log.headers("/echo")
            #expect(seen.last?["user-agent"] == ["Custom/2"])
        }
    }

    // MARK: error translation

    @Test func lowerLayerErrorsMapOntoFetchErrors() {
        func translated(_ error: any Error) -> FetchError {
            FetchError(translating: error, url: "http://127.0.0.1/x", maxBytes: 100)
        }
        #expect(translated(HTTPClientError.deadlineExceeded) == .timeout)
        #expect(translated(HTTPClientError.readTimeout) == .timeout)
        #expect(translated(HTTPClientError.connectTimeout) == .timeout)
        #expect(translated(ChannelError.connectTimeout(.seconds(5))) == .timeout)
        #expect(translated(HTTPClientError.redirectLimitReached) == .tooManyRedirects)
        #expect(translated(HTTPClientError.redirectCycleDetected) == .tooManyRedirects)
        #expect(translated(HTTPClientError.invalidURL) == .invalidURL("http://127.0.0.1/x"))
        #expect(translated(IOError(errnoCode: ECONNREFUSED, reason: "connect")) == .network("connection refused"))
        #expect(translated(IOError(errnoCode: ECONNRESET, reason: "read")) == .network("connection reset by the server"))
        #expect(translated(CancellationError()) == .network("the request was cancelled"))
        #expect(translated(FetchError.tooLarge(limit: 7)) == .tooLarge(limit: 7))
        if case .network = translated(HTTPClientError.remoteConnectionClosed) {} else { Issue.record("not a network error") }
        // TLS: its own case, with words for a reader rather than BoringSSL's file and line.
        #expect(translated(NIOSSLError.handshakeFailed(.sslError([]))) == .tls("the TLS handshake failed"))
        #expect(
            translated(NIOSSLError.handshakeFailed(.sslError([.eofDuringHandshake])))
                == .tls("the server hung up during the TLS handshake"))
        #expect(translated(NIOSSLExtraError.failedToValidateHostname) == .tls("the server's certificate is not for its name"))
        #expect(FetchError.tls("x").description == "the secure connection failed: x")
        // Sizes as a reader says them.
        #expect(FetchError.tooLarge(limit: 16 << 20).description == "the answer is larger than 16 MB")
        #expect(FetchError.tooLarge(limit: 64 << 10).description == "the answer is larger than 64 KB")
        #expect(FetchError.tooLarge(limit: 1000).description == "the answer is larger than 1000 bytes")
    }

    // MARK: Retry-After parsing

    @Test func retryAfterReadsSecondsAndDates() {
        let now = Date(timeIntervalSince1970: 1_763_805_600)  // Sat, 22 Nov 2025 10:00:00 GMT
        #expect(RetryAfter.parse("7", now: now) == .seconds(7))
        #expect(RetryAfter.parse(" 120 ", now: now) == .seconds(120))
        #expect(RetryAfter.parse("Sat, 22 Nov 2025 10:01:00 GMT", now: now) == .seconds(60))
        #expect(RetryAfter.parse("Sat, 22 Nov 2025 09:00:00 GMT", now: now) == .zero)
        #expect(RetryAfter.parse("99999999999999999999999", now: now) == RetryAfter.longest)
        #expect(RetryAfter.parse("-5", now: now) == nil)
        #expect(RetryAfter.parse("soon", now: now) == nil)
        #expect(RetryAfter.parse("", now: now) == nil)
    }

    // MARK: helpers

    private func withFetcher(
        client: HTTPClient = HTTPFetcher.makeClient(),
        _ body: (TestServer, HTTPFetcher) async throws -> Void
    ) async throws {
        do {
            try await TestServer.run { server in try await body(server, HTTPFetcher(client: client)) }
        } catch {
            try? await client.shutdown()
            throw error
        }
        try await client.shutdown()
    }

    private func outcome(_ fetcher: HTTPFetcher, _ request: FetchRequest) async -> Result<FetchResult, FetchError> {
        do {
            return .success(try await fetcher.fetch(request))
        } catch {
            return .failure(error)
        }
    }

    private func isNetworkError(_ result: Result<FetchResult, FetchError>) -> Bool {
        if case .failure(.network) = result { return true }
        return false
    }
}

/// Set once, read by the test: whether something has happened yet.
private actor Flag {
    private(set) var isRaised = false
    func raise() { isRaised = true }
}
