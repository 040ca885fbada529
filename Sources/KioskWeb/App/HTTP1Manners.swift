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
            let manners = HTTP1MannersHandler()
            try pipeline.addHandler(manners, position: .before(codec))
            let sniffer = RequestLineSniffer()
            try pipeline.addHandler(UnknownMethodHandler(sniffer), position: .before(manners))
            try pipeline.addHandler(RequestLineTap(sniffer), position: .first)
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

/// A method HTTP's parser does not know at all (`BREW`; llhttp knows `PROPFIND` and the like)
/// fails the parse, which Hummingbird answers with 400. HTTP asks for 501 Not Implemented when
/// the request line is well formed and only its method is unknown: such a parse error becomes a
/// request of an unknown method (which ``KnownMethodsMiddleware`` answers with 501 and every
/// security header) that closes the connection, as the rest of what the client sent cannot be
/// read. A line that is not a request line at all (`GARBAGE`) stays a 400.
final class RequestLineSniffer {
    // Used only on its channel's event loop, by the two handlers below.
    fileprivate var line: [UInt8] = []
    fileprivate var awaitingHead = true

    /// `METHOD SP target SP HTTP/d.d`, the method a token of letters, digits and `-`, `_`, `.`.
    fileprivate var isWellFormedRequestLine: Bool {
        let parts = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3, let method = parts.first, !method.isEmpty,
            method.allSatisfy({ byte in
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
                    || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
            }),
            !parts[1].isEmpty
        else { return false }
        let version = Array(parts[2])
        return version.count == 8 && version.starts(with: Array("HTTP/".utf8))
    }
}

/// Before the parser: keeps the first line of a request whose head has not been parsed yet.
final class RequestLineTap: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    private let sniffer: RequestLineSniffer

    init(_ sniffer: RequestLineSniffer) { self.sniffer = sniffer }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if sniffer.awaitingHead, sniffer.line.count < 8_192 {
            let buffer = unwrapInboundIn(data)
            for byte in buffer.readableBytesView {
                if byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n") {
                    if !sniffer.line.isEmpty {
                        sniffer.awaitingHead = false
                        break
                    }
                    continue
                }
                sniffer.line.append(byte)
                if sniffer.line.count >= 8_192 { break }
            }
        }
        context.fireChannelRead(data)
    }
}

/// After the parser: turns "unknown method" on a well-formed request line into that request.
final class UnknownMethodHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    private let sniffer: RequestLineSniffer
    private var answered = false

    init(_ sniffer: RequestLineSniffer) { self.sniffer = sniffer }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .end = unwrapInboundIn(data) {
            // The next bytes start the next request.
            sniffer.line = []
            sniffer.awaitingHead = true
        }
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard !answered, let parse = error as? HTTPParserError, parse == .invalidMethod, sniffer.isWellFormedRequestLine
        else {
            context.fireErrorCaught(error)
            return
        }
        answered = true
        // Loopback's name is always an allowed Host; the real one was never read.
        let head = HTTPRequestHead(
            version: .http1_1, method: .RAW(value: "UNKNOWN"), uri: "/",
            headers: ["host": "localhost", "connection": "close", "content-length": "0"])
        context.fireChannelRead(wrapInboundOut(.head(head)))
        context.fireChannelRead(wrapInboundOut(.end(nil)))
    }
}
