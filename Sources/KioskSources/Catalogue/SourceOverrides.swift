import Foundation
import KioskCore
import KioskModel

/// The `sources` section of the config file: every default can be overridden, and any other
/// RSS, Atom or JSON Feed URL added as a source of its own.
///
/// ```json
/// {"feeds": [{"id": "business", "url": "https://example.org/business.rss"},
///            {"id": "my-blog", "name": "My blog", "url": "https://blog.example/feed.json", "intervalSeconds": 60,
///             "kind": "feed"}],
///  "factsURL": "https://example.org/facts.json", "newsAPIBaseURL": "https://newsapi.org/v2"}
/// ```
public struct SourceOverrides: Codable, Sendable, Hashable {
    public struct Feed: Codable, Sendable, Hashable {
        public var id: String
        public var name: String?
        public var url: URL
        public var intervalSeconds: Double?
        public var headers: [String: String]?
        /// How its answers are read (`SourceKinds`); a feed when not given.
        public var kind: String?
    }

    public var feeds: [Feed]?
    public var factsURL: URL?
    public var albumsURL: URL?
    public var newsAPIBaseURL: URL?
    public var newsAPIPageSize: Int?
    public var jokesURL: URL?

    public init() {}

    /// `catalogue` with these overrides: a feed whose id exists replaces its URL (and whatever
    /// else it sets); a new id adds a feed.
    public func apply(to catalogue: SourceCatalogue) -> SourceCatalogue {
        var result = catalogue
        for feed in feeds ?? [] {
            let id = SourceID(feed.id)
            let interval = feed.intervalSeconds.map { Duration.milliseconds(Int(min(max($0, 0.05), 7 * 24 * 3_600) * 1000)) }
            if let index = result.feeds.firstIndex(where: { $0.id == id }) {
                result.feeds[index].url = feed.url
                if let name = feed.name { result.feeds[index].name = name }
                if let interval { result.feeds[index].interval = interval }
                if let headers = feed.headers { result.feeds[index].headers = headers }
                if let kind = feed.kind { result.feeds[index].kind = SourceKind.ID(rawValue: kind) }
            } else {
                result.feeds.append(
                    PolledSource(
                        id: id, name: feed.name ?? feed.id, url: feed.url, interval: interval ?? .seconds(5),
                        headers: feed.headers ?? [:], kind: feed.kind.map(SourceKind.ID.init(rawValue:)) ?? .feed))
            }
        }
        if let factsURL { result.factsURL = factsURL }
        if let albumsURL { result.albumsURL = albumsURL }
        if let newsAPIBaseURL { result.newsAPI.baseURL = newsAPIBaseURL }
        if let newsAPIPageSize { result.newsAPI.pageSize = max(1, min(newsAPIPageSize, 100)) }
        if let jokesURL { result.jokesURL = jokesURL }
        return result
    }
}
