import Foundation
import KioskCore

// Discover's reads of a NewsAPI-compatible API: category pages (`top-headlines`) and searches
// (`everything?q=`), `pageSize` at a time. A client's newer search supersedes its older one: the
// older request is cancelled and answers `.superseded`, so a slow stale result never lands last.

/// Category pages and searches against NewsAPI, with the API's own error messages.
public actor DiscoverService {
    /// NewsAPI's free plan stops at 100 results (HTTP 426 `maximumResultsReached` beyond).
    public static let resultLimit = 100

    private let settings: NewsAPISettings
    private let fetcher: any Fetching
    private var searches: [String: (id: UUID, task: Task<Result<DiscoverPage, SourceError>, Never>)] = [:]

    public init(settings: NewsAPISettings, fetcher: any Fetching) {
        self.settings = settings
        self.fetcher = fetcher
    }

    /// Page `page` (1-based) of a category's top headlines.
    public func headlines(category: String, page: Int = 1) async -> Result<DiscoverPage, SourceError> {
        await fetchPage(path: "top-headlines", query: [URLQueryItem(name: "category", value: category)], page: page)
    }

    /// Page `page` of a search. A newer search by the same `client` cancels this one.
    public func search(_ text: String, page: Int = 1, client: String) async -> Result<DiscoverPage, SourceError> {
        searches[client]?.task.cancel()
        let id = UUID()
        let task = Task {
            await self.fetchPage(path: "everything", query: [URLQueryItem(name: "q", value: text)], page: page)
        }
        searches[client] = (id, task)
        let result = await task.value
        if searches[client]?.id == id { searches[client] = nil }
        return task.isCancelled ? .failure(.superseded) : result
    }

    private func fetchPage(path: String, query: [URLQueryItem], page: Int) async -> Result<DiscoverPage, SourceError> {
        guard let base = settings.baseURL,
            var components = URLComponents(url: base.appendingPathComponent(path), resolvingAgainstBaseURL: false)
        else { return .failure(.notConfigured("The NewsAPI address")) }
        let page = max(1, page)
        components.queryItems =
            query + [
                URLQueryItem(name: "page", value: String(page)),
                URLQueryItem(name: "pageSize", value: String(settings.pageSize)),
            ]
        guard let url = components.url else { return .failure(.notConfigured("The NewsAPI address")) }
        // The key travels in a header, never in a URL that could end up in a log.
        var headers: [String: String] = [:]
        if let key = settings.apiKey, !key.isEmpty { headers["X-Api-Key"] = key }
        do {
            guard case .fetched(let body) = try await fetcher.fetch(FetchRequest(url: url, headers: headers)) else {
                return .failure(.unreadable("NewsAPI answered 304 to a plain request"))
            }
            if Task.isCancelled { return .failure(.superseded) }
            let articlePage: ArticlePage
            do {
                articlePage = try NewsAPIParser.parse(Data(body.bytes))
            } catch {
                return .failure(error.apiMessage.map { .fetch(.status(code: 200, message: $0, retryAfter: nil)) } ?? .unreadable(error.description))
            }
            let reachable = min(articlePage.totalResults, Self.resultLimit)
            return .success(
                DiscoverPage(
                    articles: articlePage.articles, page: page, totalResults: articlePage.totalResults,
                    hasMore: page * settings.pageSize < reachable))
        } catch {
            return .failure(Task.isCancelled ? .superseded : .fetch(error))
        }
    }
}
