import KioskCore

/// One page of Discover's article list.
public struct DiscoverPage: Sendable, Hashable {
    public var articles: [Article]
    /// 1-based.
    public var page: Int
    public var totalResults: Int
    /// Whether another page exists: NewsAPI serves at most 100 results on the free plan.
    public var hasMore: Bool

    public init(articles: [Article], page: Int, totalResults: Int, hasMore: Bool) {
        self.articles = articles
        self.page = page
        self.totalResults = totalResults
        self.hasMore = hasMore
    }
}
