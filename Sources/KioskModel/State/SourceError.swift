import KioskCore

/// Why a source could not be read this time: its fetch failed, or what came back was no feed.
/// Codable (synthesized) so a store keeps it exactly, case and payload, next to its message; the
/// case names and labels are that stored JSON, so renaming one turns old rows into plain messages.
public enum SourceError: Error, Sendable, Hashable, Codable {
    case fetch(FetchError)
    case parse(FeedError)
    /// The answer was not in the source's format (its parser's own message).
    case unreadable(String)
    /// A newer request of the same client replaced this one (Discover search).
    case superseded
    /// The source has no URL in the configuration.
    case notConfigured(String)
}

extension SourceError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .fetch(let error): error.description
        case .parse(let error): "unreadable answer: \(error.description)"
        case .unreadable(let why): "unreadable answer: \(why)"
        case .superseded: "replaced by a newer request"
        case .notConfigured(let what): "\(what) is not configured"
        }
    }
}
