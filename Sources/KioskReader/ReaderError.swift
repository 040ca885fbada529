import KioskCore
import KioskModel
import KioskSources

/// Why the reader could not do what the user asked, in words for them.
public enum ReaderError: Error, Sendable, Hashable {
    case unknownFeed(SourceID)
    case alreadySubscribed(SourceID)
    case builtInFeed(String)
    /// Others follow this feed: how often it is checked is theirs too.
    case sharedFeed(String)
    case refused(String)
    case invalidName(String)
    case opml(OPMLError)
    case storage(String)
    case undoExpired
    /// An account's limit (feeds followed, imports an hour), said as a sentence.
    case limit(String)

    public var message: String {
        switch self {
        case .unknownFeed: "That feed is not one of your subscriptions."
        case .alreadySubscribed: "You already subscribe to that feed."
        case .builtInFeed(let name): "\(name) is one of Kiosk's own News sources: it can be renamed and moved, not removed."
        case .sharedFeed(let name): "Others follow \(name) too, so how often it is checked is not yours alone to change."
        case .refused(let why): why
        case .invalidName(let why): why
        case .opml(let error): error.message
        // The store's own words (SQL, a path) are for the log, not the page.
        case .storage: "Kiosk could not save that just now: try again in a moment."
        case .undoExpired: "That can no longer be undone."
        case .limit(let why): why
        }
    }
}
