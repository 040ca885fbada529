import Foundation

/// What a query can see of an entry: plain values, so search, saved searches and rules can
/// build it from whichever store or model holds the entry.
public struct QueryDocument: Sendable, Hashable {
    public var title: String
    public var author: String
    public var url: String
    /// The entry's text with markup removed: its parts (summary, content, article) joined by
    /// `partSeparator`, each a value of its own, so a phrase never runs from one into the next
    /// (as a full-text index, which holds them apart, never finds it).
    public var content: String
    public static let partSeparator: Character = "\u{1E}"
    /// The name of the feed the entry came from.
    public var feed: String
    /// The names of the folders the feed is in.
    public var folders: [String]
    public var labels: [String]
    public var isRead: Bool
    public var isStarred: Bool
    public var isHidden: Bool
    /// Nil when the feed gave no date; such an entry matches no `date:` term.
    public var published: Date?

    public init(
        title: String = "", author: String = "", url: String = "", content: String = "", feed: String = "",
        folders: [String] = [], labels: [String] = [], isRead: Bool = false, isStarred: Bool = false,
        isHidden: Bool = false, published: Date? = nil
    ) {
        self.title = title
        self.author = author
        self.url = url
        self.content = content
        self.feed = feed
        self.folders = folders
        self.labels = labels
        self.isRead = isRead
        self.isStarred = isStarred
        self.isHidden = isHidden
        self.published = published
    }

    /// The raw values of `field`: one for most fields, any number of folders and labels.
    public func values(of field: QueryField) -> [String] {
        switch field {
        case .title: return [title]
        case .author: return [author]
        case .url: return [url]
        case .content: return content.split(separator: Self.partSeparator).map(String.init)
        case .feed: return [feed]
        case .folder: return folders
        case .label: return labels
        }
    }
}
