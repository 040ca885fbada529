import Hummingbird
import KioskCore
import KioskHTML
import KioskModel
import KioskReader
import KioskSources
import KioskStore

/// `/news` and its detail pages (what Home's "last opened" remembers is posted to /opened).
struct NewsRoutes: Sendable {
    let news: NewsSections
    let store: any KioskStore
    let signer: ImageSigner
    let articles: ArticleService
    let live: LiveBroadcaster

    func register(on router: Router<KioskRequestContext>) {
        router.get("news") { request, context in
            let feed = news.section(slug: request.uri.queryParameters.get("feed")) ?? .none
            return NewsPage(feed: feed, sections: news, state: await live.snapshot()).page.response(for: context)
        }
        router.get("news/older") { request, context in
            guard let feed = news.section(slug: request.uri.queryParameters.get("feed")) else { throw HTTPError(.notFound) }
            let from = max(0, request.uri.queryParameters.get("from", as: Int.self) ?? NewsList.shown)
            let state = await live.snapshot()
            return NewsOlderPage(feed: feed, sections: news, sources: state.sources, from: from).page.response(for: context)
        }
        router.get("news/:source/:key") { _, context in try await detail(context, withArticle: false) }
        // The reader view: the entry's page fetched (once, then kept) and shown in place.
        router.get("news/:source/:key/article") { _, context in try await detail(context, withArticle: true) }
    }

    /// `/news/<source>/<key>`, with the full article in place when `withArticle`.
    private func detail(_ context: KioskRequestContext, withArticle: Bool) async throws -> Response {
        let source = SourceID(context.parameters.get("source") ?? "")
        let key = context.parameters.get("key") ?? ""
        let state = await live.snapshot()
        guard news.shows(source) else { throw HTTPError(.notFound) }
        // The entry as the store holds it (News' feeds are the owner's), for its kept article;
        // an entry that has left the feed since the list was drawn is found there too.
        var stored = try? await store.storedEntry(source: source, key: key, user: context.user)
        if stored == nil { stored = try? await store.storedEntry(source: source, key: key, user: .owner) }
        guard let entry = state.entries[source]?.first(where: { EntryIdentity.key(of: $0) == key }) ?? stored?.entry else {
            throw HTTPError(.notFound)
        }
        // Opening is a GET and records nothing: the page's script posts /opened.
        let signer = signer
        let sanitizer = HTMLSanitizer(baseURL: entry.link, imageProxy: { signer.path(for: $0) })
        var article: ArticleView?
        if let stored {
            let read = withArticle ? await articles.article(entry: stored.id, link: entry.link) : nil
            article = ArticleView(stored: read, signer: signer, entryPath: "/news/\(source.rawValue)/\(key)")
        } else if withArticle {
            throw HTTPError(.notFound)
        }
        return NewsDetailPage(
            source: source, sections: news, entry: entry, sanitizer: sanitizer, sequence: state.sequence,
            article: article
        ).page.response(for: context)
    }
}
