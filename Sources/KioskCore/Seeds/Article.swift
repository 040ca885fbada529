import Foundation

/// One NewsAPI article. NewsAPI leaves most fields null at times, so all are optional.
public struct Article: Sendable, Hashable, Codable {
    /// NewsAPI's id of the source (`source.id`), null for most sources.
    public var sourceID: String?
    /// The source's display name (`source.name`).
    public var sourceName: String?
    /// The byline as the source gives it (a person, several, or the outlet).
    public var author: String?
    /// The headline, usually suffixed with " - Source".
    public var title: String?
    /// The teaser text; nil when NewsAPI gives none or an empty string.
    public var description: String?
    /// The article's web page.
    public var url: String?
    /// The article's lead image.
    public var urlToImage: String?
    /// When the article was published.
    public var publishedAt: Date?
    /// The start of the article's text, cut off by NewsAPI with `… [+N chars]`; kept as given.
    public var content: String?

    /// Creates an article.
    public init(
        sourceID: String? = nil, sourceName: String? = nil, author: String? = nil, title: String? = nil,
        description: String? = nil, url: String? = nil, urlToImage: String? = nil, publishedAt: Date? = nil,
        content: String? = nil
    ) {
        self.sourceID = sourceID
        self.sourceName = sourceName
        self.author = author
        self.title = title
        self.description = description
        self.url = url
        self.urlToImage = urlToImage
        self.publishedAt = publishedAt
        self.content = content
    }
}
