import Foundation
import KioskDemo
import Testing

/// The demo push service stands in for a browser's: it makes devices, and refuses what a real
/// service refuses (no VAPID header, no TTL, a device it does not know).
@Suite struct DemoPushServiceTests {
    @Test func aDeviceIsMadeAndUnsignedOrUnknownMessagesAreRefused() async throws {
        try await DemoHarness.run { demo async throws in
            let made = try await demo.post("/push/subscribe")
            #expect(made.status == 201)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(made.body)) as? [String: Any])
            let endpoint = try #require(json["endpoint"] as? String)
            let keys = try #require(json["keys"] as? [String: String])
            #expect(endpoint.hasPrefix(demo.base.absoluteString + "/push/send/"))
            #expect(keys["p256dh"]?.count == 87 && keys["auth"]?.count == 22)
            let path = String(endpoint.dropFirst(demo.base.absoluteString.count))
            #expect(try await demo.post(path).status == 401)
            let unsigned = try await demo.get(path, headers: [("Authorization", "vapid t=x,k=y")], method: .POST)
            #expect(unsigned.status == 400)  // no TTL
            let garbled = try await demo.get(
                path, headers: [("Authorization", "vapid t=x,k=y"), ("TTL", "60"), ("Content-Encoding", "aes128gcm")],
                method: .POST)
            #expect(garbled.status == 400 || garbled.status == 415)
            #expect(try await demo.post("/push/send/nobody").status == 410)
            let inbox = try await demo.get(path.replacingOccurrences(of: "/send/", with: "/inbox/"))
            #expect(inbox.status == 200 && String(decoding: inbox.body, as: UTF8.self) == "[]")
        }
    }
}
