import NIOCore
import NIOHTTP1
import NIOConcurrencyHelpers

// The idle timeout closes a connection that sends nothing, but a client that trickles a byte
// every few seconds is never idle: the hardening review held `POST /login` with a 7,000-byte
// body open for ever, and 600 such connections made /healthz unreachable. Two limits close that:
// each request (head and body) must be all in within a deadline of its first byte, and only so
// many connections may be part-way through sending one; past that, the one that has been at it
// longest makes room for the newcomer (a stalled client loses its slot, a quick one never waits).

/// Connections part-way through sending a request, across the whole server.
final class PendingRequests: Sendable {
    /// Most connections part-way through a request at once.
    let limit: Int
    private struct State {
        var next = 0
        /// By arrival: the lowest token is the oldest.
        var channels: [Int: any Channel] = [:]
    }
    private let state = NIOLockedValueBox(State())

    init(limit: Int) { self.limit = max(1, limit) }

    /// Notes that `channel` started sending a request; closes the oldest other such connection
    /// when that makes one too many. Returns the token to hand to ``end(_:)``.
    func begin(_ channel: any Channel) -> Int {
        let (token, evicted) = state.withLockedValue { state -> (Int, (any Channel)?) in
            let token = state.next
            state.next += 1
            state.channels[token] = channel
            guard state.channels.count > limit, let oldest = state.channels.keys.filter({ $0 != token }).min() else {
                return (token, nil)
            }
            return (token, state.channels.removeValue(forKey: oldest))
        }
        evicted?.close(promise: nil)
        return token
    }

    /// Notes that the request of `token` is all in (or its connection is gone).
    func end(_ token: Int) {
        _ = state.withLockedValue { $0.channels.removeValue(forKey: token) }
    }
}

/// The clock of one connection's request: started by its first byte, stopped by its end.
/// Lives on the connection's event loop, shared by the two handlers below.
final class RequestClock {
    private let timeout: TimeAmount
    private let pending: PendingRequests
    private var deadline: Scheduled<Void>?
    private var token: Int?

    init(timeout: TimeAmount, pending: PendingRequests) {
        self.timeout = timeout
        self.pending = pending
    }

    /// Bytes of a request arrived: start its clock unless it runs already.
    func bytesArrived(on channel: any Channel) {
        guard deadline == nil else { return }
        token = pending.begin(channel)
        deadline = channel.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
    }

    /// The request is all in, or the connection closed.
    func stop() {
        deadline?.cancel()
        deadline = nil
        if let token { pending.end(token) }
        token = nil
    }
}

/// First in the pipeline: any bytes from the client start the request's clock.
final class RequestStartHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    private let clock: RequestClock

    init(clock: RequestClock) { self.clock = clock }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        clock.bytesArrived(on: context.channel)
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        clock.stop()
        context.fireChannelInactive()
    }
}

/// After the HTTP decoder: a request's end stops its clock.
final class RequestEndHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    private let clock: RequestClock

    init(clock: RequestClock) { self.clock = clock }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .end = unwrapInboundIn(data) { clock.stop() }
        context.fireChannelRead(data)
    }
}
