import Foundation

/// One item of a feed: an RSS `item`, an Atom `entry` or a JSON Feed item.
public struct Entry: Sendable, Hashable, Codable {
    /// The entry's identity as the feed gives it (`guid`, Atom `id`, JSON `id`).
    public var id: String?
    /// The title as plain text.
    public var title: String?
    /// The entry's web page; FeedBurner's `origLink` wins over the tracking link.
    public var link: String?
    public var published: Date?
    public var updated: Date?
    public var authors: [Author]
    /// The short form (RSS `description`, Atom `summary`), as the feed gives it (may be HTML).
    public var summary: String?
    /// The full form (`content:encoded`, Atom `content`), as the feed gives it (may be HTML).
    public var content: String?
    public var categories: [String]
    public var enclosures: [Enclosure]
    /// A representative image URL (media thumbnail/content, itunes:image, image enclosure).
    public var image: String?

    public init(
        id: String? = nil, title: String? = nil, link: String? = nil, published: Date? = nil,
        updated: Date? = nil, authors: [Author] = [], summary: String? = nil, content: String? = nil,
        categories: [String] = [], enclosures: [Enclosure] = [], image: String? = nil
    ) {
        self.id = id
        self.title = title
        self.link = link
        self.published = published
        self.updated = updated
        self.authors = authors
        self.summary = summary
        self.content = content
        self.categories = categories
        self.enclosures = enclosures
        self.image = image
    }
}

/// A person credited with an entry.
public struct Author: Sendable, Hashable, Codable {
    public var name: String?
    public var email: String?
    public var uri: String?

    public init(name: String? = nil, email: String? = nil, uri: String? = nil) {
        self.name = name
        self.email = email
        self.uri = uri
    }
}

/// A file attached to an entry (podcast audio, an image...).
public struct Enclosure: Sendable, Hashable, Codable {
    public var url: String
    public var type: String?
    public var length: Int?

    public init(url: String, type: String? = nil, length: Int? = nil) {
        self.url = url
        self.type = type
        self.length = length
    }
}
