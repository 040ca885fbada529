import Foundation
import KioskStore
import Testing

/// Web Push devices on both stores: each user's own, one row per endpoint (a browser that
/// subscribes again replaces its row), forgotten by id or by endpoint; a value kept once.
@Suite struct PushDeviceStoreTests {
    @Test(arguments: StoreKind.allCases)
    func devicesAreEachUsersOwnOnePerEndpoint(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            let phone = try await store.savePushDevice(
                user: .owner, endpoint: "https://push.example/a", p256dh: "BKey", auth: "Auth", name: "Safari on iPhone",
                now: now)
            let theirs = try await store.savePushDevice(
                user: UserID(2), endpoint: "https://push.example/b", p256dh: "BKey2", auth: "Auth2", name: "Chrome",
                now: now)
            #expect(try await store.pushDevices(user: .owner) == [phone])
            #expect(phone.name == "Safari on iPhone" && phone.lastSentAt == nil)
            // The same browser again: one row, the new keys.
            let again = try await store.savePushDevice(
                user: .owner, endpoint: "https://push.example/a", p256dh: "BKey3", auth: "Auth3", name: "Safari on iPhone",
                now: now)
            #expect(try await store.pushDevices(user: .owner).map(\.p256dh) == ["BKey3"])
            try await store.notePushSent(again.id, at: now, error: "HTTP 429")
            #expect(try await store.pushDevices(user: .owner).first?.lastError == "HTTP 429")
            // A test leaves the last notification's time.
            try await store.notePushSent(again.id, at: nil, error: nil)
            let noted = try await store.pushDevices(user: .owner).first
            #expect(noted?.lastSentAt == now && noted?.lastError == nil)
            #expect(try await store.removePushDevice(theirs.id, user: .owner) == false)
            try await store.removePushDevice(endpoint: "https://push.example/b")
            #expect(try await store.pushDevices(user: UserID(2)).isEmpty)
            #expect(try await store.removePushDevice(again.id, user: .owner))
            #expect(try await store.pushDevices(user: .owner).isEmpty)
            // A webhook is kept beside them, its kind said.
            let hook = try await store.savePushDevice(
                user: .owner, kind: .webhook, endpoint: "https://hooks.example/k", p256dh: "", auth: "secret", name: "Webhook",
                now: now)
            #expect(try await store.pushDevices(user: .owner).map(\.kind) == [.webhook])
            #expect(phone.kind == .push && hook.kind == .webhook)
            // Another user typing the same address takes nothing: the kept one is answered, its
            // owner and secret unchanged (and the owner adding it again keeps its secret).
            let taken = try await store.savePushDevice(
                user: UserID(2), kind: .webhook, endpoint: "https://hooks.example/k", p256dh: "", auth: "other", name: "Mine",
                now: now)
            #expect(taken.user == .owner && taken.auth == "secret")
            #expect(try await store.pushDevices(user: UserID(2)).isEmpty)
            let readded = try await store.savePushDevice(
                user: .owner, kind: .webhook, endpoint: "https://hooks.example/k", p256dh: "", auth: "new", name: "Webhook",
                now: now)
            #expect(readded.id == hook.id && readded.auth == "secret")

            let first = try await store.keptValue("vapid_key") { "one" }
            let second = try await store.keptValue("vapid_key") { "two" }
            #expect(first == "one" && second == "one")
        }
    }
}
