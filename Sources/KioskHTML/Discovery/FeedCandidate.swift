import Foundation
import KioskCore

/// A feed address found on a web page, for a person to pick from or a fetcher to try in order.
public struct FeedCandidate: Sendable, Hashable, Codable {
    /// Absolute http(s) URL without a fragment.
    public var url: String
    /// The link's `title` attribute (or an `<a>`'s text): plain text, whitespace collapsed,
    /// trimmed, nil if empty. Pages name their feeds ("Comments Feed"), which is how a person
    /// tells several apart.
    public var title: String?
    /// `"rss"`, `"atom"`, `"json"`, or nil when the page does not say. Only a hint: the parser
    /// sniffs the real format from the content.
    public var type: String?
    /// How the address was found, which is also how far to trust it.
    public var source: Source

    /// How a candidate was found, from the most to the least reliable.
    public enum Source: String, Sendable, Hashable, Codable {
        /// A `<link rel="alternate">` the page declares for feed readers.
        case linkElement
        /// An `<a href>` that looks like a feed by its address, type or text.
        case anchor
        /// A path where blog engines commonly put their feed, not mentioned by the page.
        case commonPath
    }

    public init(url: String, title: String? = nil, type: String? = nil, source: Source) {
        self.url = url
        self.title = title
        self.type = type
        self.source = source
    }
}
