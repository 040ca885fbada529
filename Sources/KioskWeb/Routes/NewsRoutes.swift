import Hummingbird
import KioskCore
import KioskSources

/// `/news` and its detail pages (what Home's "last opened" remembers is posted to /opened).
struct NewsRoutes: Sendable {
    let shared: RouteContext

    func register(on router: Router<KioskRequestContext>) {
        router.get("news") { request, context in
            let news = shared.dependencies.news
            let feed = news.section(slug: request.uri.queryParameters.get("feed")) ?? .none
            return NewsPage(feed: feed, sections: news, state: await shared.live.snapshot()).page.response(for: context)
        }
        router.get("news/older") { request, context in
            let news = shared.dependencies.news
            guard let feed = news.section(slug: request.uri.queryParameters.get("feed")) else { throw HTTPError(.notFound) }
            let from = max(0, request.uri.queryParameters.get("from", as: Int.self) ?? NewsList.shown)
            let state = await shared.live.snapshot()
            return NewsOlderPage(feed: feed, sections: news, sources: state.sources, from: from).page.response(for: context)
        }
        router.get("news/:source/:key") { _, context in
            let source = SourceID(context.parameters.get("source") ?? "")
            let key = context.parameters.get("key") ?? ""
            let state = await shared.live.snapshot()
            guard shared.dependencies.news.shows(source) else { throw HTTPError(.notFound) }
            // An entry that has left the feed since the list was drawn is still in the store.
            var found = state.entries[source]?.first(where: { EntryIdentity.key(of: $0) == key })
            if found == nil {
                found = (try? await shared.dependencies.store.storedEntry(source: source, key: key, user: context.user))?.entry
            }
            guard let entry = found else { throw HTTPError(.notFound) }
            // Opening is a GET and records nothing: the page's script posts /opened.
            let sequence = state.sequence
            let signer = shared.dependencies.signer
            let sanitizer = HTMLSanitizer(baseURL: entry.link, imageProxy: { signer.path(for: $0) })
            return NewsDetailPage(source: source, sections: shared.dependencies.news, entry: entry, sanitizer: sanitizer, sequence: sequence)
                .page.response(for: context)
        }
    }
}
