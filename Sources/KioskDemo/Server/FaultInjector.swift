import Foundation
import Hummingbird
import NIOCore

/// Turns a source's normal reply into the response of the fault switched on for it.
enum FaultInjector {
    /// `slowBody` sends this many bytes per ``trickleInterval``.
    static let trickleBytes = 8
    static let trickleInterval: Duration = .milliseconds(500)
    /// `oversizedBody` streams this many bytes.
    static let oversizedBytes = 64 << 20
    /// `garbageBody` sends this many random bytes.
    static let garbageBytes = 4096

    /// Why a response was cut short on purpose.
    struct InjectedReset: Error {}

    /// The response for `reply` under `fault` (never `.neverAnswer`, which has no response).
    /// `serverError` is the source's 500 reply; `location` is where `redirectLoop` and
    /// `tlsDowngrade` point (see ``redirectLocation(for:base:target:)``).
    static func response(
        for reply: DemoReply, fault: DemoFault, serverError: DemoReply, location: String, channel: any Channel
    ) -> Response {
        switch fault {
        case .none, .neverAnswer:
            return plain(reply)
        case .serverError:
            return plain(serverError)
        case .slowBody:
            return trickle(reply)
        case .connectionReset:
            return reset(reply, channel: channel)
        case .garbageBody:
            // The top bit is always set, so the body is never valid ASCII, JSON or XML.
            let garbage = (0..<garbageBytes).map { _ in UInt8.random(in: 0...255) | 0x80 }
            return plain(DemoReply(status: .ok, contentType: reply.headers[.contentType], body: garbage))
        case .oversizedBody:
            return oversized(contentType: reply.headers[.contentType])
        case .redirectLoop:
            return redirect(.found, to: location)
        case .tlsDowngrade:
            return redirect(.movedPermanently, to: location)
        }
    }

    /// Where `fault` redirects a request for `target` (path and query) on the server at `base`:
    /// the same URL for `redirectLoop`, its `https://` form on the same host and port for
    /// `tlsDowngrade`, nil for faults that do not redirect.
    static func redirectLocation(for fault: DemoFault, base: URL, target: String) -> String? {
        let same = base.absoluteString.trimmingSuffix("/") + target
        switch fault {
        case .redirectLoop:
            return same
        case .tlsDowngrade:
            guard var components = URLComponents(string: same) else { return nil }
            components.scheme = "https"
            return components.string
        case .none, .slowBody, .serverError, .connectionReset, .garbageBody, .oversizedBody, .neverAnswer:
            return nil
        }
    }

    private static func redirect(_ status: HTTPResponse.Status, to location: String) -> Response {
        var headers = HTTPFields()
        headers[.location] = location
        return Response(status: status, headers: headers, body: ResponseBody())
    }

    /// `reply` as it is. A 304 carries no `Content-Length`, as it has no body.
    static func plain(_ reply: DemoReply) -> Response {
        guard reply.status != .notModified else {
            var response = Response(status: .notModified, headers: reply.headers)
            response.headers[.contentLength] = nil
            return response
        }
        return Response(status: reply.status, headers: reply.headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: reply.body)))
    }

    /// Headers now, then the body a few bytes at a time.
    private static func trickle(_ reply: DemoReply) -> Response {
        let body = reply.body
        return Response(
            status: reply.status, headers: reply.headers,
            body: ResponseBody(contentLength: body.count) { writer in
                var start = 0
                while start < body.count {
                    let end = min(start + trickleBytes, body.count)
                    try await writer.write(ByteBuffer(bytes: body[start..<end]))
                    start = end
                    if start < body.count { try await DemoPause.sleep(for: trickleInterval) }
                }
                try await writer.finish(nil)
            })
    }

    /// Announces the whole body, sends a little of it, then resets the connection (RST, not FIN).
    private static func reset(_ reply: DemoReply, channel: any Channel) -> Response {
        let body = reply.body
        let sent = min(body.count / 2, 512)
        return Response(
            status: reply.status, headers: reply.headers,
            body: ResponseBody(contentLength: max(body.count, sent + 1)) { writer in
                try await writer.write(ByteBuffer(bytes: body.prefix(sent)))
                // Let the first bytes reach the client, so the failure is mid-body, not before it.
                try await DemoPause.sleep(for: .milliseconds(50))
                if let socket = channel as? any SocketOptionProvider {
                    // SO_LINGER 0 makes close() send RST instead of a graceful FIN.
                    try? await socket.setSoLinger(linger(l_onoff: 1, l_linger: 0)).get()
                }
                try? await channel.close()
                throw InjectedReset()
            })
    }

    /// 200 with a body far larger than any source should send, streamed without a length.
    private static func oversized(contentType: String?) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = contentType ?? "application/octet-stream"
        let chunkSize = 64 << 10
        let chunk = ByteBuffer(bytes: Array(repeating: UInt8(ascii: "x"), count: chunkSize))
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody { writer in
                for _ in 0..<(oversizedBytes / chunkSize) {
                    try await writer.write(chunk)
                }
                try await writer.finish(nil)
            })
    }
}
