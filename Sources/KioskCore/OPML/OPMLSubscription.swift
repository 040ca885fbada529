/// One feed found in (or written to) an OPML file.
///
/// Plain strings, not `URL`s: an import reports what the file said, and deciding which addresses
/// Kiosk may fetch is the caller's job.
public struct OPMLSubscription: Sendable, Hashable, Codable {
    /// The feed's address (`xmlUrl`), trimmed, never empty.
    public var feedURL: String
    /// The name the exporting reader showed (`title`, else `text`), entities decoded once and
    /// otherwise as written: markup in a name is kept as text, not stripped. Nil when the file
    /// gave none, or gave only the feed's address again.
    public var title: String?
    /// The site the feed belongs to (`htmlUrl`), trimmed; nil when absent or empty.
    public var siteURL: String?
    /// The folder path, nil at top level. Nested folders are joined with " / ", so an outline
    /// inside "Tech" inside "Swift" is in "Tech / Swift".
    public var folder: String?

    public init(feedURL: String, title: String? = nil, siteURL: String? = nil, folder: String? = nil) {
        self.feedURL = feedURL
        self.title = title
        self.siteURL = siteURL
        self.folder = folder
    }
}
