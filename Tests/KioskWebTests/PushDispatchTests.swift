import Crypto
import Synchronization
import Foundation
import KioskCore
import KioskModel
import KioskPush
import KioskSources
import KioskStore
@testable import KioskWeb
import Testing

/// A rule's notify on arrival: the entry is queued in the insert's transaction and sent once
/// (its title, its feed, a tap opens it); a burst within the digest's window waits and goes as
/// one summary; a device its service no longer knows is forgotten.
@Suite struct PushDispatchTests {
    /// A push service that records what it is sent and answers `status`.
    actor PushService: Fetching {
        var requests: [FetchRequest] = []
        var status = 201
        /// Answers given once each, before `status`.
        var next: [(Int, Duration?)] = []

        func answer(_ code: Int) { status = code }
        func answerOnce(_ code: Int, retryAfter: Duration? = nil) { next.append((code, retryAfter)) }

        func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResult {
            requests.append(request)
            let (code, retryAfter) = next.isEmpty ? (status, nil) : next.removeFirst()
            guard (200..<300).contains(code) else { throw .status(code: code, message: nil, retryAfter: retryAfter) }
            return .fetched(FetchedBody(bytes: [], finalURL: request.url))
        }
    }

    /// Records the waits between tries, and waits for none.
    final class Waits: Sendable {
        private let list = Mutex<[Duration]>([])
        var all: [Duration] { list.withLock { $0 } }
        func note(_ wait: Duration) { list.withLock { $0.append(wait) } }
    }

    final class Clock: Sendable {
        private let start = Date()
        private let offset = Mutex(0.0)
        var now: Date { start.addingTimeInterval(offset.withLock { $0 }) }
        func advance(_ seconds: TimeInterval) { offset.withLock { $0 += seconds } }
    }

    @Test func aRulesNotificationIsSentOnceAndABurstIsSummedUp() async throws {
        try await withKioskApp(newsAPIKey: "") { kiosk in
            let service = PushService()
            let clock = Clock()
            let notifier = PushNotifier(store: kiosk.store, fetcher: service, now: { clock.now }, sleep: { _ in })
            let dispatcher = PushDispatcher(
                notifier: notifier, store: kiosk.store, reader: kiosk.dependencies.reader, every: .seconds(300),
                now: { clock.now })
            let receiver = P256.KeyAgreement.PrivateKey()
            _ = try await kiosk.store.savePushDevice(
                user: .owner, endpoint: "https://push.example/device",
                p256dh: Base64URL.encode(receiver.publicKey.x963Representation), auth: Base64URL.encode([UInt8](repeating: 9, count: 16)),
                name: "Phone", now: clock.now)
            try await kiosk.store.addRule(
                RuleDraft(name: "Storms", query: "intitle:storm", actions: [.notify]), user: .owner, now: clock.now)
            // Warm start: the reader knows the News feeds.
            _ = try await kiosk.dependencies.reader.subscriptions(user: .owner)

            try await kiosk.store.saveSourceState(
                SourceState(entries: [Entry(id: "p-1", title: "Storm hits the coast"), Entry(id: "p-2", title: "Calm")]),
                for: .business)
            #expect(try await kiosk.store.pendingPushes(limit: 10).count == 1)
            #expect(await dispatcher.dispatch() == 1)
            #expect(await dispatcher.dispatch() == 0)  // sent once
            let first = try #require(await service.requests.first)
            #expect(first.url.absoluteString == "https://push.example/device")
            #expect(first.headers["Content-Encoding"] == "aes128gcm" && first.headers["TTL"] != nil)
            #expect(first.headers["Authorization"]?.hasPrefix("vapid t=") == true)

            // Two more within five minutes: held, then one summary.
            try await kiosk.store.saveSourceState(
                SourceState(entries: [
                    Entry(id: "p-3", title: "Second storm"), Entry(id: "p-4", title: "Storm, third"),
                    Entry(id: "p-1", title: "Storm hits the coast"),
                ]), for: .business)
            clock.advance(60)
            #expect(await dispatcher.dispatch() == 0)
            #expect(try await kiosk.store.pendingPushes(limit: 10).count == 2)
            clock.advance(241)
            #expect(await dispatcher.dispatch() == 1)
            #expect(await service.requests.count == 2)

            // A busy service: nothing lost, nothing counted; sent once it answers again.
            try await kiosk.store.saveSourceState(
                SourceState(entries: [Entry(id: "p-6", title: "Storm, busy")]), for: .business)
            clock.advance(301)
            await service.answer(503)
            #expect(await dispatcher.dispatch() == 0)
            #expect(try await kiosk.store.pendingPushes(limit: 10).count == 1)
            await service.answer(201)
            // Not at the next pass, 5 s later: the account waits out its backoff (30 s at first).
            clock.advance(5)
            #expect(await dispatcher.dispatch() == 0)
            clock.advance(26)
            #expect(await dispatcher.dispatch() == 1)
            // A refusal (400) is final: nothing queued again, nothing sent in a loop.
            try await kiosk.store.saveSourceState(
                SourceState(entries: [Entry(id: "p-7", title: "Storm, refused")]), for: .business)
            clock.advance(301)
            await service.answer(400)
            let before = await service.requests.count
            #expect(await dispatcher.dispatch() == 0)
            #expect(try await kiosk.store.pendingPushes(limit: 10).isEmpty)
            #expect(await service.requests.count == before + 1)
            await service.answer(201)

            // Its service no longer knows the device: forgotten.
            try await kiosk.store.saveSourceState(
                SourceState(entries: [Entry(id: "p-5", title: "Storm again")]), for: .business)
            clock.advance(301)
            await service.answer(410)
            #expect(await dispatcher.dispatch() == 0)
            #expect(try await kiosk.store.pushDevices(user: .owner).isEmpty)
        }
    }

    /// The digest's window is each device's own: a device notified a minute ago waits, one added
    /// since gets the next entry at once. Two senders at once (two replicas) notify a device once.
    @Test func eachDeviceHasItsOwnWindowAndTwoSendersNotifyItOnce() async throws {
        try await withKioskApp(newsAPIKey: "") { kiosk in
            let service = PushService()
            let clock = Clock()
            let (store, reader) = (kiosk.store, kiosk.dependencies.reader)
            @Sendable func dispatcher() -> PushDispatcher {
                PushDispatcher(
                    notifier: PushNotifier(store: store, fetcher: service, now: { clock.now }, sleep: { _ in }),
                    store: store, reader: reader, every: .seconds(300), now: { clock.now })
            }
            func hook(_ name: String) async throws -> PushDevice {
                try await kiosk.store.savePushDevice(
                    user: .owner, kind: .webhook, endpoint: "https://hooks.example/\(name)", p256dh: "", auth: "s", name: name,
                    now: clock.now)
            }
            let phone = try await hook("phone")
            try await kiosk.store.addRule(
                RuleDraft(name: "Storms", query: "intitle:storm", actions: [.notify]), user: .owner, now: clock.now)
            _ = try await kiosk.dependencies.reader.subscriptions(user: .owner)
            try await kiosk.store.saveSourceState(SourceState(entries: [Entry(id: "s-1", title: "Storm one")]), for: .business)
            async let first = dispatcher().dispatch()
            async let second = dispatcher().dispatch()
            #expect(await first + second == 1)
            #expect(await service.requests.map(\.url.lastPathComponent) == ["phone"])

            clock.advance(60)
            let laptop = try await hook("laptop")
            try await kiosk.store.saveSourceState(
                SourceState(entries: [Entry(id: "s-1", title: "Storm one"), Entry(id: "s-2", title: "Storm two")]), for: .business)
            #expect(await dispatcher().dispatch() == 1)
            #expect(await service.requests.map(\.url.lastPathComponent) == ["phone", "laptop"])
            #expect(try await kiosk.store.pendingPushes(limit: 10).map(\.device) == [phone.id])
            clock.advance(241)
            #expect(await dispatcher().dispatch() == 1)
            let last = try #require(await service.requests.last)
            #expect(last.url.lastPathComponent == "phone")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(last.body ?? [])) as? [String: Any])
            #expect(json["title"] as? String == "Storm two")
            #expect(try await kiosk.store.pendingPushes(limit: 10).isEmpty)
            // The laptop's window runs from its own notification, a minute after the phone's.
            #expect(try await kiosk.store.pushDevices(user: .owner).first { $0.id == laptop.id }?.lastSentAt != nil)
        }
    }

    /// A push service that finds the message too large (413) gets it once more, cut.
    @Test func aPayloadTooLargeIsSentOnceMoreCut() async throws {
        try await withKioskApp(newsAPIKey: "") { kiosk in
            let service = PushService()
            let notifier = PushNotifier(store: kiosk.store, fetcher: service, sleep: { _ in })
            let receiver = P256.KeyAgreement.PrivateKey()
            let device = try await kiosk.store.savePushDevice(
                user: .owner, endpoint: "https://push.example/device",
                p256dh: Base64URL.encode(receiver.publicKey.x963Representation), auth: Base64URL.encode([UInt8](repeating: 9, count: 16)),
                name: "Phone", now: Date())
            let message = PushMessage(
                title: "Rates rise", body: String(repeating: "word ", count: 1_000), url: "/reader", tag: "t")
            await service.answerOnce(413)
            #expect(await notifier.send(message, to: device) == .delivered)
            let sizes = await service.requests.map { $0.body?.count ?? 0 }
            #expect(sizes.count == 2)
            #expect(sizes[1] <= PushEncryption.largestPlaintext / 4 + 200 && sizes[1] < sizes[0] / 2)
            // Too large again: said, not tried a third time.
            await service.answerOnce(413)
            await service.answerOnce(413)
            #expect(await notifier.send(message, to: device) != .delivered)
            #expect(await service.requests.count == 4)
        }
    }

    @Test func aWebhookGetsTheEntriesSignedWithItsSecret() async throws {
        try await withKioskApp(newsAPIKey: "") { kiosk in
            let service = PushService()
            let notifier = PushNotifier(store: kiosk.store, fetcher: service, sleep: { _ in })
            let dispatcher = PushDispatcher(notifier: notifier, store: kiosk.store, reader: kiosk.dependencies.reader)
            let hook = try await kiosk.store.savePushDevice(
                user: .owner, kind: .webhook, endpoint: "https://hooks.example/kiosk", p256dh: "",
                auth: WebhookSignature.newSecret(), name: "Webhook", now: Date())
            try await kiosk.store.addRule(
                RuleDraft(name: "Storms", query: "intitle:storm", actions: [.notify]), user: .owner, now: Date())
            _ = try await kiosk.dependencies.reader.subscriptions(user: .owner)
            try await kiosk.store.saveSourceState(
                SourceState(entries: [
                    Entry(id: "w-1", title: "Storm hits the coast", link: "https://news.example/storm"),
                    Entry(id: "w-2", title: "Calm"),
                ]), for: .business)
            #expect(await dispatcher.dispatch() == 1)
            let request = try #require(await service.requests.first)
            let body = try #require(request.body)
            #expect(request.headers["Content-Type"] == "application/json")
            let expected = HMAC<SHA256>.authenticationCode(for: body, using: SymmetricKey(data: Array(hook.auth.utf8)))
            #expect(request.headers["X-Kiosk-Signature"] == "sha256=" + expected.map { String(format: "%02x", $0) }.joined())
            let json = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
            #expect(json["title"] as? String == "Storm hits the coast")
            let entries = try #require(json["entries"] as? [[String: Any]])
            #expect(entries.count == 1)
            #expect(entries.first?["link"] as? String == "https://news.example/storm")
            #expect((entries.first?["reader_url"] as? String)?.hasPrefix("/reader/entry/business/") == true)
            // A webhook that answers 410 is not forgotten (only a push service's 410 means that).
            await service.answer(410)
            #expect(await notifier.send(PushDispatcher.message(for: [], names: [:]), to: hook, test: true) != .delivered)
            #expect(try await kiosk.store.pushDevices(user: .owner).count == 1)
        }
    }

    @Test func aBusyServiceIsTriedAgainAfterItsRetryAfterWithinBounds() async throws {
        try await withKioskApp(newsAPIKey: "") { kiosk in
            let service = PushService()
            let waits = Waits()
            let notifier = PushNotifier(store: kiosk.store, fetcher: service, sleep: { waits.note($0) })
            let hook = try await kiosk.store.savePushDevice(
                user: .owner, kind: .webhook, endpoint: "https://hooks.example/kiosk", p256dh: "", auth: "secret",
                name: "Webhook", now: Date())
            let message = PushMessage(title: "t", body: "b", url: "/reader", tag: "t")
            // 429 with Retry-After 7 s, then 503: tried three times, the waits the larger of the
            // backoff and the service's word.
            await service.answerOnce(429, retryAfter: .seconds(7))
            await service.answerOnce(503)
            #expect(await notifier.send(message, to: hook) == .delivered)
            #expect(waits.all == [.seconds(7), .seconds(4)])
            #expect(await service.requests.count == 3)
            // A wait beyond the bound is left to the next pass; a refusal (400) is not tried again.
            await service.answerOnce(429, retryAfter: .seconds(3_600))
            if case .failed = await notifier.send(message, to: hook) {} else { Issue.record("a long Retry-After was waited") }
            await service.answerOnce(400)
            if case .failed(_, nil) = await notifier.send(message, to: hook) {} else { Issue.record("a 400 was tried again") }
            #expect(await service.requests.count == 5)
            #expect(waits.all.count == 2)
        }
    }

    /// A push service that never answers holds up only its own device: the others get theirs.
    @Test func aServiceThatNeverAnswersDelaysNoOtherDevice() async throws {
        actor Services: Fetching {
            var answered: [String] = []
            func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResult {
                if request.url.host == "dead.example" {
                    try? await Task.sleep(for: .seconds(3_600))
                    throw .timeout
                }
                answered.append(request.url.absoluteString)
                return .fetched(FetchedBody(bytes: [], finalURL: request.url))
            }
        }
        try await withKioskApp(newsAPIKey: "") { kiosk in
            let services = Services()
            let notifier = PushNotifier(store: kiosk.store, fetcher: services, sleep: { _ in })
            let dispatcher = PushDispatcher(notifier: notifier, store: kiosk.store, reader: kiosk.dependencies.reader)
            for host in ["dead.example", "alive.example"] {
                _ = try await kiosk.store.savePushDevice(
                    user: .owner, kind: .webhook, endpoint: "https://\(host)/hook", p256dh: "", auth: "s", name: host, now: Date())
            }
            try await kiosk.store.addRule(RuleDraft(name: "All", query: "storm", actions: [.notify]), user: .owner, now: Date())
            _ = try await kiosk.dependencies.reader.subscriptions(user: .owner)
            try await kiosk.store.saveSourceState(SourceState(entries: [Entry(id: "d-1", title: "Storm")]), for: .business)
            let pass = Task { await dispatcher.dispatch() }
            let deadline = ContinuousClock.now + .seconds(30)
            while await services.answered.isEmpty, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
            #expect(await services.answered == ["https://alive.example/hook"])
            pass.cancel()
            _ = await pass.value
        }
    }

    /// While a push service holds a send, polling stores new entries and pages answer: the
    /// sender holds no store lock (nor anything else) while it waits.
    @Test func aServiceThatHoldsASendDelaysNoPollingAndNoPage() async throws {
        actor Holding: Fetching {
            var holding = 0
            var released = false
            func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResult {
                holding += 1
                while !released, !Task.isCancelled { try? await Task.sleep(for: .milliseconds(10)) }
                holding -= 1
                return .fetched(FetchedBody(bytes: [], finalURL: request.url))
            }
            func release() { released = true }
        }
        try await withKioskApp(newsAPIKey: "") { kiosk in
            let service = Holding()
            let notifier = PushNotifier(store: kiosk.store, fetcher: service, sleep: { _ in })
            let dispatcher = PushDispatcher(notifier: notifier, store: kiosk.store, reader: kiosk.dependencies.reader)
            _ = try await kiosk.store.savePushDevice(
                user: .owner, kind: .webhook, endpoint: "https://slow.example/hook", p256dh: "", auth: "s", name: "Slow",
                now: Date())
            try await kiosk.store.addRule(RuleDraft(name: "All", query: "storm", actions: [.notify]), user: .owner, now: Date())
            _ = try await kiosk.dependencies.reader.subscriptions(user: .owner)
            try await kiosk.store.saveSourceState(SourceState(entries: [Entry(id: "h-1", title: "Storm")]), for: .business)
            let pass = Task { await dispatcher.dispatch() }
            let deadline = ContinuousClock.now + .seconds(30)
            while await service.holding == 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
            #expect(await service.holding == 1)
            // Held: a poll's save goes through, and the reader's pages show what it stored.
            try await kiosk.store.saveSourceState(
                SourceState(entries: [Entry(id: "h-2", title: "Calm harbour"), Entry(id: "h-1", title: "Storm")]), for: .business)
            try await kiosk.run { client, _ in
                let page = try await client.get("/reader/feed/business")
                #expect(page.status == .ok)
                #expect(String(buffer: page.body).contains("Calm harbour"))
            }
            #expect(await service.holding == 1, "the send ended before the page was shown: nothing was shown")
            await service.release()
            #expect(await pass.value == 1)
        }
    }

    @Test func aSummarySaysHowManyByFeed() {
        func stored(_ id: Int64, _ source: SourceID, _ title: String) -> StoredEntry {
            StoredEntry(
                id: id, source: source, key: "k\(id)", entry: Entry(id: "\(id)", title: title), isRead: false, isStarred: false,
                receivedAt: Date(), sortDate: Date())
        }
        let names: [SourceID: String] = ["business": "Business", "ada": "Ada's blog"]
        var pictured = stored(1, "business", "Rates rise")
        pictured.entry.image = "https://img.example/rates.jpg"
        let one = PushDispatcher.message(for: [pictured], names: names, image: { $0.map { "/img?u=" + $0 } })
        #expect(one.title == "Rates rise" && one.body == "Business" && one.url == "/reader/entry/business/k1")
        // Its "Mark read" names the entry; its image comes through this Kiosk's proxy.
        #expect(one.entry == 1 && one.image == "/img?u=https://img.example/rates.jpg")
        // Too large for a record: the image goes first, then the body is cut; always whole JSON.
        var long = one
        long.body = String(repeating: "é", count: 5_000)
        let cut = long.payload()
        #expect(cut.count <= PushEncryption.largestPlaintext)
        let decoded = try? JSONDecoder().decode(PushMessage.self, from: Data(cut))
        #expect(decoded?.image == nil && decoded?.entry == 1 && decoded?.title == "Rates rise")
        let many = PushDispatcher.message(
            for: [
                stored(1, "business", "a"), stored(2, "ada", "b"), stored(3, "business", "c"), stored(4, "ada", "d"),
                stored(5, "business", "e"), stored(6, "business", "f"), stored(7, "ada", "g"),
            ], names: names)
        #expect(many.title == "7 new entries" && many.body == "Business (4), Ada's blog (3)")
        #expect(many.entry == nil)
    }
}
