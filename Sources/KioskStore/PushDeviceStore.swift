import Foundation

/// A device a user asked to be notified on: where its push service takes messages for it, the
/// keys they are encrypted for (base64url, as the browser gave them), and how the last send went.
/// A webhook is kept the same way: its URL as the endpoint, its signing secret as `auth`.
public struct PushDevice: Sendable, Hashable {
    /// How notifications reach it.
    public enum Kind: String, Sendable, Hashable {
        /// Web Push to a browser (RFC 8291/8292).
        case push
        /// A signed JSON POST to a URL of the user's (ntfy, Apprise, Home Assistant...).
        case webhook
    }

    public var id: Int64
    public var user: UserID
    public var kind: Kind
    public var endpoint: String
    /// The browser's P-256 key (empty for a webhook).
    public var p256dh: String
    /// The browser's auth secret, or a webhook's HMAC-SHA256 signing secret.
    public var auth: String
    /// What the user sees it as ("Chrome on Android").
    public var name: String
    public var createdAt: Date
    public var lastSentAt: Date?
    /// Why the last send failed; nil when it went through (or none was made).
    public var lastError: String?

    public init(
        id: Int64, user: UserID, kind: Kind = .push, endpoint: String, p256dh: String, auth: String, name: String,
        createdAt: Date, lastSentAt: Date? = nil, lastError: String? = nil
    ) {
        self.id = id
        self.user = user
        self.kind = kind
        self.endpoint = endpoint
        self.p256dh = p256dh
        self.auth = auth
        self.name = name
        self.createdAt = createdAt
        self.lastSentAt = lastSentAt
        self.lastError = lastError
    }
}

/// Each user's devices for Web Push, and the server's own key pair.
public protocol PushDeviceStore: Sendable {
    /// `user`'s devices, oldest first.
    func pushDevices(user: UserID) async throws -> [PushDevice]
    /// Keeps a device for `user`; a browser's endpoint already kept (the same browser
    /// subscribing again, or after another user on it) is replaced. A webhook already kept (its
    /// address typed by anyone) is never replaced, nor replaces one: the row there is returned
    /// as it is, whoever's it is, so the caller can tell.
    func savePushDevice(
        user: UserID, kind: PushDevice.Kind, endpoint: String, p256dh: String, auth: String, name: String, now: Date
    ) async throws -> PushDevice
    /// Forgets one of `user`'s devices; false when there is none.
    @discardableResult
    func removePushDevice(_ id: Int64, user: UserID) async throws -> Bool
    /// Forgets the device at `endpoint`, whoever's it is (its push service says it is gone).
    func removePushDevice(endpoint: String) async throws
    /// How a send to a device went: `error` nil when it was delivered; `at` nil for a send that
    /// does not count as a notification (a test), which leaves the last one's time.
    func notePushSent(_ id: Int64, at: Date?, error: String?) async throws
    /// Devices with notifications queued whose last notification was sent before `sentBefore`
    /// (or never): those whose digest window has passed. At most `limit`, by id, other than
    /// `excluding` (those a pass already took, or waiting out a failure).
    func duePushDevices(sentBefore: Date, excluding: Set<Int64>, limit: Int) async throws -> [PushDevice]
    /// Moves `device`'s last notification time from `from` to `to`, only if it is still `from`;
    /// false when it is not (another replica claimed the window first, or the device is gone).
    /// A sender claims a device's window this way before taking its queue, so two replicas never
    /// both notify one device within a window, and gives it back when nothing was delivered.
    func movePushWindow(_ device: Int64, from: Date?, to: Date?) async throws -> Bool
    /// Takes the oldest `limit` entries queued for `device`, for sending; returns what this call
    /// took (each entry is sent to each device once).
    func takePendingPushes(device: Int64, limit: Int) async throws -> [Int64]
    /// Queues entries for `device` again (its send failed and may succeed later).
    func queuePushes(device: Int64, ids: [Int64], now: Date) async throws
    /// What is queued, oldest first, at most `limit` (for tests and the page).
    func pendingPushes(limit: Int) async throws -> [PendingPush]
    /// The value kept under `key`, or `made()` kept now when there is none; two first calls at
    /// once (two replicas) agree on one (the server's VAPID key).
    func keptValue(_ key: String, orKeep made: @Sendable () -> String) async throws -> String
}

extension PushDeviceStore {
    /// Keeps a browser's Web Push subscription for `user`.
    public func savePushDevice(
        user: UserID, endpoint: String, p256dh: String, auth: String, name: String, now: Date
    ) async throws -> PushDevice {
        try await savePushDevice(user: user, kind: .push, endpoint: endpoint, p256dh: p256dh, auth: auth, name: name, now: now)
    }
}

/// An entry a rule asked to notify a device of, queued in the transaction that stored it (for
/// each of its user's devices then).
public struct PendingPush: Sendable, Hashable {
    public var device: Int64
    public var entryID: Int64
    public var queuedAt: Date

    public init(device: Int64, entryID: Int64, queuedAt: Date) {
        self.device = device
        self.entryID = entryID
        self.queuedAt = queuedAt
    }
}

/// Whose queues the stores put entries in: each of a user's devices (a rule's notify, in the
/// transaction that stored them: each device has its own queue and its own digest window), or
/// one device (a send that may succeed later).
package enum PushQueueFor: Sendable {
    case user(UserID)
    case device(Int64)

    /// The devices' column (of `push_devices d`, named here, never input) and its value.
    package var condition: (column: String, value: Int64) {
        switch self {
        case .user(let user): ("d.user_id", user.rawValue)
        case .device(let id): ("d.id", id)
        }
    }
}
