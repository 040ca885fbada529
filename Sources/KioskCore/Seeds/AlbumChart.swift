import Foundation

/// An Apple top-albums chart: the feed's header and its albums in chart order.
public struct AlbumChart: Sendable, Hashable, Codable {
    /// The generator version the parser detected.
    public var version: AlbumFeedVersion
    /// The feed's title, e.g. "Top Albums".
    public var title: String?
    /// When Apple last regenerated the chart.
    public var updated: Date?
    /// The feed's copyright line (Apple's, not the albums').
    public var copyright: String?
    /// The albums in chart order, without rows lacking an id or name.
    public var albums: [Album]

    /// Creates a chart.
    public init(
        version: AlbumFeedVersion, title: String? = nil, updated: Date? = nil, copyright: String? = nil,
        albums: [Album] = []
    ) {
        self.version = version
        self.title = title
        self.updated = updated
        self.copyright = copyright
        self.albums = albums
    }
}
