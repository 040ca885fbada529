import Foundation

/// A syndication feed as Kiosk understands it, whatever format it came in.
public struct Feed: Sendable, Hashable, Codable {
    /// The format the parser detected from the content.
    public var format: FeedFormat
    public var title: String?
    /// The feed's home page (absolute when the feed gave a base to resolve against).
    public var link: String?
    public var language: String?
    public var updated: Date?
    /// The feed's logo or icon URL.
    public var image: String?
    /// RSS `<ttl>`: minutes the feed may be cached before it is read again, a hint a polite
    /// poller honours. Minutes, not a `Duration`, so JSON shows the feed's own number.
    public var ttl: Int?
    public var entries: [Entry]

    public init(
        format: FeedFormat, title: String? = nil, link: String? = nil, language: String? = nil,
        updated: Date? = nil, image: String? = nil, ttl: Int? = nil, entries: [Entry] = []
    ) {
        self.format = format
        self.title = title
        self.link = link
        self.language = language
        self.updated = updated
        self.image = image
        self.ttl = ttl
        self.entries = entries
    }
}
