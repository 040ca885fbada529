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
    /// The entry's store id, for the notification's "Mark read"; nil for a summary or a test.
    var entry: Int64? = nil
    /// The entry's image, through this Kiosk's image proxy (a path).
    var image: String? = nil

    /// As JSON for the service worker; its body, then its title, then its link cut until it
    /// fits one encrypted record (always whole JSON).
    func payload(limit: Int = PushEncryption.largestPlaintext) -> [UInt8] {
        var message = self
        while true {
            let bytes = Array((try? JSONEncoder().encode(message)) ?? Data())
            if bytes.count <= limit { return bytes }
            if message.image != nil {
                message.image = nil
            } else if !message.body.isEmpty {
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
    /// Not delivered, why in words; `retryAfter` when trying again may help (the service's
    /// `Retry-After`, or zero when it said nothing), nil when it would not.
    case failed(String, retryAfter: Duration?)
    /// Never to be sent there: the endpoint is refused (a private or special address) or the
    /// device's keys cannot be encrypted for.
    case refused(String)
}

/// One entry as a webhook receives it.
struct WebhookEntry: Encodable, Sendable, Hashable {
    var id: Int64
    var title: String
    /// The article's own address, when the feed gave one.
    var link: String?
    var feed: String
    var author: String?
    var published: Date?
    /// Its page in this Kiosk (a path).
    var readerURL: String

    enum CodingKeys: String, CodingKey {
        case id, title, link, feed, author, published
        case readerURL = "reader_url"
    }
}

/// What a webhook is POSTed: the notification's words (`title` and `body`, as Apprise and most
/// tools read them) and every entry it covers.
struct WebhookPayload: Encodable, Sendable {
    var title: String
    var body: String
    var url: String
    var test: Bool
    var sentAt: Date
    var entries: [WebhookEntry]

    enum CodingKeys: String, CodingKey {
        case title, body, url, test, entries
        case sentAt = "sent_at"
    }

    var bytes: [UInt8] {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(self)) ?? Data("{}".utf8))
    }
}

/// Sends notifications to a user's devices. A browser gets Web Push: each payload encrypted
/// for the device (RFC 8291), signed with the server's VAPID key (RFC 8292, made at first use
/// and kept in the store for every replica). A webhook gets the JSON of the entries, signed with
/// HMAC-SHA256 in `X-Kiosk-Signature`. Both are POSTed through the sources' guarded fetcher, so
/// an endpoint at a private or special address is refused like any other. A busy service (429,
/// 5xx) is tried again after a backoff (its `Retry-After` when it gives one, up to
/// `longestWait`); a longer wait is left to the dispatcher's next pass.
struct PushNotifier: Sendable {
    let store: any KioskStore
    let fetcher: any Fetching
    /// Who the push services may contact about this server (VAPID's `sub`, the `pushContact`
    /// setting): Apple's service refuses a token whose address is at localhost.
    var subject = Self.defaultContact
    static let defaultContact = "mailto:kiosk@example.org"
    var logger = Logger(label: "kiosk.push")
    var now: @Sendable () -> Date = { Date() }
    /// Waits between tries (the tests' returns at once).
    var sleep: @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    /// Tries of one send to a busy service, and the backoff before each after the first.
    var backoff: [Duration] = [.seconds(1), .seconds(4)]
    /// The longest `Retry-After` waited for within one send.
    var longestWait: Duration = .seconds(30)

    static let keyName = "vapid_private_key"

    /// The server's key pair, made and kept on first use.
    func key() async throws -> VAPIDKey {
        let pem = try await store.keptValue(Self.keyName) { VAPIDKey().pem }
        guard let key = VAPIDKey(pem: pem) else {
            throw PushError.crypto("the kept VAPID key is not a P-256 private key")
        }
        return key
    }

    /// Sends `message` to `device` (a webhook also gets `entries`); the outcome is noted with the
    /// device (and a browser its push service no longer knows is forgotten). A `test` (Test, the
    /// first one on subscribing) is not a notification the digest counts, and is tried once.
    func send(
        _ message: PushMessage, to device: PushDevice, entries: [WebhookEntry] = [], test: Bool = false
    ) async -> PushOutcome {
        var outcome = await attempt(message, entries: entries, test: test, to: device)
        for pause in test ? [] : backoff {
            guard case .failed(_, let retryAfter?) = outcome else { break }
            let wait = max(pause, retryAfter)
            guard wait <= longestWait, (try? await sleep(wait)) != nil else { break }
            outcome = await attempt(message, entries: entries, test: test, to: device)
        }
        switch outcome {
        // Only a delivered notification counts against the digest's window.
        case .delivered: try? await store.notePushSent(device.id, at: test ? nil : now(), error: nil)
        case .removed: try? await store.removePushDevice(endpoint: device.endpoint)
        case .failed(let why, _), .refused(let why): try? await store.notePushSent(device.id, at: nil, error: why)
        }
        return outcome
    }

    private func attempt(_ message: PushMessage, entries: [WebhookEntry], test: Bool, to device: PushDevice) async
        -> PushOutcome
    {
        switch device.kind {
        case .push: await push(message, to: device)
        case .webhook: await post(message, entries: entries, test: test, to: device)
        }
    }

    private func push(_ message: PushMessage, to device: PushDevice) async -> PushOutcome {
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
                case .status(413, _, _) where attempt == 0:
                    payload = message.payload(limit: PushEncryption.largestPlaintext / 4)
                default: return Self.outcome(of: error, service: "The push service")
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

    private func post(_ message: PushMessage, entries: [WebhookEntry], test: Bool, to device: PushDevice) async
        -> PushOutcome
    {
        guard let url = PushSubscription.endpointURL(device.endpoint) else {
            return .refused("Kiosk does not send notifications there (it is not a web address).")
        }
        let body = WebhookPayload(
            title: message.title, body: message.body, url: message.url, test: test, sentAt: now(), entries: entries
        ).bytes
        let request = FetchRequest(
            url: url,
            headers: [
                "Content-Type": "application/json",
                WebhookSignature.header: WebhookSignature.value(for: body, secret: device.auth),
            ],
            maxBytes: 64 << 10, timeout: .seconds(10), body: body)
        do throws(FetchError) {
            _ = try await fetcher.fetch(request)
            return .delivered
        } catch {
            return Self.outcome(of: error, service: "The webhook")
        }
    }

    /// What a failed POST means: refused for good (an address Kiosk does not send to), busy (429,
    /// 5xx: tried again), or refused by the service.
    private static func outcome(of error: FetchError, service: String) -> PushOutcome {
        switch error {
        // Only a 2xx body is read: the service took the message and said more than is read.
        case .tooLarge: .delivered
        case .refused(let why), .invalidURL(let why):
            .refused("Kiosk does not send notifications there (\(why)).")
        case .status(let code, _, let retryAfter) where code == 429 || code >= 500:
            .failed("\(service) is busy (\(error.description)).", retryAfter: retryAfter ?? .zero)
        case .status:
            .failed("\(service) refused it: \(error.description).", retryAfter: nil)
        default:
            .failed("\(service) could not be reached: \(error.description).", retryAfter: .zero)
        }
    }
}
