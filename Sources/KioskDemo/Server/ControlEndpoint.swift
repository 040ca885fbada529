import Foundation
import Hummingbird
import NIOCore

/// `/_demo/...`: drives ``DemoControl`` over HTTP (for browser tests), from loopback only.
///
/// - `POST /_demo/fault?source=business&mode=serverError` (`mode=none` heals); modes are the
///   ``DemoFault`` cases: none, slowBody, serverError, connectionReset, garbageBody, oversizedBody,
///   redirectLoop, neverAnswer, tlsDowngrade. An unknown mode is a 400 that lists them all.
/// - `POST /_demo/latency?source=business&ms=3000`
/// - `POST /_demo/advance?source=business` (a new feed entry now); optional `title`, `description`
///   and `link` (URL-encoded) set what it says, e.g. hostile markup for the browser's security tests
/// - `POST /_demo/reset`
/// - `GET /_demo/stats`
struct ControlEndpoint: Sendable {
    let control: DemoControl

    func respond(to request: Request, channel: any Channel) async -> DemoReply {
        guard Self.isLoopback(channel.remoteAddress) else { return .text("Forbidden\n", status: .forbidden) }
        let query = QueryItems(request.uri.query)
        let command = request.uri.path.dropFirst("/_demo/".count)
        if command == "stats" {
            guard request.method == .get || request.method == .head else {
                return .text("Use GET\n", status: .methodNotAllowed)
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            guard let body = try? encoder.encode(await control.statistics()) else {
                return .text("Unencodable\n", status: .internalServerError)
            }
            return .json([UInt8](body))
        }
        guard request.method == .post else { return .text("Use POST\n", status: .methodNotAllowed) }
        if command == "reset" {
            await control.reset()
            return .text("ok\n", status: .ok)
        }
        guard let name = query["source"], let source = DemoSource(name: name) else {
            let names = DemoSource.allCases.map(\.rawValue).joined(separator: ", ")
            return .text("source must be one of: \(names)\n", status: .badRequest)
        }
        switch command {
        case "fault":
            guard let mode = query["mode"], let fault = DemoFault(name: mode) else {
                let names = DemoFault.allCases.map(\.rawValue).joined(separator: ", ")
                return .text("mode must be one of: \(names)\n", status: .badRequest)
            }
            await control.setFault(fault, for: source)
            return .text("\(source.rawValue): \(fault.rawValue)\n", status: .ok)
        case "latency":
            guard let milliseconds = query.integer("ms"), milliseconds >= 0 else {
                return .text("ms must be a whole number of milliseconds\n", status: .badRequest)
            }
            await control.setLatency(.milliseconds(milliseconds), for: source)
            return .text("\(source.rawValue): \(milliseconds) ms\n", status: .ok)
        case "advance":
            guard source.isFeed else { return .text("\(source.rawValue) is not a feed\n", status: .badRequest) }
            let content = ManualEntry(title: query["title"], description: query["description"], link: query["link"])
            await control.addEntry(to: source, content: content)
            return .text("\(source.rawValue): new entry\n", status: .ok)
        default:
            return .notFound
        }
    }

    /// 127.0.0.0/8, ::1, or IPv4-mapped loopback.
    static func isLoopback(_ address: SocketAddress?) -> Bool {
        guard let ip = address?.ipAddress else { return false }
        return ip.hasPrefix("127.") || ip == "::1" || ip.hasPrefix("::ffff:127.")
    }
}
