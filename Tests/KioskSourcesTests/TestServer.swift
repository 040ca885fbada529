import Foundation
import Hummingbird
import Logging
import NIOCore
import Testing

/// A real Hummingbird server on 127.0.0.1 (port chosen by the system) serving well-behaved and
/// hostile answers, and logging what it received. One per test, via ``run(_:)``.
struct TestServer: Sendable {
    /// The port the server listens on.
    let port: Int
    /// What the server received.
    let log: TestServerLog

    static let etag = "\"v1\""
    static let lastModified = "Sat, 22 Nov 2025 10:00:00 GMT"
    static let feedXML = """
        <?xml version="1.0" encoding="utf-8"?>
        <rss version="2.0"><channel><title>Loopback</title>
        <item><title>One</title><link>http://127.0.0.1/one</link></item>
        </channel></rss>
        """
    static let linesText = "first note\n\n  second note  \nthird note\n"
    static let newsAPIError = #"{"status":"error","code":"apiKeyInvalid","message":"Your API key is invalid or incorrect."}"#
    static let jokeError = #"{"error":true,"reason":"Missing x-device-uuid header"}"#
    /// 8 MB of zeros in about 50 KB of gzip; built once, its CRC takes a moment in debug builds.
    static let bomb = GzipFixture.zeroBomb(size: 8 << 20)
    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// Bytes that are no known format, the same on every run.
    static let garbage: [UInt8] = (0..<4096).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 13) }

    /// `http://127.0.0.1:<port><pathAndQuery>`.
    func url(_ pathAndQuery: String) throws -> URL {
        try #require(URL(string: "http://127.0.0.1:\(port)\(pathAndQuery)"))
    }

    /// Starts a server on `host` (loopback, or "0.0.0.0" for every interface), runs `body` with
    /// it, then stops it (cancelling whatever it still serves).
    static func run<Value: Sendable>(
        host: String = "127.0.0.1", _ body: (TestServer) async throws -> Value
    ) async throws -> Value {
        let log = TestServerLog()
        let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: "kiosk.test-server")
        logger.logLevel = .critical
        let app = Application(
            router: router(log: log),
            configuration: .init(address: .hostname(host, port: 0)),
            onServerRunning: { channel in
                portSink.yield(channel.localAddress?.port ?? 0)
                portSink.finish()
            },
            logger: logger
        )
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await app.run() }
            defer { group.cancelAll() }
            var iterator = ports.makeAsyncIterator()
            let port = try #require(await iterator.next())
            return try await body(TestServer(port: port, log: log))
        }
    }

    // MARK: routes

    private static func router(log: TestServerLog) -> Router<BasicRequestContext> {
        let router = Router()
        func route(
            _ path: RouterPath,
            _ respond: @escaping @Sendable (Request, BasicRequestContext) async throws -> Response
        ) {
            router.get(path) { request, context in
                await log.record(request)
                return try await respond(request, context)
            }
        }

        route("/feed") { request, _ in
            if request.headers[.ifNoneMatch] == etag || request.headers[.ifModifiedSince] == lastModified {
                return Response(status: .notModified, headers: [.eTag: etag])
            }
            return bytes(
                Array(feedXML.utf8),
                [.contentType: "application/rss+xml; charset=utf-8", .eTag: etag, .lastModified: lastModified]
            )
        }
        route("/cached") { request, _ in
            // Asks to be left alone: ten minutes on a 200, five on the 304 that revalidates it.
            if request.headers[.ifNoneMatch] == etag {
                return Response(status: .notModified, headers: [.eTag: etag, .cacheControl: "public, max-age=300"])
            }
            return bytes(
                Array(feedXML.utf8),
                [.contentType: "application/rss+xml", .eTag: etag, .cacheControl: "public, max-age=600"]
            )
        }
        route("/plain") { _, _ in bytes(Array(feedXML.utf8), [.contentType: "application/rss+xml"]) }
        // Plain text, one note per line (the kind `SourceKindTests` defines), with an ETag.
        route("/lines") { request, _ in
            if request.headers[.ifNoneMatch] == etag { return Response(status: .notModified, headers: [.eTag: etag]) }
            return bytes(Array(linesText.utf8), [.contentType: "text/plain; charset=utf-8", .eTag: etag])
        }
        route("/gzip") { request, _ in
            guard request.headers[.acceptEncoding]?.contains("gzip") == true else {
                return bytes(Array(feedXML.utf8), [.contentType: "application/rss+xml"])
            }
            return bytes(
                GzipFixture.stored(Array(feedXML.utf8)),
                [.contentType: "application/rss+xml; charset=utf-8", .contentEncoding: "gzip"]
            )
        }
        route("/bomb") { _, _ in
            bytes(bomb, [.contentType: "application/rss+xml", .contentEncoding: "gzip"])
        }
        route("/garbage") { _, _ in bytes(garbage, [.contentType: "application/octet-stream"]) }
        route("/garbage-gzip") { _, _ in bytes(garbage, [.contentType: "text/xml", .contentEncoding: "gzip"]) }
        route("/slow") { _, _ in
            // 40 bytes, one every 250 ms: the head comes at once, the body takes 10 s.
            Response(
                status: .ok, headers: [.contentType: "text/plain"],
                body: ResponseBody(contentLength: 40) { writer in
                    for _ in 0..<40 {
                        try await writer.write(ByteBuffer(bytes: [0x61]))
                        try await Task.sleep(for: .milliseconds(250))
                    }
                    try await writer.finish(nil)
                }
            )
        }
        route("/never") { _, _ in
            try await Task.sleep(for: .seconds(60))
            return Response(status: .noContent)
        }
        route("/reset") { _, _ in
            // Promises 100 000 bytes, sends 1 000, then the server drops the connection.
            Response(
                status: .ok, headers: [.contentType: "text/plain"],
                body: ResponseBody(contentLength: 100_000) { writer in
                    try await writer.write(ByteBuffer(repeating: 0x61, count: 1_000))
                    try await Task.sleep(for: .milliseconds(50))
                    throw HTTPError(.internalServerError)
                }
            )
        }
        route("/huge") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain"],
                body: ResponseBody(contentLength: 5 << 20) { writer in
                    for _ in 0..<80 { try await writer.write(ByteBuffer(repeating: 0x61, count: 64 << 10)) }
                    try await writer.finish(nil)
                }
            )
        }
        route("/huge-chunked") { _, _ in
            // No Content-Length: 50 MB announced by nothing, so only counting can stop it.
            Response(
                status: .ok, headers: [.contentType: "text/plain"],
                body: ResponseBody { writer in
                    for _ in 0..<800 { try await writer.write(ByteBuffer(repeating: 0x61, count: 64 << 10)) }
                    try await writer.finish(nil)
                }
            )
        }
        route("/status/newsapi") { _, _ in
            bytes(Array(newsAPIError.utf8), [.contentType: "application/json"], status: .internalServerError)
        }
        route("/status/joke") { _, _ in
            bytes(Array(jokeError.utf8), [.contentType: "application/json"], status: .badRequest)
        }
        route("/status/ratelimit") { _, _ in
            let body = #"{"status":"error","code":"rateLimited","message":"You have made too many requests."}"#
            return bytes(
                Array(body.utf8), [.contentType: "application/json", .retryAfter: "7"], status: .tooManyRequests
            )
        }
        route("/status/retry-date") { _, _ in
            bytes([], [.retryAfter: httpDate(Date().addingTimeInterval(120))], status: .serviceUnavailable)
        }
        route("/status/html") { _, _ in
            bytes(Array("<html><body>Bad gateway</body></html>".utf8), [.contentType: "text/html"], status: .badGateway)
        }
        route("/redirect/chain/:n") { _, context in
            let remaining = try context.parameters.require("n", as: Int.self)
            guard remaining > 0 else { return bytes(Array("arrived".utf8), [.contentType: "text/plain"]) }
            return Response(status: .found, headers: [.location: "/redirect/chain/\(remaining - 1)"])
        }
        route("/redirect/to") { request, _ in
            // ?url= where to send the client (anywhere: the fetcher must check it).
            Response(status: .found, headers: [.location: request.uri.queryParameters.get("url") ?? "/"])
        }
        route("/redirect/loop/a") { _, _ in Response(status: .found, headers: [.location: "/redirect/loop/b"]) }
        route("/redirect/loop/b") { _, _ in Response(status: .found, headers: [.location: "/redirect/loop/a"]) }
        route("/echo") { _, _ in
            bytes(Array("ok".utf8), [.contentType: "text/plain", .setCookie: "session=secret; Path=/"])
        }
        route("/image/:name") { request, context in
            // ?size= total bytes, ?delay= milliseconds before answering, ?type= the claimed content type.
            let query = request.uri.queryParameters
            let size = query.get("size", as: Int.self) ?? 1_000
            if let delay = query.get("delay", as: Int.self) { try await Task.sleep(for: .milliseconds(delay)) }
            let name = try context.parameters.require("name")
            let filler = Array(repeating: name.utf8.first ?? 0, count: max(0, size - 8))
            return bytes(pngSignature + filler, [.contentType: query.get("type") ?? "image/png"])
        }
        route("/fake-image") { _, _ in
            bytes(Array("<html><script>alert(1)</script></html>".utf8), [.contentType: "image/png"])
        }
        route("/svg") { _, _ in
            let svg = #"<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>"#
            return bytes(Array(svg.utf8), [.contentType: "image/svg+xml"])
        }
        route("/mislabelled") { _, _ in bytes(pngSignature + Array(repeating: 0, count: 100), [.contentType: "text/html"]) }
        route("/media/episode") { request, _ in
            // An episode of `episode`'s bytes with ranges, as a publisher's CDN serves one;
            // ?type= the claimed content type.
            let type = request.uri.queryParameters.get("type") ?? "audio/mpeg"
            var headers: HTTPFields = [.contentType: type, .acceptRanges: "bytes", .eTag: "\"ep1\""]
            guard let range = request.headers[.range] else { return bytes(episode, headers) }
            guard let (first, last) = byteRange(range, of: episode.count) else {
                return bytes([], [.contentRange: "bytes */\(episode.count)"], status: .rangeNotSatisfiable)
            }
            headers[.contentRange] = "bytes \(first)-\(last)/\(episode.count)"
            return bytes(Array(episode[first...last]), headers, status: .partialContent)
        }
        route("/media/encoded/:encoding") { _, context in
            // The episode compressed (gzip, stored), or claimed in an encoding the client cannot undo.
            let encoding = try context.parameters.require("encoding")
            let body = encoding == "gzip" ? GzipFixture.stored(episode) : episode
            return bytes(body, [.contentType: "audio/mpeg", .acceptRanges: "bytes", .contentEncoding: encoding])
        }
        route("/media/stall") { _, _ in
            // The head and 100 bytes at once, then nothing for a minute.
            Response(
                status: .ok, headers: [.contentType: "audio/mpeg"],
                body: ResponseBody(contentLength: 10_000) { writer in
                    try await writer.write(ByteBuffer(repeating: 0x61, count: 100))
                    try await Task.sleep(for: .seconds(60))
                    try await writer.finish(nil)
                }
            )
        }
        route("/gif-as-png") { _, _ in bytes(Array("GIF89a".utf8) + Array(repeating: 0, count: 100), [.contentType: "image/png"]) }
        return router
    }

    /// What `/media/episode` serves: 10,000 bytes, each told apart by its place.
    static let episode: [UInt8] = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 / 256) }

    /// The first and last byte of `bytes=A-B`, `bytes=A-` or `bytes=-N` in a file of `size`.
    private static func byteRange(_ value: String, of size: Int) -> (Int, Int)? {
        guard value.hasPrefix("bytes=") else { return nil }
        let parts = value.dropFirst(6).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        if parts[0].isEmpty, let suffix = Int(parts[1]), suffix > 0 { return (max(0, size - suffix), size - 1) }
        guard let first = Int(parts[0]), first < size else { return nil }
        let last = parts[1].isEmpty ? size - 1 : min(Int(parts[1]) ?? size - 1, size - 1)
        return last >= first ? (first, last) : nil
    }

    private static func bytes(_ body: [UInt8], _ headers: HTTPFields, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    private static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}
