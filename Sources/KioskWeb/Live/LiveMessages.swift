import Foundation

// The JSON payloads of the live events the script understands (see Assets/app.js); `LiveEvent`
// names each.

/// `changed`: a source's entries changed; `diff` turns the list a page shows into the new one
/// (nil when no page shows that source as a list).
struct ChangedMessage: Encodable, Sendable {
    var source: String
    var diff: ListDiff?
    var count: Int
    /// New entries since the previous list (for the screen-reader announcement).
    var added: Int
    var name: String
    /// When the server learned of the change, in ms since 1970 (the page records when it applied it).
    var detectedAt: Int64
}

/// `activity`: a source's check started or ended.
struct ActivityMessage: Encodable, Sendable {
    var source: String
    var checking: Bool
}

/// `failed`: a source could not be read; its last good entries stay.
struct FailedMessage: Encodable, Sendable {
    var source: String
    var name: String
    var message: String
}

/// `opened`: the last headline opened, for Home in every tab.
struct OpenedMessage: Codable, Sendable, Equatable {
    var title: String
    var path: String
}

/// `reader`: the user changed their reader: `read` or `starred` (`ids` now have `value`), or
/// `subscriptions` (feeds added, removed, renamed or moved).
struct ReaderMessage: Codable, Sendable, Equatable {
    enum Kind: String, Codable, Sendable {
        case read, starred, labelled, hidden, subscriptions, position
    }

    var kind: Kind
    /// At most the first 2,000 (a mark-all-read of more makes pages refresh their counts).
    var ids: [Int64]
    var value: Bool
    /// The label put on or taken off (`labelled`).
    var label: String?
    /// Where a player is (`position`; `ids` is its entry, `value` whether it plays).
    var position: PositionMessage?

    init(kind: Kind, ids: [Int64], value: Bool, label: String? = nil, position: PositionMessage? = nil) {
        self.kind = kind
        self.ids = Array(ids.prefix(2_000))
        self.value = value
        self.label = label
        self.position = position
    }
}

/// A player's place in an episode, for the account's other pages ("Paused at 23:10 on iPhone").
struct PositionMessage: Codable, Sendable, Equatable {
    var seconds: Double
    var duration: Double?
    var finished: Bool
    /// The device's name for people.
    var device: String
    /// The page that saved it (its own id), so it can tell its own saves from others'.
    var client: String
}

/// `resync`: everything, for a client that missed events.
struct ResyncMessage: Encodable, Sendable {
    var lists: [String: String]
    var checking: [String]
    var failures: [String: String]
    var opened: OpenedMessage?
}

enum LiveJSON {
    static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
