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
    /// Category pages being fetched, shared by everyone asking for the same page meanwhile (a
    /// reader who taps away and back joins the request under way instead of queueing another).
    private var headlineRequests: [String: (task: Task<Result<DiscoverPage, SourceError>, Never>, waiters: Set<UUID>)] = [:]

    public init(settings: NewsAPISettings, fetcher: any Fetching) {
        self.settings = settings
        self.fetcher = fetcher
    }

    /// Page `page` (1-based) of a category's top headlines. Callers asking for the same page while
    /// it is fetched share the request; when every one of them has given up (cancelled: the page
    /// was left), the request is cancelled too.
    public func headlines(category: String, page: Int = 1) async -> Result<DiscoverPage, SourceError> {
        let key = "\(category)\u{1F}\(page)"
        let waiter = UUID()
        let task: Task<Result<DiscoverPage, SourceError>, Never>
        if let shared = headlineRequests[key] {
            task = shared.task
            headlineRequests[key]?.waiters.insert(waiter)
        } else {
            task = Task {
                await self.fetchPage(path: "top-headlines", query: [URLQueryItem(name: "category", value: category)], page: page)
            }
            headlineRequests[key] = (task, [waiter])
        }
        let result = await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            Task { await self.abandon(key, waiter) }
        }
        // The first to have the outcome clears the entry: a later request fetches afresh.
        if headlineRequests[key]?.task == task { headlineRequests[key] = nil }
        return result
    }

    /// One caller gave up on a shared request; the last one to give up cancels it.
    private func abandon(_ key: String, _ waiter: UUID) {
        guard headlineRequests[key]?.waiters.remove(waiter) != nil else { return }
        if headlineRequests[key]?.waiters.isEmpty == true {
            headlineRequests[key]?.task.cancel()
            headlineRequests[key] = nil
        }
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
