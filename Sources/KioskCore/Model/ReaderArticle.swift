import Foundation

/// The main article of a web page, as a reader view shows it.
public struct ReaderArticle: Sendable, Hashable, Codable {
    public var title: String?
    public var byline: String?
    public var published: Date?
    public var siteName: String?
    /// The page's language (`<html lang>`), as written.
    public var language: String?
    /// The lead image's absolute URL.
    public var image: String?
    /// A sentence or two: the page's description, else the article's first paragraph.
    public var excerpt: String?
    /// The article, sanitized (an allow-list of elements and attributes), relative URLs resolved.
    public var html: String
    /// The article's text, paragraphs separated by blank lines.
    public var text: String
    public var wordCount: Int

    public init(
        title: String? = nil, byline: String? = nil, published: Date? = nil, siteName: String? = nil,
        language: String? = nil, image: String? = nil, excerpt: String? = nil, html: String, text: String,
        wordCount: Int
    ) {
        self.title = title
        self.byline = byline
        self.published = published
        self.siteName = siteName
        self.language = language
        self.image = image
        self.excerpt = excerpt
        self.html = html
        self.text = text
        self.wordCount = wordCount
    }
}

/// Why no article came out of a page, in words a person can act on.
public enum ArticleError: Error, Sendable, Hashable, CustomStringConvertible {
    /// More bytes than the extractor reads.
    case tooLarge(bytes: Int, limit: Int)
    /// Nothing readable at all (no text, or only markup).
    case emptyPage
    /// Text, but nothing shaped like an article (a list of links, a form, a gallery...).
    case notAnArticle
    /// An article longer than a reader view holds (and than is worth keeping with an entry,
    /// syncing to apps and saving on a phone): a book, or a page made to be hostile.
    case tooLong(characters: Int, limit: Int)
    /// More elements, runs of text and attributes than the extractor builds a tree of
    /// (`ArticleLimits.maxTreeBytes`): no article needs that many, only a table of data or a
    /// page made to be hostile (as Readability's `maxElemsToParse`).
    case tooComplex(treeBytes: Int)

    public var description: String {
        switch self {
        case .tooLarge(let bytes, let limit):
            "the page is too large to read (\(bytes / 1_048_576) MB; at most \(limit / 1_048_576) MB)"
        case .emptyPage: "the page has no text"
        case .notAnArticle: "the page is not an article"
        case .tooLong(let characters, let limit):
            "the article is too long for the reader view (\(characters / 1_000) thousand characters; at most \(limit / 1_000) thousand)"
        case .tooComplex(let treeBytes):
            "the page is too complex for the reader view (its parts would take over \(treeBytes / 1_048_576) MB)"
        }
    }
}

/// The bounds an extraction keeps, whatever the page.
public struct ArticleLimits: Sendable, Hashable {
    /// Largest page read, in bytes.
    public var maxBytes: Int
    /// Elements nested deeper than this are flattened into their ancestor at this depth.
    public var maxDepth: Int
    /// Longest article kept, in characters of text (a million: some 170,000 words, twice the
    /// longest Wikipedia article); a longer one is an error, found before it is sanitized, turned
    /// into text and stored.
    public var maxArticleCharacters: Int
    /// Most memory the page's tree may take, in bytes as the extractor reckons it while building
    /// the tree (an element, a run of text and an attribute each cost what they hold at the
    /// extraction's peak: the node, its counts, its place in its parent's list and in the passes'
    /// lists, an attribute's strings). A page whose tree would take more is an error, found while
    /// the tree is built: no article needs that many parts, only a page made to be hostile or a
    /// table of data. With the page (10 MB at most) and the process, this keeps any page's
    /// extraction under 100 MB; 10 MB of real pages reckon about 27 MB.
    public var maxTreeBytes: Int

    public init(
        maxBytes: Int = 10 * 1_048_576, maxDepth: Int = 256, maxArticleCharacters: Int = 1_000_000,
        maxTreeBytes: Int = 32 * 1_048_576
    ) {
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
        self.maxArticleCharacters = maxArticleCharacters
        self.maxTreeBytes = maxTreeBytes
    }
}
