import Foundation
import Hummingbird
import KioskPush
import KioskReader
import KioskStore

/// `/reader/notifications`: the devices a user is notified on, "Notify me on this device" (the
/// script subscribes the browser and posts its subscription here), and each device's Test and
/// Remove.
struct NotificationRoutes: Sendable {
    let push: PushNotifier
    let store: any KioskStore
    let reader: Reader
    /// Demo mode's own push service; nil outside demo mode.
    var demo: DemoPush?

    /// Devices one account may keep.
    static let mostDevices = 20

    private struct Webhook: Decodable {
        var url: String
    }

    private struct Subscribed: Decodable {
        var endpoint: String
        var p256dh: String
        var auth: String
        var name: String?
    }

    static let confirmation = PushMessage(
        title: "Notifications are on", body: "Kiosk will tell you here when one of your rules asks it to.",
        url: ReaderLinks.notifications, tag: "kiosk-test")

    func register(on router: Router<KioskRequestContext>) {
        router.get("reader/notifications") { _, context in
            try await page(context, message: nil)
        }
        router.post("reader/notifications/devices") { request, context in
            let form = try await FormBody.decode(Subscribed.self, from: request)
            do throws(PushError) {
                _ = try PushSubscription(endpoint: form.endpoint, p256dh: form.p256dh, auth: form.auth)
            } catch {
                throw HTTPError(.badRequest, message: error.description)
            }
            if let full = try await noRoom(for: form.endpoint, context) { throw HTTPError(.conflict, message: full) }
            let name = String((form.name ?? "").trimmingCharacters(in: .whitespacesAndNewlines).prefix(60))
            let device = try await store.savePushDevice(
                user: context.user, endpoint: form.endpoint, p256dh: form.p256dh, auth: form.auth,
                name: name.isEmpty ? "A device" : name, now: Date())
            guard device.kind == .push else { throw HTTPError(.conflict, message: "That address is a webhook's, not a device's.") }
            // A first notification at once: an address Kiosk refuses is said now, not kept.
            if case .refused(let why) = await push.send(Self.confirmation, to: device, test: true) {
                try await store.removePushDevice(device.id, user: context.user)
                throw HTTPError(.conflict, message: why)
            }
            return FormBody.wantsJSON(request)
                ? try JSONResponse(["ok": true]).response : FormBody.redirect(ReaderLinks.notifications)
        }
        // The session's anti-forgery token, for the service worker's "Mark read" (it has no page
        // to read it from). Same-origin JSON: another site's page cannot read it.
        router.get("reader/notifications/token") { _, context in
            var response = try JSONResponse(["csrf": context.csrf ?? ""]).response
            response.headers[.cacheControl] = "no-store"
            return response
        }
        router.post("reader/notifications/webhooks") { request, context in
            let form = try await FormBody.decode(Webhook.self, from: request)
            let typed = form.url.trimmingCharacters(in: .whitespacesAndNewlines)
            guard PushSubscription.endpointURL(typed) != nil else {
                return try await page(
                    context, message: nil, webhookError: "Type a web address starting with https:// or http://.", typed: typed)
            }
            if let full = try await noRoom(for: typed, context) {
                return try await page(context, message: nil, webhookError: full, typed: typed)
            }
            let device = try await store.savePushDevice(
                user: context.user, kind: .webhook, endpoint: typed, p256dh: "", auth: WebhookSignature.newSecret(),
                name: "Webhook to \(URL(string: typed)?.host ?? typed)", now: Date())
            guard device.user == context.user, device.kind == .webhook else {
                return try await page(
                    context, message: nil, webhookError: "That address is already used by another account's device or webhook.",
                    typed: typed)
            }
            // A first POST at once, as for a device: an address Kiosk refuses is said now, not kept.
            switch await push.send(Self.confirmation, to: device, test: true) {
            case .refused(let why):
                try await store.removePushDevice(device.id, user: context.user)
                return try await page(context, message: nil, webhookError: why, typed: typed)
            case .failed(let why, _):
                return try await page(context, message: "The webhook was added, but its first test did not go through: \(why)")
            case .delivered, .removed:
                return try await page(context, message: "The webhook was added and sent a test.")
            }
        }
        router.post("reader/notifications/demo-device") { _, context in
            guard let demo else { throw HTTPError(.notFound) }
            if let full = try await noRoom(for: nil, context) { return try await page(context, message: full) }
            let subscription: DemoPush.Subscription
            do {
                subscription = try await demo.subscribe()
            } catch {
                return try await page(context, message: "The demo push service did not answer: \(error).")
            }
            let device = try await store.savePushDevice(
                user: context.user, endpoint: subscription.endpoint, p256dh: subscription.keys.p256dh,
                auth: subscription.keys.auth, name: "Demo device", now: Date())
            let message =
                switch await push.send(Self.confirmation, to: device, test: true) {
                case .delivered: "The demo device was added: what it receives is listed under it."
                case .removed: "The demo push service forgot the device at once."
                case .failed(let why, _), .refused(let why): why
                }
            return try await page(context, message: message)
        }
        router.post("reader/notifications/devices/:id/test") { _, context in
            let device = try await device(context)
            let message =
                switch await push.send(
                    PushMessage(
                        title: "A test from Kiosk", body: "This is how your rules' notifications look.",
                        url: ReaderLinks.notifications, tag: "kiosk-test"), to: device, test: true)
                {
                case .delivered: "Sent to \(device.name): it should show in a moment."
                case .removed: "\(device.name) no longer takes notifications, so it was removed."
                case .failed(let why, _), .refused(let why): why
                }
            return try await page(context, message: message)
        }
        router.post("reader/notifications/devices/:id/delete") { _, context in
            let device = try await device(context)
            try await store.removePushDevice(device.id, user: context.user)
            return FormBody.redirect(ReaderLinks.notifications)
        }
    }

    /// Why the account cannot add a device or webhook at `endpoint` (nil: a new one), or nil when
    /// it can: it keeps `mostDevices` already, and `endpoint` is none of them.
    private func noRoom(for endpoint: String?, _ context: KioskRequestContext) async throws -> String? {
        let devices = try await store.pushDevices(user: context.user)
        guard devices.count >= Self.mostDevices, !devices.contains(where: { $0.endpoint == endpoint }) else { return nil }
        return "You have \(Self.mostDevices) devices and webhooks already: remove one to add another."
    }

    private func device(_ context: KioskRequestContext) async throws -> PushDevice {
        guard let id = context.parameters.get("id", as: Int64.self),
            let device = try await store.pushDevices(user: context.user).first(where: { $0.id == id })
        else { throw HTTPError(.notFound) }
        return device
    }

    private func page(
        _ context: KioskRequestContext, message: String?, webhookError: String? = nil, typed: String = ""
    ) async throws -> Response {
        let devices = try await store.pushDevices(user: context.user)
        var inboxes: [Int64: [DemoPush.Received]] = [:]
        if let demo {
            for device in devices where demo.owns(device) { inboxes[device.id] = await demo.inbox(of: device) ?? [] }
        }
        var response = NotificationsPage(
            devices: devices, publicKey: try await push.key().publicKey,
            message: message, folders: try await reader.folders(user: context.user), webhookError: webhookError,
            webhookURL: typed, isDemo: demo != nil, inboxes: inboxes
        ).page.response(for: context)
        if webhookError != nil { response.status = .unprocessableContent }
        return response
    }
}
