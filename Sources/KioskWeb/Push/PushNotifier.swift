import Foundation
import KioskModel
import KioskPush
import KioskSources
import KioskStore
import Logging

/// What a notification says: the entry's title, where it came from, and what tapping it opens.
struct PushMessage: Codable, Sendable, Hashable {
    var title: String
    var body: String
    /// A path of this Kiosk the notification opens.
    var url: String
    /// Notifications with the same tag replace each other on the device.
    var tag: String

    /// As JSON for the service worker; its body, then its title, then its link cut until it
    /// fits one encrypted record (always whole JSON).
    func payload(limit: Int = PushEncryption.largestPlaintext) -> [UInt8] {
        var message = self
        while true {
            let bytes = Array((try? JSONEncoder().encode(message)) ?? Data())
            if bytes.count <= limit { return bytes }
            if !message.body.isEmpty {
                message.body = String(message.body.prefix(message.body.count / 2))
            } else if message.title.count > 20 {
                message.title = String(message.title.prefix(message.title.count / 2))
            } else if message.url != ReaderLinks.home || message.tag.count > 20 {
                message.url = ReaderLinks.home
                message.tag = String(message.tag.prefix(20))
            } else {
                return Array(#"{"title":"Kiosk","body":"","url":"/reader","tag":"kiosk"}"#.utf8)
            }
        }
    }
}

/// How a send to one device went.
enum PushOutcome: Sendable, Hashable {
    case delivered
    /// Its push service no longer knows the device (404, 410): it was forgotten.
    case removed
    /// Not delivered, why in words; `retryAfter` when the service said when to try again.
    case failed(String, retryAfter: Duration?)
    /// Never to be sent there: the endpoint is refused (a private or special address) or the
    /// device's keys cannot be encrypted for.
    case refused(String)
}

/// Sends Web Push messages to a user's devices: each payload encrypted for the device (RFC
/// 8291), signed with the server's VAPID key (RFC 8292, made at first use and kept in the
/// store for every replica), POSTed through the sources' guarded fetcher, so a push endpoint at
/// a private or special address is refused like any other.
struct PushNotifier: Sendable {
    let store: any KioskStore
    let fetcher: any Fetching
    /// Who the push services may contact about this server (VAPID's `sub`, the `pushContact`
    /// setting): Apple's service refuses a token whose address is at localhost.
    var subject = Self.defaultContact
    static let defaultContact = "mailto:kiosk@example.org"
    var logger = Logger(label: "kiosk.push")
    var now: @Sendable () -> Date = { Date() }

    static let keyName = "vapid_private_key"

    /// The server's key pair, made and kept on first use.
    func key() async throws -> VAPIDKey {
        let pem = try await store.keptValue(Self.keyName) { VAPIDKey().pem }
        guard let key = VAPIDKey(pem: pem) else {
            throw PushError.crypto("the kept VAPID key is not a P-256 private key")
        }
        return key
    }

    /// Sends `message` to `device` once; the outcome is noted with the device (and a device its
    /// push service no longer knows is forgotten). A `test` (Test, the first one on subscribing)
    /// is not a notification the digest counts.
    func send(_ message: PushMessage, to device: PushDevice, test: Bool = false) async -> PushOutcome {
        let outcome = await attempt(message, to: device)
        switch outcome {
        // Only a delivered notification counts against the digest's window.
        case .delivered: try? await store.notePushSent(device.id, at: test ? nil : now(), error: nil)
        case .removed: try? await store.removePushDevice(endpoint: device.endpoint)
        case .failed(let why, _), .refused(let why): try? await store.notePushSent(device.id, at: nil, error: why)
        }
        return outcome
    }

    private func attempt(_ message: PushMessage, to device: PushDevice) async -> PushOutcome {
        let subscription: PushSubscription
        do {
            subscription = try PushSubscription(endpoint: device.endpoint, p256dh: device.p256dh, auth: device.auth)
        } catch {
            return .refused(error.description)
        }
        var payload = message.payload()
        // A service that finds the payload too large (413) gets it once more, cut to a quarter.
        for attempt in 0..<2 {
            do {
                let key = try await key()
                let body = try PushEncryption.encrypt(payload, for: subscription)
                let request = FetchRequest(
                    url: subscription.endpoint,
                    headers: [
                        "Authorization": try await key.authorization(for: subscription.endpoint, subject: subject, now: now()),
                        "Content-Encoding": "aes128gcm", "Content-Type": "application/octet-stream",
                        "TTL": "86400", "Urgency": "normal",
                    ],
                    maxBytes: 64 << 10, timeout: .seconds(10), body: body)
                _ = try await fetcher.fetch(request)
                return .delivered
            } catch let error as FetchError {
                switch error {
                case .status(404, _, _), .status(410, _, _): return .removed
                case .refused(let why), .invalidURL(let why):
                    return .refused("Kiosk does not send notifications there (\(why)).")
                case .status(413, _, _) where attempt == 0:
                    payload = message.payload(limit: PushEncryption.largestPlaintext / 4)
                case .status(let code, _, let retryAfter) where code == 429 || code >= 500:
                    return .failed("The push service is busy (\(error.description)).", retryAfter: retryAfter)
                default:
                    return .failed("The push service refused it: \(error.description).", retryAfter: nil)
                }
            } catch let error as PushError {
                return .failed(error.description, retryAfter: nil)
            } catch {
                logger.warning("a push could not be prepared", metadata: ["error": "\(error)"])
                return .failed("The notification could not be prepared.", retryAfter: nil)
            }
        }
        return .failed("The push service found the notification too large.", retryAfter: nil)
    }
}
