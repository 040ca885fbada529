import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import KioskStore
@testable import KioskWeb
import Testing

/// Demo mode's push service, end to end with no network: "Add the demo device" makes a device
/// of the sample server's push service; Kiosk's notifications reach it encrypted and signed,
/// the service opens each with the device's key, and the page lists what it received. A message
/// the device cannot open (keys not its own) is refused, as a real service would.
@Suite struct DemoPushTests {
    @Test func theDemoDeviceReceivesAndOpensKiosksNotifications() async throws {
        try await withKioskApp(newsAPIKey: "") { kiosk in
            try await kiosk.run { client, _ in
                let added = try await client.execute(uri: "/reader/notifications/demo-device", method: .post)
                let page = String(buffer: added.body)
                #expect(page.contains("The demo device was added"))
                // The confirmation, as the device opened it.
                #expect(page.contains(#"class="device-inbox""#) && page.contains("Notifications are on"))
                let device = try #require(try await kiosk.store.pushDevices(user: .owner).first)
                #expect(device.name == "Demo device" && device.endpoint.contains("/push/send/"))

                let tested = try await client.execute(uri: "/reader/notifications/devices/\(device.id)/test", method: .post)
                #expect(String(buffer: tested.body).contains("Sent to Demo device"))
                #expect(try await client.text("/reader/notifications").contains("A test from Kiosk"))

                // Keys that are not the device's: the service cannot open it, and says so.
                _ = try await kiosk.store.savePushDevice(
                    user: .owner, endpoint: device.endpoint, p256dh: "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM",
                    auth: "tBHItJI5svbpez7KI4CCXg", name: "Demo device", now: Date())
                let refused = try await client.execute(uri: "/reader/notifications/devices/\(device.id)/test", method: .post)
                #expect(String(buffer: refused.body).contains("refused it"))
            }
        }
    }
}
