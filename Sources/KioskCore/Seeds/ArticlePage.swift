/// One page of NewsAPI results (`top-headlines` or `everything`).
public struct ArticlePage: Sendable, Hashable, Codable {
    /// How many articles NewsAPI says match in all, across pages (not `articles.count`).
    public var totalResults: Int
    /// This page's articles, without the ones NewsAPI blanked out as `[Removed]`.
    public var articles: [Article]

    /// Creates a page.
    public init(totalResults: Int, articles: [Article] = []) {
        self.totalResults = totalResults
        self.articles = articles
    }
}
