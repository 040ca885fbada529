import Foundation
import KioskCore

/// A feed the finder read: enough to preview it before subscribing.
public struct FoundFeed: Sendable, Hashable {
    /// The feed's address (after redirects).
    public var url: URL
    /// The feed's own title.
    public var title: String?
    /// The feed's web site.
    public var siteURL: String?
    public var format: FeedFormat
    /// Its newest entries, for the preview.
    public var entries: [Entry]
    /// How many entries it has.
    public var entryCount: Int

    public init(url: URL, title: String?, siteURL: String?, format: FeedFormat, entries: [Entry], entryCount: Int) {
        self.url = url
        self.title = title
        self.siteURL = siteURL
        self.format = format
        self.entries = entries
        self.entryCount = entryCount
    }
}

/// What looking up an address found: one feed, or several for the user to pick from.
public enum FeedSearch: Sendable, Hashable {
    case feed(FoundFeed)
    case choices([FoundFeed])

    public var feeds: [FoundFeed] {
        switch self {
        case .feed(let feed): [feed]
        case .choices(let feeds): feeds
        }
    }
}

/// Why no feed could be added from an address, in words for the person who typed it.
public enum FeedFinderError: Error, Sendable, Hashable {
    case invalidAddress(String)
    case addressRefused(String)
    case nothingFound(String)
    case notAFeed(String)
    case tooLarge(limit: Int)
    case timedOut
    case unreachable(String)
    case status(code: Int)

    public var message: String {
        switch self {
        case .invalidAddress(let text): "“\(text)” is not a web address. Type a feed or site address, like https://example.com/."
        case .addressRefused(let why): "That address is refused: \(why)."
        case .nothingFound(let page): "No feed was found at \(page): the page links to none, and none of the usual feed addresses answered."
        case .notAFeed(let why): "That address is not a feed: \(why)."
        case .tooLarge(let limit): "That feed is too large (over \(limit / 1_048_576) MB)."
        case .timedOut: "The site did not answer in time. Try again later."
        case .unreachable(let why): "The site could not be reached (\(why))."
        case .status(let code): "The site answered with an error (HTTP \(code))."
        }
    }
}
