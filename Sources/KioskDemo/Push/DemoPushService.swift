import Foundation
import Hummingbird
import KioskPush

/// `/push/...`: a Web Push service on loopback for demo mode, standing in for the browser's own
/// (which needs the network), so "Notify me" and Test can be tried end to end offline. It keeps
/// each device's keys, checks what a real service checks (a VAPID `Authorization`, a `TTL`, the
/// aes128gcm coding), opens every message with the device's key, and keeps the last few.
///
/// - `POST /push/subscribe`: a new device, answered as a browser's `PushSubscription.toJSON()`
///   (`{"endpoint", "keys": {"p256dh", "auth"}}`).
/// - `POST /push/send/<id>`: a message for the device (201); an unknown device is 410 Gone.
/// - `GET /push/inbox/<id>`: what the device received, newest first (JSON).
actor DemoPushService {
    static let prefix = "/push/"
    /// Devices kept at most (the oldest forgotten first), and messages each.
    static let mostDevices = 100
    static let inboxSize = 20

    /// One message as the device opened it.
    struct Received: Codable, Sendable, Hashable {
        var title: String
        var body: String
        var url: String
        var receivedAt: Date

        enum CodingKeys: String, CodingKey {
            case title, body, url
            case receivedAt = "received_at"
        }
    }

    private struct Device {
        var receiver: PushReceiver
        var inbox: [Received] = []
    }

    private var devices: [String: Device] = [:]
    private var order: [String] = []

    func respond(to request: Request, base: URL) async -> DemoReply {
        let command = request.uri.path.dropFirst(Self.prefix.count)
        switch (request.method, command) {
        case (.post, "subscribe"):
            return subscribe(base: base)
        case (.post, let path) where path.hasPrefix("send/"):
            let body = (try? await request.body.collect(upTo: 8 << 10)).map { Array(buffer: $0) }
            return receive(String(path.dropFirst("send/".count)), body: body, headers: request.headers)
        case (.get, let path) where path.hasPrefix("inbox/"):
            return inbox(String(path.dropFirst("inbox/".count)))
        default:
            return .notFound
        }
    }

    private func subscribe(base: URL) -> DemoReply {
        let id = UUID().uuidString.lowercased()
        let receiver = PushReceiver()
        devices[id] = Device(receiver: receiver)
        order.append(id)
        if order.count > Self.mostDevices { devices[order.removeFirst()] = nil }
        let endpoint = base.appendingPathComponent("push/send/\(id)").absoluteString
        let json: [String: Any] = ["endpoint": endpoint, "keys": ["p256dh": receiver.p256dh, "auth": receiver.auth]]
        let body = (try? JSONSerialization.data(withJSONObject: json, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return .json(Array(body), status: .created)
    }

    private func receive(_ id: String, body: [UInt8]?, headers: HTTPFields) -> DemoReply {
        guard var device = devices[id] else { return .text("No such device\n", status: .gone) }
        guard let authorization = headers[.authorization], authorization.hasPrefix("vapid t="), authorization.contains(",k=")
        else { return .text("A VAPID Authorization header is required\n", status: .unauthorized) }
        guard HTTPHeader.value("ttl", in: headers).flatMap(Int.init) != nil else {
            return .text("A TTL header is required\n", status: .badRequest)
        }
        guard headers[.contentEncoding] == "aes128gcm", let body else {
            return .text("The body must be aes128gcm, at most 8 KiB\n", status: .unsupportedMediaType)
        }
        let plain: [UInt8]
        do {
            plain = try device.receiver.open(body)
        } catch {
            return .text("\(error.description)\n", status: .badRequest)
        }
        let message = (try? JSONSerialization.jsonObject(with: Data(plain))) as? [String: Any] ?? [:]
        device.inbox.insert(
            Received(
                title: message["title"] as? String ?? "", body: message["body"] as? String ?? "",
                url: message["url"] as? String ?? "", receivedAt: Date()), at: 0)
        device.inbox = Array(device.inbox.prefix(Self.inboxSize))
        devices[id] = device
        return DemoReply(status: .created, contentType: nil, body: [])
    }

    private func inbox(_ id: String) -> DemoReply {
        guard let device = devices[id] else { return .text("No such device\n", status: .gone) }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return .json(Array((try? encoder.encode(device.inbox)) ?? Data("[]".utf8)))
    }
}
