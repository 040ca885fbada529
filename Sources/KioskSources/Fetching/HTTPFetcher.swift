import AsyncHTTPClient
import Foundation
import KioskModel
import NIOCore
import NIOHTTP1
import NIOSOCKS

/// Fetches sources over HTTP(S) with AsyncHTTPClient: conditional GET, gzip/deflate, a byte cap
/// counted after decompression, and one deadline for the whole exchange, body included.
///
/// Every failure is a ``FetchError``. Requests share the client's connection pool but nothing
/// else: AsyncHTTPClient keeps no cookie jar and no HTTP cache (it only parses `Set-Cookie` when
/// asked, and never adds a `Cookie` header on its own), so one answer cannot influence the next.
public struct HTTPFetcher: Fetching {
    /// The client requests go through (all of them without a `guardedClient`); its owner calls
    /// `shutdown()` when done.
    public let client: HTTPClient
    /// The client for every hop `destinations` does not exempt, connecting through a
    /// ``ConnectGuard`` so the address connected to is checked too (see ``FetchClients``); nil
    /// for none (tests, benchmarks).
    public let guardedClient: HTTPClient?
    /// Sent as `User-Agent` unless a request's own headers name another.
    public let userAgent: String
    /// Where fetches may go, checked before the first request and before every redirect; nil
    /// for anywhere (tests, benchmarks).
    public let destinations: DestinationGuard?
    /// Redirects followed per request; more, or any cycle, is ``FetchError/tooManyRedirects``.
    public let maxRedirects: Int

    /// A fetcher on `client` (and `guardedClient`), which the caller keeps and shuts down (see
    /// ``makeClient(connectTimeout:decompressionRatioLimit:connectionsPerHost:through:)``).
    public init(
        client: HTTPClient, guardedClient: HTTPClient? = nil, userAgent: String = "Kiosk/1.0 (self-hosted news reader)",
        destinations: DestinationGuard? = nil, maxRedirects: Int = 5
    ) {
        self.client = client
        self.guardedClient = guardedClient
        self.userAgent = userAgent
        self.destinations = destinations
        self.maxRedirects = max(0, maxRedirects)
    }

    /// Connections kept per host when the caller says nothing: well above AsyncHTTPClient's 8 (see
    /// `makeClient`). The server passes its `checksPerHost` setting instead.
    public static let defaultConnectionsPerHost = 32

    /// A client configured for untrusted sources. The caller owns it and must `shutdown()` it.
    ///
    /// - Parameters:
    ///   - connectTimeout: time allowed to open a connection (the request's own timeout still bounds the whole exchange).
    ///   - decompressionRatioLimit: largest decompressed/compressed ratio accepted before a body is
    ///     refused as a bomb. Feeds compress 5–20×; deflate cannot exceed about 1032×.
    ///   - connectionsPerHost: connections kept per host. Demo mode serves every source from one
    ///     loopback host, so this is well above the default 8, lest slow sources queue fast ones.
    ///   - connectGuard: when given, every connection goes through it (a SOCKS5 proxy on
    ///     loopback), which resolves names itself and refuses private addresses.
    ///   - readTimeout: when given, the longest silence between two reads of an answer, for
    ///     exchanges with no deadline of their own (the media proxy's streams).
    public static func makeClient(
        connectTimeout: Duration = .seconds(5), decompressionRatioLimit: Int = 100,
        connectionsPerHost: Int = defaultConnectionsPerHost, through connectGuard: ConnectGuard? = nil,
        readTimeout: Duration? = nil
    ) -> HTTPClient {
        var configuration = HTTPClient.Configuration()
        // The fetcher follows redirects itself, checking each destination (`DestinationGuard`).
        configuration.redirectConfiguration = .disallow
        configuration.timeout = HTTPClient.Configuration.Timeout(
            connect: TimeAmount(connectTimeout), read: readTimeout.map { TimeAmount($0) })
        configuration.decompression = .enabled(limit: .ratio(max(1, decompressionRatioLimit)))
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = max(1, connectionsPerHost)
        // A refused connection fails at once with a clear error; the engine's backoff does the retrying.
        configuration.connectionPool.retryConnectionEstablishment = false
        if let connectGuard { configuration.proxy = .socksServer(host: "127.0.0.1", port: connectGuard.port) }
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// GETs `request.url`.
    ///
    /// - Returns: ``FetchResult/notModified(freshFor:)`` on 304; otherwise the 2xx body with the
    ///   answer's own `ETag`/`Last-Modified` as the new validators. An answer without validators
    ///   yields empty ones, not the old ones: validators must describe the body they are stored
    ///   with. Either carries the answer's freshness hint (`Cache-Control`, `Expires`).
    /// - Throws: ``FetchError``, see its cases.
    public func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResult {
        guard Self.isFetchable(request.url) else {
            throw .invalidURL(request.url.absoluteString)
        }
        let deadline = FetchDeadline(after: request.timeout)
        do {
            return try await exchange(request, deadline: deadline)
        } catch {
            throw FetchError(translating: error, url: request.url.absoluteString, maxBytes: request.maxBytes)
        }
    }

    private func exchange(_ request: FetchRequest, deadline: FetchDeadline) async throws -> FetchResult {
        let (response, url) = try await followingRedirects(
            from: request.url, headers: headers(for: request), body: request.body, maxBytes: request.maxBytes,
            deadline: deadline)
        let status = Int(response.status.code)
        switch status {
        case 304:
            return .notModified(freshFor: Self.freshness(of: response.headers))
        case 200..<300:
            var fetched = try await body(of: response, request: request, url: url, deadline: deadline)
            // Only a 200 is the feed itself; a 203 or 206 says nothing of how fresh the feed is.
            if status == 200 { fetched.freshFor = Self.freshness(of: response.headers) }
            return .fetched(fetched)
        default:
            let retryAfter = response.headers.first(name: "Retry-After").flatMap { RetryAfter.parse($0) }
            // The error body is a courtesy: if it is slow or broken, the status alone is the answer.
            let prefix = try? await deadline.run {
                try await ResponseBodyReader.prefix(response.body, limit: APIErrorMessage.bodyPrefixLimit)
            }
            throw FetchError.status(
                code: status, message: prefix.flatMap(APIErrorMessage.message(in:)), retryAfter: retryAfter
            )
        }
    }

    /// The first answer that is not a redirect, and the URL it came from. Each destination is
    /// checked before it is asked (`DestinationGuard`), and, through the guarded client, where
    /// it connects (`ConnectGuard`); a cycle or too many hops is an error, and so is a redirect
    /// from https to plain http (``downgradeRefusal(from:to:)``).
    func followingRedirects(
        from start: URL, headers: HTTPHeaders, body: [UInt8]? = nil, maxBytes: Int, deadline: FetchDeadline
    ) async throws -> (HTTPClientResponse, URL) {
        var url = start
        var visited: Set<String> = [url.absoluteString]
        while true {
            if let destinations, let why = await destinations.refusal(for: url) { throw FetchError.refused(why) }
            var outgoing = HTTPClientRequest(url: url.absoluteString)
            outgoing.method = body == nil ? .GET : .POST
            outgoing.headers = headers
            if let body {
                outgoing.body = .bytes(ByteBuffer(bytes: body))
                outgoing.headers.replaceOrAdd(name: "Content-Length", value: String(body.count))
            }
            // This deadline covers connecting and the response head; the body is raced later.
            let response: HTTPClientResponse
            let hop = client(for: url)
            do {
                response = try await hop.execute(outgoing, deadline: deadline.nio)
            } catch let error as SOCKSError.ConnectionFailed where error.reply == .notAllowed {
                // The name passed the check above, then resolved elsewhere when connecting.
                throw FetchError.refused(
                    "\(url.host ?? "the host") resolved to a private or local address when connecting")
            } catch where hop === guardedClient {
                throw Self.neutral(error, url: url, maxBytes: maxBytes)
            }
            // A POST is not sent again elsewhere: its redirect is its answer.
            guard body == nil, [301, 302, 303, 307, 308].contains(response.status.code),
                let location = response.headers.first(name: "Location")
            else { return (response, url) }
            // The redirect's own body is not wanted; reading a little lets the connection be reused.
            _ = try? await deadline.run { try await ResponseBodyReader.prefix(response.body, limit: 4_096) }
            guard let next = URL(string: location, relativeTo: url)?.absoluteURL, Self.isFetchable(next) else {
                throw FetchError.invalidURL(location)
            }
            if let why = Self.downgradeRefusal(from: url, to: next) { throw FetchError.refused(why) }
            guard visited.count <= maxRedirects, visited.insert(next.absoluteString).inserted else {
                throw FetchError.tooManyRedirects
            }
            url = next
        }
    }

    /// A failed connection to a destination Kiosk does not trust, in one sentence whatever the
    /// cause (refused, reset, closed, unreachable), so that a reader cannot tell an open port
    /// from a closed one by the message. Timeouts, TLS failures and the caller's own cancellation
    /// keep their own words.
    static func neutral(_ error: any Error, url: URL, maxBytes: Int) -> FetchError {
        let translated = FetchError(translating: error, url: url.absoluteString, maxBytes: maxBytes)
        let cancelled = error is CancellationError || (error as? HTTPClientError) == .cancelled
        guard case .network = translated, !cancelled else { return translated }
        return .network(unreachable(url))
    }

    /// The one message for a failed connection to an untrusted destination.
    public static func unreachable(_ url: URL) -> String {
        "could not connect to \(url.host ?? "the server")"
    }

    /// The guarded client, unless there is none or `destinations` exempts `url` (a trusted
    /// source, or private hosts allowed): those connect directly, without the proxy hop.
    private func client(for url: URL) -> HTTPClient {
        guard let guardedClient, destinations?.exempts(url) != true else { return client }
        return guardedClient
    }

    private func body(of response: HTTPClientResponse, request: FetchRequest, url: URL, deadline: FetchDeadline) async throws
        -> FetchedBody
    {
        let limit = request.maxBytes
        let encoding = response.headers.first(name: "Content-Encoding")?.lowercased() ?? "identity"
        let announced = response.headers.first(name: "Content-Length").flatMap { Int($0) }
        // Without compression the announced length is the body's length: refuse before reading any of it.
        if encoding == "identity", let announced, announced > limit {
            throw FetchError.tooLarge(limit: limit)
        }
        let bytes = try await deadline.run {
            try await ResponseBodyReader.collect(
                response.body, limit: limit, expectedLength: encoding == "identity" ? announced : nil
            )
        }
        return FetchedBody(
            bytes: bytes,
            contentType: response.headers.first(name: "Content-Type"),
            validators: Validators(
                etag: response.headers.first(name: "ETag").flatMap(Self.safeHeaderValue),
                lastModified: response.headers.first(name: "Last-Modified").flatMap(Self.safeHeaderValue)
            ),
            finalURL: url
        )
    }

    /// How long the answer says it stays fresh (see `Freshness`). Repeated `Cache-Control` lines
    /// are one list, as if joined by commas.
    static func freshness(of headers: HTTPHeaders, now: Date = Date()) -> Duration? {
        let cacheControl = headers["Cache-Control"]
        return Freshness.parse(
            cacheControl: cacheControl.isEmpty ? nil : cacheControl.joined(separator: ","),
            expires: headers.first(name: "Expires"), date: headers.first(name: "Date"), now: now)
    }

    private func headers(for request: FetchRequest) -> HTTPHeaders {
        var headers = HTTPHeaders()
        headers.add(name: "User-Agent", value: userAgent)
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) {
            headers.replaceOrAdd(name: name, value: value)
        }
        // Only encodings the client decompresses, whatever a source's headers asked for.
        headers.replaceOrAdd(name: "Accept-Encoding", value: "gzip, deflate")
        if let etag = request.validators.etag.flatMap(Self.safeHeaderValue) {
            headers.replaceOrAdd(name: "If-None-Match", value: etag)
        }
        if let lastModified = request.validators.lastModified.flatMap(Self.safeHeaderValue) {
            headers.replaceOrAdd(name: "If-Modified-Since", value: lastModified)
        }
        return headers
    }

    /// Only http and https with a host; AsyncHTTPClient would also take `unix` and `http+unix`.
    static func isFetchable(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return false }
        guard let host = url.host, !host.isEmpty else { return false }
        return true
    }

    /// Why a redirect from `url` to `next` is refused, or nil when it may be followed: a source
    /// reached over https stays on https. A redirect to plain http would hand the rest of the
    /// exchange to whoever sits on the path (a downgrade), whatever the destination's host.
    static func downgradeRefusal(from url: URL, to next: URL) -> String? {
        guard url.scheme?.lowercased() == "https", next.scheme?.lowercased() != "https" else { return nil }
        return "\(url.host ?? url.absoluteString) redirects from https to http"
    }

    /// `value` if it can be sent back as a header (printable ASCII, bounded), else nil.
    ///
    /// Validators come from the source; one that cannot be sent would fail every later request.
    static func safeHeaderValue(_ value: String) -> String? {
        guard !value.isEmpty, value.utf8.count <= 1024 else { return nil }
        let printable = value.utf8.allSatisfy { $0 == 0x09 || (0x20...0x7E).contains($0) }
        return printable ? value : nil
    }
}
