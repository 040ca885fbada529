import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// Hummingbird's HTTP/1 server, with the manners it leaves out (see ``HTTP1MannersHandler``)
/// and a deadline for each request (see ``RequestClock``).
struct KioskHTTP1Channel: ServerChildChannel, HTTPChannelHandler {
    typealias Value = HTTP1Channel.Value
    let base: HTTP1Channel
    let limits: RequestLimits

    var responder: Responder { base.responder }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            // Where HTTP/1's request heads become version-less HTTP types: past this point
            // nothing can tell HTTP/1.0 from HTTP/1.1.
            let pipeline = channel.pipeline.syncOperations
            let codec = try pipeline.handler(type: HTTP1ToHTTPServerCodec.self)
            try pipeline.addHandler(HTTP1MannersHandler(), position: .before(codec))
            let clock = RequestClock(timeout: TimeAmount(limits.requestTimeout), pending: limits.pending)
            try pipeline.addHandler(RequestStartHandler(clock: clock), position: .first)
            try pipeline.addHandler(RequestEndHandler(clock: clock), position: .before(codec))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

/// How long a request may take to arrive, and how many may be arriving at once.
struct RequestLimits: Sendable {
    /// From a request's first byte to its last (head and body).
    var requestTimeout: Duration
    /// The server's count of connections part-way through a request.
    var pending: PendingRequests
}

extension HTTPServerBuilder {
    /// Hummingbird's HTTP/1 server with Kiosk's ``HTTP1MannersHandler`` and request deadline in
    /// each connection.
    static func kioskHTTP1(configuration: HTTP1Channel.Configuration, limits: RequestLimits) -> HTTPServerBuilder {
        .init { responder in
            KioskHTTP1Channel(base: HTTP1Channel(responder: responder, configuration: configuration), limits: limits)
        }
    }
}

/// What HTTP/1 asks of a server that Hummingbird 2 does not do, done where the request's HTTP
/// version is still known (Hummingbird's requests do not carry it):
///
/// - A request that does not ask to keep the connection (HTTP/1.0 without `Connection:
///   keep-alive`, or `Connection: close`) is answered with `Connection: close` and then the
///   connection is closed. Hummingbird kept HTTP/1.0 connections open, so a 1.0 client that waits
///   for the end of the answer (`ab`, scripts) hung until the idle timeout. Requests pipelined
///   behind it are never run.
/// - An HTTP/1.0 client gets an HTTP/1.0 answer: never chunked (it cannot read chunks); one
///   without a length ends the connection.
/// - A request without exactly one `Host` (HTTP/1.1 requires it; none may send two) is malformed:
///   it reaches no route and gets Hummingbird's 400 for malformed requests. Routes can therefore
///   take a request without a Host to be HTTP/1.0.
/// - Every answer carries the security headers, including that 400, which no route ever sees.
final class HTTP1MannersHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// What the answer to a request depends on, kept until the answer ends.
    private struct Exchange {
        var version: HTTPVersion
        var keepAlive: Bool
        var isHead: Bool
    }

    /// Requests read and not yet fully answered, oldest first.
    private var exchanges: [Exchange] = []
    /// Set once a request ends the connection (or was malformed): nothing read after it is run.
    private var ignoringInput = false
    /// Whether the request being read ends the connection once it has been read.
    private var lastRequestCloses = false
    /// Whether the answer being written ends the connection.
    private var closeAfterAnswer = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !ignoringInput else { return }
        switch unwrapInboundIn(data) {
        case .head(var head):
            let hosts = head.headers["host"].count
            guard hosts == 1 || (hosts == 0 && head.version.predatesHTTP11) else {
                ignoringInput = true
                // Hummingbird answers any HTTPParserError with 400 and closes the connection.
                context.fireErrorCaught(HTTPParserError.invalidHeaderToken)
                return
            }
            let keepAlive = head.isKeepAlive
            // Hummingbird stops reading a connection after a request that says `close`, in
            // exactly that spelling.
            if !keepAlive { head.headers.replaceOrAdd(name: "connection", value: "close") }
            lastRequestCloses = !keepAlive
            exchanges.append(Exchange(version: head.version, keepAlive: keepAlive, isHead: head.method == .HEAD))
            context.fireChannelRead(wrapInboundOut(.head(head)))
        case .body:
            context.fireChannelRead(data)
        case .end:
            if lastRequestCloses { ignoringInput = true }
            context.fireChannelRead(data)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head):
            for field in SecurityHeadersMiddleware.fields where !head.headers.contains(name: field.name.canonicalName) {
                head.headers.add(name: field.name.rawName, value: field.value)
            }
            // An interim answer (100 Continue) is not the answer.
            if head.status.code >= 200, let exchange = exchanges.first {
                closeAfterAnswer = !keepsConnection(head, for: exchange)
                if closeAfterAnswer {
                    ignoringInput = true
                    head.headers.replaceOrAdd(name: "connection", value: "close")
                } else if exchange.version.predatesHTTP11 {
                    head.headers.replaceOrAdd(name: "connection", value: "keep-alive")
                }
                if exchange.version.predatesHTTP11 { head.version = exchange.version }
            }
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .body:
            context.write(data, promise: promise)
        case .end:
            if !exchanges.isEmpty { exchanges.removeFirst() }
            guard closeAfterAnswer else {
                context.write(data, promise: promise)
                return
            }
            context.writeAndFlush(data, promise: promise)
            context.close(promise: nil)
        }
    }

    /// Whether the connection stays open after `head` answers `exchange`: the client asked, and
    /// (for HTTP/1.0, which has no chunks) the answer's end is known without closing.
    private func keepsConnection(_ head: HTTPResponseHead, for exchange: Exchange) -> Bool {
        guard exchange.keepAlive, !head.headers["connection"].contains(where: { $0.lowercased() == "close" }) else {
            return false
        }
        guard exchange.version.predatesHTTP11 else { return true }
        return exchange.isHead || head.status == .noContent || head.status == .notModified
            || head.headers.contains(name: "content-length")
    }
}

extension HTTPVersion {
    /// HTTP/1.0 and older: no Host required, no chunks, connections closed unless kept alive.
    fileprivate var predatesHTTP11: Bool { (major, minor) < (1, 1) }
}
