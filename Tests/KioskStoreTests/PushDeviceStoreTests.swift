import Foundation
import KioskCore
import KioskModel
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

    /// Each device has its own queue (a rule's notify queues the entry for every device of the
    /// user, in the insert's transaction) and its own window, claimed by a compare-and-set of its
    /// last notification time: of two replicas claiming at once, one wins.
    @Test(arguments: StoreKind.allCases)
    func eachDeviceHasItsOwnQueueAndWindowClaimedOnce(_ kind: StoreKind) async throws {
        let feed = SourceID("weather")
        try await withStore(kind, following: [feed]) { store in
            let now = Date(timeIntervalSince1970: 1_800_000_000.123_456)
            let phone = try await store.savePushDevice(
                user: .owner, endpoint: "https://push.example/phone", p256dh: "K1", auth: "A1", name: "Phone", now: now)
            let laptop = try await store.savePushDevice(
                user: .owner, endpoint: "https://push.example/laptop", p256dh: "K2", auth: "A2", name: "Laptop", now: now)
            _ = try await store.savePushDevice(
                user: UserID(2), endpoint: "https://push.example/theirs", p256dh: "K3", auth: "A3", name: "Theirs", now: now)
            try await store.addRule(RuleDraft(name: "Storms", query: "storm", actions: [.notify]), user: .owner, now: now)
            try await store.saveSourceState(
                SourceState(entries: [Entry(id: "1", title: "Storm"), Entry(id: "2", title: "Calm")]), for: feed)
            let queued = try await store.pendingPushes(limit: 10)
            #expect(Set(queued.map(\.device)) == [phone.id, laptop.id] && Set(queued.map(\.entryID)).count == 1)
            #expect(try await store.duePushDevices(sentBefore: now, excluding: [], limit: 10).map(\.id) == [phone.id, laptop.id])
            #expect(try await store.duePushDevices(sentBefore: now, excluding: [phone.id], limit: 10).map(\.id) == [laptop.id])

            // The phone's window: claimed once (a second claim from the same reading fails), its
            // queue taken once; the laptop's queue is its own.
            #expect(try await store.movePushWindow(phone.id, from: nil, to: now))
            #expect(try await !store.movePushWindow(phone.id, from: nil, to: now.addingTimeInterval(1)))
            let taken = try await store.takePendingPushes(device: phone.id, limit: 10)
            #expect(taken.count == 1)
            #expect(try await store.takePendingPushes(device: phone.id, limit: 10).isEmpty)
            #expect(try await store.pendingPushes(limit: 10).map(\.device) == [laptop.id])
            // Sent at `now`: not due until its window has passed.
            try await store.queuePushes(device: phone.id, ids: taken, now: now)
            #expect(try await store.duePushDevices(sentBefore: now.addingTimeInterval(-300), excluding: [], limit: 10).map(\.id) == [laptop.id])
            #expect(try await store.duePushDevices(sentBefore: now, excluding: [], limit: 10).map(\.id) == [phone.id, laptop.id])
            // Given back from the time read (through `Date`, as the sender holds it).
            let held = try #require(try await store.pushDevices(user: .owner).first { $0.id == phone.id }?.lastSentAt)
            #expect(try await store.movePushWindow(phone.id, from: held, to: nil))
            #expect(try await store.pushDevices(user: .owner).first { $0.id == phone.id }?.lastSentAt == nil)

            // A browser another account subscribes again: the first account's queue is not sent there.
            _ = try await store.savePushDevice(
                user: UserID(2), endpoint: "https://push.example/phone", p256dh: "K9", auth: "A9", name: "Phone", now: now)
            #expect(try await store.pendingPushes(limit: 10).map(\.device) == [laptop.id])
            try await store.queuePushes(device: phone.id, ids: taken, now: now)
            // A device removed takes its queue with it.
            #expect(try await store.removePushDevice(laptop.id, user: .owner))
            #expect(try await store.pendingPushes(limit: 10).map(\.device) == [phone.id])
            #expect(try await store.removePushDevice(phone.id, user: UserID(2)))
            #expect(try await store.pendingPushes(limit: 10).isEmpty)
            #expect(try await !store.movePushWindow(laptop.id, from: nil, to: now))
        }
    }
}
