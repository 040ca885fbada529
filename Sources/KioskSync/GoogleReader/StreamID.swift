import KioskModel

/// A stream of the Google Reader API: every entry, the starred ones, one feed, one folder, or a
/// state used as a filter (`xt`, `it`).
enum StreamID: Hashable {
    case readingList
    case starred
    case read
    case keptUnread
    case feed(SourceID)
    case label(String)
    /// Any other state (broadcast, fresh, tracking-...): known, and ignored.
    case otherState(String)

    static let statePrefix = "user/-/state/com.google/"
    static let labelPrefix = "user/-/label/"

    /// Parses `user/-/...` (also `user/<digits>/...`, which some clients send) and `feed/<id>`.
    init?(_ text: String) {
        var text = text.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("user/"), !text.hasPrefix("user/-/") {
            let rest = text.dropFirst("user/".count)
            if let slash = rest.firstIndex(of: "/") { text = "user/-/" + rest[rest.index(after: slash)...] }
        }
        if text.hasPrefix(Self.statePrefix) {
            switch String(text.dropFirst(Self.statePrefix.count)) {
            case "reading-list": self = .readingList
            case "starred": self = .starred
            case "read": self = .read
            case "kept-unread": self = .keptUnread
            case let other: self = .otherState(other)
            }
        } else if text.hasPrefix(Self.labelPrefix) {
            let name = String(text.dropFirst(Self.labelPrefix.count))
            guard !name.isEmpty else { return nil }
            self = .label(name)
        } else if text.hasPrefix("feed/") {
            let id = String(text.dropFirst("feed/".count))
            guard !id.isEmpty else { return nil }
            self = .feed(SourceID(id))
        } else {
            return nil
        }
    }

    var text: String {
        switch self {
        case .readingList: Self.statePrefix + "reading-list"
        case .starred: Self.statePrefix + "starred"
        case .read: Self.statePrefix + "read"
        case .keptUnread: Self.statePrefix + "kept-unread"
        case .feed(let id): "feed/" + id.rawValue
        case .label(let name): Self.labelPrefix + name
        case .otherState(let name): Self.statePrefix + name
        }
    }
}
