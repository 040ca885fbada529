import Foundation
import KioskSources
import KioskStore

/// Demo mode's push service (`DemoPushService`, on the sample server) seen from the web app:
/// a device of its own to add, and what each of its devices received, so "Notify me" and Test
/// can be tried end to end with no network.
struct DemoPush: Sendable {
    /// The service's address (`…/push`).
    let base: URL
    let fetcher: any Fetching

    /// A device the service made, as a browser's subscription reads.
    struct Subscription: Decodable, Sendable {
        struct Keys: Decodable, Sendable {
            var p256dh: String
            var auth: String
        }
        var endpoint: String
        var keys: Keys
    }

    /// One message a demo device received.
    struct Received: Decodable, Sendable, Hashable {
        var title: String
        var body: String
        var receivedAt: Date

        enum CodingKeys: String, CodingKey {
            case title, body
            case receivedAt = "received_at"
        }
    }

    /// A new device of the service.
    func subscribe() async throws -> Subscription {
        let bytes = try await bytes(of: FetchRequest(url: base.appendingPathComponent("subscribe"), maxBytes: 4 << 10, body: []))
        return try JSONDecoder().decode(Subscription.self, from: Data(bytes))
    }

    /// Whether `device` is one of the service's.
    func owns(_ device: PushDevice) -> Bool {
        device.kind == .push && device.endpoint.hasPrefix(base.absoluteString + "/send/")
    }

    /// What `device` received, newest first; nil when the service cannot say (it restarted).
    func inbox(of device: PushDevice) async -> [Received]? {
        guard owns(device), let id = device.endpoint.split(separator: "/").last else { return nil }
        let url = base.appendingPathComponent("inbox").appendingPathComponent(String(id))
        guard let bytes = try? await bytes(of: FetchRequest(url: url, maxBytes: 64 << 10, timeout: .seconds(5))) else {
            return nil
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try? decoder.decode([Received].self, from: Data(bytes))
    }

    private func bytes(of request: FetchRequest) async throws -> [UInt8] {
        switch try await fetcher.fetch(request) {
        case .fetched(let body): body.bytes
        case .notModified: []
        }
    }
}
