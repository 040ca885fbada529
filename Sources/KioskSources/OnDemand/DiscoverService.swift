import Foundation
import KioskCore
import KioskModel

// Discover's reads of a NewsAPI-compatible API: category pages (`top-headlines`) and searches
// (`everything?q=`), `pageSize` at a time. A client's newer search supersedes its older one: the
// older request is cancelled and answers `.superseded`, so a slow stale result never lands last.

/// Category pages and searches against NewsAPI, with the API's own error messages.
public actor DiscoverService {
    /// NewsAPI's free plan stops at 100 results (HTTP 426 `maximumResultsReached` beyond).
    public static let resultLimit = 100

    /// How Discover spares the API key's quota: answers kept per query for a while, and at most
    /// so many calls to the API per account in a window.
    public struct Budget: Sendable, Hashable {
        /// How long an answer (a category's or a search's page) is served again without asking.
        public var keepAnswersFor: Duration = .seconds(600)
        /// Answers kept at most (the oldest forgotten first).
        public var answersKept = 500
        /// Calls to the API one account may cause...
        public var callsPerAccount = 30
        /// ... in this window.
        public var window: Duration = .seconds(600)

        public init() {}
    }

    private let settings: NewsAPISettings
    private let fetcher: any Fetching
    private let budget: Budget
    /// Where each account's calls are counted: the store, so a restart or another replica does
    /// not start the count again.
    private let ledger: any AllowanceLedger
    private let now: @Sendable () -> Date
    private var answers: [String: (page: DiscoverPage, at: Date)] = [:]
    private var searches: [String: (id: UUID, task: Task<Result<DiscoverPage, SourceError>, Never>)] = [:]
    /// Each client's newest search, from the moment it is asked (before it is counted).
    private var latestSearch: [String: UUID] = [:]
    /// Category pages being fetched, shared by everyone asking for the same page meanwhile (a
    /// reader who taps away and back joins the request under way instead of queueing another).
    private var headlineRequests: [String: (task: Task<Result<DiscoverPage, SourceError>, Never>, waiters: Set<UUID>)] = [:]

    public init(
        settings: NewsAPISettings, fetcher: any Fetching, budget: Budget = Budget(),
        ledger: any AllowanceLedger = MemoryAllowanceLedger(), now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.settings = settings
        self.fetcher = fetcher
        self.budget = budget
        self.ledger = ledger
        self.now = now
    }

    /// A kept answer to `key`, while it is fresh.
    private func kept(_ key: String) -> DiscoverPage? {
        guard let answer = answers[key] else { return nil }
        guard now().timeIntervalSince(answer.at) < budget.keepAnswersFor / .seconds(1) else {
            answers[key] = nil
            return nil
        }
        return answer.page
    }

    private func keep(_ result: Result<DiscoverPage, SourceError>, as key: String) {
        guard case .success(let page) = result else { return }
        if answers.count >= budget.answersKept, let oldest = answers.min(by: { $0.value.at < $1.value.at })?.key {
            answers[oldest] = nil
        }
        answers[key] = (page, now())
    }

    /// The allowance Discover's calls are counted under (`AllowanceLedger`).
    static let allowance = "discover-call"

    /// Whether `account` may cause one more call to the API now (and counts it); the refusal, a
    /// sentence, when not. A ledger that cannot count (a read-only disk) refuses nothing: the
    /// answers kept still spare the key.
    private func spend(_ account: String) async -> SourceError? {
        guard budget.callsPerAccount < .max else { return nil }
        let now = now()
        let window = budget.window / .seconds(1)
        let counted = try? await ledger.spend(
            Self.allowance, account: account, limit: budget.callsPerAccount, window: budget.window, now: now)
        guard let oldest = counted ?? nil else { return nil }
        let wait = max(1, Int((window - now.timeIntervalSince(oldest)) / 60 + 0.999))
        return .fetch(.status(
            code: 429,
            message: "Discover asks the news service at most \(budget.callsPerAccount) times in \(Int(window / 60)) minutes for you: try again in \(wait) minute\(wait == 1 ? "" : "s"); what was already loaded still opens.",
            retryAfter: nil))
    }

    /// Page `page` (1-based) of a category's top headlines. Callers asking for the same page while
    /// it is fetched share the request; when every one of them has given up (cancelled: the page
    /// was left), the request is cancelled too.
    /// Answers are kept a while for everyone, and each call to the API counts against `account`.
    /// `fresh` (a refresh): not the kept answer.
    public func headlines(category: String, page: Int = 1, account: String = "", fresh: Bool = false) async
        -> Result<DiscoverPage, SourceError>
    {
        let key = "\(category)\u{1F}\(page)"
        if !fresh, let answer = kept("h\u{1F}" + key) { return .success(answer) }
        let waiter = UUID()
        let task: Task<Result<DiscoverPage, SourceError>, Never>
        if headlineRequests[key] == nil {
            let refusal = await spend(account)
            // Read again after counting: the page may have been kept, or its request started by
            // another caller, meanwhile (the count then stays spent: it is a call this account asked).
            if !fresh, let answer = kept("h\u{1F}" + key) { return .success(answer) }
            if headlineRequests[key] == nil, let refusal { return .failure(refusal) }
        }
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
        // The first to have the outcome clears the entry and keeps the answer.
        if headlineRequests[key]?.task == task {
            headlineRequests[key] = nil
            keep(result, as: "h\u{1F}" + key)
        }
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

    /// Page `page` of a search. A newer search by the same `client` cancels this one. The same
    /// words (in any case and spacing) are answered from the kept answer for a while; each call
    /// to the API counts against `account`.
    public func search(_ text: String, page: Int = 1, client: String, account: String = "", fresh: Bool = false) async
        -> Result<DiscoverPage, SourceError>
    {
        let key = "s\u{1F}" + text.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ") + "\u{1F}\(page)"
        if !fresh, let answer = kept(key) {
            // Newer than any search of this client under way, or still being counted.
            searches[client]?.task.cancel()
            latestSearch[client] = nil
            return .success(answer)
        }
        let id = UUID()
        latestSearch[client] = id
        if let refusal = await spend(account) {
            if latestSearch[client] == id { latestSearch[client] = nil }
            return .failure(refusal)
        }
        // A newer search by this client began while this one was counted: this one is stale.
        guard latestSearch[client] == id else { return .failure(.superseded) }
        searches[client]?.task.cancel()
        let task = Task {
            await self.fetchPage(path: "everything", query: [URLQueryItem(name: "q", value: text)], page: page)
        }
        searches[client] = (id, task)
        let result = await task.value
        if searches[client]?.id == id { searches[client] = nil }
        if latestSearch[client] == id { latestSearch[client] = nil }
        if task.isCancelled { return .failure(.superseded) }
        keep(result, as: key)
        return result
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
