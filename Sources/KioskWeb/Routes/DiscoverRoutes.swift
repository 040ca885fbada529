import Foundation
import Hummingbird
import KioskCore
import KioskModel
import KioskReader
import KioskSources
import KioskStore
import Logging

/// `/discover`: category and search pages, the fragments infinite scroll and the search box ask
/// for, and article details.
struct DiscoverRoutes: Sendable {
    let discover: DiscoverService
    let hasAPIKey: Bool
    let store: any KioskStore
    let reader: Reader
    let news: NewsSections
    let signer: ImageSigner
    let shelf: ArticleShelf
    let logger: Logger

    func register(on router: Router<KioskRequestContext>) {
        router.get("discover") { request, context in
            let query = query(request)
            // The list comes with the page when the news API answers within a second; else the
            // screen shows at once, saying it is loading, and its script asks for the list (and
            // joins the request under way, which lives a few seconds more for it).
            let box = OutcomeBox()
            let loading = Task {
                let outcome = await load(query, page: 1, client: context.clientID, user: context.user)
                await box.set(outcome)
                return outcome
            }
            var result: Outcome?
            for _ in 0..<20 {
                result = await box.outcome
                if result != nil { break }
                try? await Task.sleep(for: .milliseconds(50))
            }
            guard let result else {
                Task {
                    try? await Task.sleep(for: .seconds(5))
                    loading.cancel()
                }
                return DiscoverScreenPage(
                    query: query, rows: ArticleRows(articles: [], images: signer), page: 0,
                    hasMore: false, error: nil, hasAPIKey: hasAPIKey, saved: nil, loading: true
                ).document.response(for: context)
            }
            let rows = ArticleRows(articles: await shelf.keep(result.articles), images: signer)
            return DiscoverScreenPage(
                query: query, rows: rows, page: 1, hasMore: result.hasMore, error: result.error, hasAPIKey: hasAPIKey,
                saved: result.saved, queryError: result.queryError
            ).document.response(for: context)
        }
        router.get("discover/results") { request, context in
            let query = query(request)
            let page = max(1, min(request.uri.queryParameters.get("page", as: Int.self) ?? 1, 100))
            // Not wrapped in `consumeWithCancellationOnInboundClose`: made for event streams, it
            // closes the connection after the answer (without saying so), so the next request a
            // browser sent on that kept-alive connection got no answer. A query the reader has
            // moved on from is dropped by `DiscoverService` (superseded) instead.
            let fresh = request.uri.queryParameters.get("refresh") != nil
            let result = await load(query, page: page, client: context.clientID, user: context.user, fresh: fresh)
            let rows = ArticleRows(articles: await shelf.keep(result.articles), images: signer)
            let body = DiscoverResults(
                html: result.saved?.items.render() ?? rows.items.render(), page: page, hasMore: result.hasMore,
                error: result.error, queryError: result.queryError, query: query.queryString, superseded: result.superseded)
            return try JSONResponse(body).response
        }
        router.get("discover/articles/:key") { _, context in
            guard let article = await shelf.article(context.parameters.get("key") ?? "") else {
                let gone = MessagePage(
                    kind: "not-found", title: "Article not available",
                    message: "This article is no longer in Kiosk's memory. Open it again from Discover.", tab: .discover)
                return HTMLResponse(gone.page.render(), status: .notFound).response
            }
            return ArticleDetailPage(article: article, images: signer).page.response(for: context)
        }
    }


    private func query(_ request: Request) -> DiscoverQuery {
        let parameters = request.uri.queryParameters
        return DiscoverQuery(
            category: parameters.get("category"), search: parameters.get("q"), scope: parameters.get("scope"),
            hasAPIKey: hasAPIKey)
    }

    /// The first page's outcome, once it is there.
    private actor OutcomeBox {
        var outcome: Outcome?
        func set(_ value: Outcome) { outcome = value }
    }

    private struct Outcome: Sendable {
        var articles: [Article] = []
        var saved: SavedRows?
        var hasMore = false
        var error: String?
        /// Why the search box's query does not read (shown under the box).
        var queryError: String?
        var superseded = false
    }

    private func load(_ query: DiscoverQuery, page: Int, client: String, user: UserID, fresh: Bool = false) async -> Outcome {
        let result: Result<DiscoverPage, SourceError>
        switch query {
        case .category(let category):
            result = await discover.headlines(category: category.rawValue, page: page, account: String(user.rawValue), fresh: fresh)
        case .search(let text, .web):
            result = await discover.search(text, page: page, client: client, account: String(user.rawValue), fresh: fresh)
        case .search(let text, .saved):
            return await searchSaved(text, page: page, user: user)
        }
        switch result {
        case .success(let page): return Outcome(articles: page.articles, hasMore: page.hasMore)
        case .failure(.superseded): return Outcome(superseded: true)
        case .failure(let error): return Outcome(error: APIMessage.text(for: error))
        }
    }

    /// Search over the entries Kiosk stored from its feeds (one page of up to 50), in the query
    /// language of rules (`Query`): a query that does not read says why, under the box.
    private func searchSaved(_ text: String, page: Int, user: UserID) async -> Outcome {
        guard page == 1 else { return Outcome(saved: SavedRows(hits: [])) }
        let query: Query
        do {
            query = try QueryParser.parse(text)
        } catch {
            return Outcome(saved: SavedRows(hits: []), queryError: "This search cannot be read: \(error.description).")
        }
        do {
            let subscriptions = try await reader.subscriptions(user: user)
            let names = Dictionary(subscriptions.map { ($0.id, $0.displayName) }, uniquingKeysWith: { first, _ in first })
            let found = try await EntrySearch(store: store).entries(matching: query, user: user, subscriptions: subscriptions)
            return Outcome(
                saved: SavedRows(hits: found.map { ($0.source.rawValue, $0.key, $0.entry) }, names: names, news: news))
        } catch {
            logger.warning("saved search failed", metadata: ["error": "\(error)"])
            return Outcome(saved: SavedRows(hits: []), error: "Saved news could not be searched right now.")
        }
    }
}

/// What `/discover/results` answers: the rows' HTML and where the list stands.
struct DiscoverResults: Codable, Sendable {
    var html: String
    var page: Int
    var hasMore: Bool
    var error: String?
    /// Why the query in the search box does not read, said under the box.
    var queryError: String?
    var query: String
    var superseded: Bool
}

/// The API's own words for a failure when it gave any (NewsAPI's `message`), else ours.
enum APIMessage {
    static func text(for error: SourceError) -> String {
        if case .fetch(.status(_, let message?, _)) = error, !message.isEmpty { return message }
        return "Discover could not load: \(error.description)"
    }
}
