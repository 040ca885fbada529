/// The syndication formats Kiosk reads, detected from the content, never from a file name.
public enum FeedFormat: String, Sendable, Hashable, Codable, CaseIterable {
    case rss090, rss091, rss092, rss093, rss094, rss20, rss10, rss
    case atom03, atom10
    case jsonFeed10, jsonFeed11
}
