import Foundation
import KioskCore
import KioskModel

/// Every source Kiosk reads, as configuration: the polled feeds, merged views of them, and the
/// request-driven sources (facts, albums, NewsAPI, jokes).
public struct SourceCatalogue: Sendable, Hashable, Codable {
    public var feeds: [PolledSource]
    public var merged: [MergedSource]
    /// The News screen's sections, in order: each a feed, or a merged source of several.
    public var news: [SourceID]
    /// The facts JSON feed.
    public var factsURL: URL?
    /// Apple's top-albums feed (v2 by default; v1 documents are accepted too).
    public var albumsURL: URL?
    /// The NewsAPI-compatible API behind Discover.
    public var newsAPI: NewsAPISettings
    /// The Switter joke endpoint (`GET …/api/joke`).
    public var jokesURL: URL?
    /// Demo mode's Web Push service (on the sample server), which stands in for a browser's
    /// own; nil outside demo mode.
    public var demoPushURL: URL?

    public init(
        feeds: [PolledSource], merged: [MergedSource], news: [SourceID] = [], factsURL: URL?, albumsURL: URL?,
        newsAPI: NewsAPISettings, jokesURL: URL?
    ) {
        self.feeds = feeds
        self.merged = merged
        self.news = news
        self.factsURL = factsURL
        self.albumsURL = albumsURL
        self.newsAPI = newsAPI
        self.jokesURL = jokesURL
    }

    /// The feeds behind the News screen (its sections, merged ones by their parts): the
    /// built-in subscriptions, which cannot be unsubscribed.
    public var newsFeeds: [SourceID] {
        news.flatMap { id in merged.first(where: { $0.id == id })?.parts ?? [id] }
    }

    /// The seed's News sections: Business, then Entertainment + Environment merged.
    public static let seedNews: [SourceID] = [.business, .entertainmentAndEnvironment]

    /// The News screen's merged *Entertainment + Environment* source: Entertainment first.
    public static let entertainmentAndEnvironment = MergedSource(
        id: .entertainmentAndEnvironment, name: "Entertainment + Environment", parts: [.entertainment, .environment])

    /// Why this catalogue cannot be polled with `kinds`: a sentence naming the first source whose
    /// kind is none of them (a misspelt `"kind"` in the config file), or nil when every one is known.
    public func unknownKind(among kinds: SourceKinds = .builtIn) -> String? {
        guard let source = feeds.first(where: { kinds[$0.kind] == nil }) else { return nil }
        let known = kinds.all.map { "\"\($0.id)\"" }.joined(separator: ", ")
        return "the source \"\(source.id)\" is of kind \"\(source.kind)\", which is none of the kinds Kiosk reads (\(known))"
    }

    /// The seed apps' own sources (Apple's feed moved to v2). The Reuters feeds have been dead
    /// since 2020 and NewsAPI needs a key: configure replacements in the config file.
    public static func live(newsAPIKey: String?) -> SourceCatalogue {
        SourceCatalogue(
            feeds: [
                (SourceID.business, "Business", "http://feeds.reuters.com/reuters/businessNews"),
                (.entertainment, "Entertainment", "http://feeds.reuters.com/reuters/entertainment"),
                (.environment, "Environment", "http://feeds.reuters.com/reuters/environment"),
            ].compactMap { id, name, url in URL(string: url).map { PolledSource(id: id, name: name, url: $0) } },
            merged: [entertainmentAndEnvironment], news: seedNews,
            factsURL: URL(string: "https://dl.dropboxusercontent.com/s/2iodh4vg0eortkl/facts.json"),
            albumsURL: URL(string: "https://rss.applemarketingtools.com/api/v2/us/music/most-played/100/albums.json"),
            newsAPI: NewsAPISettings(baseURL: URL(string: "https://newsapi.org/v2"), apiKey: newsAPIKey),
            jokesURL: nil)
    }
}

/// Where Discover's NewsAPI-compatible API lives, and the key (`NEWSAPI_KEY`) if any.
public struct NewsAPISettings: Sendable, Hashable, Codable {
    public var baseURL: URL?
    public var apiKey: String?
    /// Articles per page (Discover shows 10 at a time).
    public var pageSize: Int

    public init(baseURL: URL?, apiKey: String?, pageSize: Int = 10) {
        self.baseURL = baseURL
        self.apiKey = apiKey
        self.pageSize = pageSize
    }
}

extension SourceCatalogue {
    /// Every configured source's address: trusted wherever it is (a self-hosted feed on the LAN,
    /// the demo's sample server on loopback) by the fetcher's guard, the reader's address policy
    /// and the image proxy.
    public var trustedSources: [URL] {
        feeds.map(\.url) + [factsURL, albumsURL, newsAPI.baseURL, jokesURL].compactMap { $0 }
    }
}
