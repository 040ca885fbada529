import Foundation
import Hummingbird
import KioskCore
import KioskHTML
import KioskModel
import KioskReader
import KioskSources
import KioskStore

/// The reader's pages: the feeds by folder, reading lists, an entry, adding a feed, a feed's
/// settings, OPML. Every page is a GET that changes nothing of the user's (an entry page of a feed
/// read as full articles may read and keep an article still due, as the passes would); the actions
/// are in `ReaderActionRoutes`.
struct ReaderRoutes: Sendable {
    let reader: Reader
    let store: any KioskStore
    let drawings: EntryDrawings
    let articles: ArticleService
    let signer: ImageSigner
    let live: LiveBroadcaster
    let dueArticleWait: Duration
    var episodeFiles: EpisodeFiles?
    let places: EpisodePlaces
    /// The server's "Load media through Kiosk" for whoever has not chosen; nil when there is no
    /// media proxy (episodes then always play from their publishers).
    var mediaThroughKiosk: Bool?
    static let pageSize = 50

    private var searches: SavedSearches { SavedSearches(store: store) }

    func register(on router: Router<KioskRequestContext>) {
        router.get("reader") { _, context in
            let subscriptions = try await reader.subscriptions(user: context.user)
            return ReaderHomePage(
                subscriptions: subscriptions, counts: try await counts(subscriptions, user: context.user, withSearches: true),
                sequence: await live.snapshot().sequence, health: try await reader.feedHealth(user: context.user),
                searches: try await searches.list(user: context.user),
                hasHidden: !(try await store.readingList(EntryFilter(hidden: true, limit: 1), user: context.user)).isEmpty,
                hasListen: try await places.hasEpisodes(user: context.user)
            ).page.response(for: context)
        }
        router.get("reader/counts") { _, context in
            let subscriptions = try await reader.subscriptions(user: context.user)
            return try JSONResponse(try await counts(subscriptions, user: context.user, withSearches: true)).response
        }
        router.get("reader/all") { request, context in
            try await list(.all, title: "All unread", request: request, context: context)
        }
        router.get("reader/starred") { request, context in
            try await list(.starred, title: "Starred", request: request, context: context)
        }
        router.get("reader/hidden") { request, context in
            try await list(.hidden, title: "Hidden", request: request, context: context)
        }
        router.get("reader/search/:id") { request, context in
            guard let id = context.parameters.get("id", as: Int64.self),
                let search = try await searches.search(id, user: context.user)
            else { throw HTTPError(.notFound) }
            return try await searchList(search, request: request, context: context)
        }
        router.get("reader/label/:name") { request, context in
            let name = try Self.parameter("name", context)
            guard try await reader.labels(user: context.user).contains(where: { $0.name == name }) else { throw HTTPError(.notFound) }
            return try await list(.label(name), title: name, request: request, context: context)
        }
        router.get("reader/folder/:name") { request, context in
            let name = try Self.parameter("name", context)
            guard try await reader.folders(user: context.user).contains(name) else { throw HTTPError(.notFound) }
            return try await list(.folder(name), title: name, request: request, context: context)
        }
        router.get("reader/feed/:id") { request, context in
            let id = SourceID(try Self.parameter("id", context))
            guard let subscription = try await reader.subscription(id, user: context.user) else { throw HTTPError(.notFound) }
            return try await list(.feed(id), title: subscription.displayName, request: request, context: context, subscription: subscription)
        }
        // A feed read as full articles shows the kept article, unless `?summary` asks otherwise.
        router.get("reader/entry/:source/:key") { request, context in
            try await entry(context, withArticle: false, summary: request.uri.queryParameters.get("summary") != nil)
        }
        // The reader view: the entry's page fetched (once, then kept) and shown in place.
        router.get("reader/entry/:source/:key/article") { _, context in try await entry(context, withArticle: true) }
        router.get("reader/entry/:source/:key/chapters") { _, context in try await episodeChapters(context) }
        router.get("reader/entry/:source/:key/transcript") { _, context in try await episodeTranscript(context) }
        router.get("reader/add") { request, context in
            AddFeedPage(address: request.uri.queryParameters.get("address") ?? "", folders: try await reader.folders(user: context.user)).page.response(for: context)
        }
        router.get("reader/feed/:id/settings") { request, context in
            let id = SourceID(try Self.parameter("id", context))
            guard let subscription = try await reader.subscription(id, user: context.user) else { throw HTTPError(.notFound) }
            let saved = request.uri.queryParameters.get("saved") != nil
            // Episodes a device may keep: only with the media proxy, which keeps them same-origin.
            var hasEpisodes = false
            if mediaThroughKiosk != nil {
                hasEpisodes = !(try await store.readingList(
                    EntryFilter(sources: [id], withFiles: true, limit: 1), user: context.user)).isEmpty
            }
            return FeedSettingsPage(
                subscription: subscription, folders: try await reader.folders(user: context.user), message: saved ? "Saved." : nil,
                suggestion: try await suggestion(for: id, user: context.user),
                notifies: try await Rules(store: store).notifiesOfEvery(id, user: context.user),
                hasEpisodes: hasEpisodes
            ).page.response(for: context)
        }
        router.get("reader/feed/:id/unsubscribe") { _, context in
            let id = SourceID(try Self.parameter("id", context))
            guard let subscription = try await reader.subscription(id, user: context.user), !subscription.isBuiltIn else { throw HTTPError(.notFound) }
            return UnsubscribePage(subscription: subscription, folders: try await reader.folders(user: context.user)).page.response(for: context)
        }
        router.get("reader/opml") { _, context in
            OPMLPage(folders: try await reader.folders(user: context.user)).page.response(for: context)
        }
        router.get("feeds.opml") { _, context in
            Response(
                status: .ok,
                headers: [
                    .contentType: "text/x-opml; charset=utf-8", .cacheControl: "no-store",
                    .contentDisposition: "attachment; filename=\"kiosk-subscriptions.opml\"",
                ],
                body: .init(byteBuffer: ByteBuffer(string: try await reader.exportOPML(user: context.user))))
        }
    }

    /// A page of a reading list. `?after=<date>_<id>` continues after a row; `?show=unread|all`
    /// picks what a feed or folder shows (all by default; All unread shows unread only).
    private func list(
        _ scope: ReadingScope, title: String, request: Request, context: KioskRequestContext,
        subscription: Subscription? = nil
    ) async throws -> Response {
        let show = request.uri.queryParameters.get("show")
        let showsRead: Bool
        switch scope {
        case .all: showsRead = false
        case .starred: showsRead = true
        case .hidden: showsRead = true
        case .folder, .feed, .search, .label: showsRead = show != "unread"
        }
        let after = request.uri.queryParameters.get("after").flatMap(Self.cursor)
        let filter = EntryFilter(
            sources: try await reader.sources(in: scope, user: context.user), unreadOnly: !showsRead, starredOnly: scope == .starred,
            label: scope.label, hidden: scope == .hidden, limit: Self.pageSize + 1, after: after)
        var entries = try await store.readingList(filter, user: context.user)
        let more = entries.count > Self.pageSize
        if more { entries.removeLast() }
        let next = more ? entries.last.map { last in
            "?after=\(last.sortDate.timeIntervalSince1970)_\(last.id)" + (show.map { "&show=\($0)" } ?? "")
        } : nil
        let subscriptions = try await reader.subscriptions(user: context.user)
        var names: [SourceID: String] = [:]
        for subscription in subscriptions { names[subscription.id] = subscription.displayName }
        // Mark all read stops at the newest entry received now, whatever its date.
        let newest = try await store.newestEntryID(sources: filter.sources, user: context.user)
        return ReaderListPage(
            scope: scope, title: title, entries: entries, names: names,
            labels: try await reader.labels(of: entries.map(\.id), user: context.user), drawings: drawings,
            counts: try await counts(subscriptions, user: context.user),
            folders: try await reader.folders(user: context.user), showsRead: showsRead, next: next, newestID: newest,
            subscription: subscription, sources: filter.sources, sequence: await live.snapshot().sequence
        ).page.response(for: context)
    }

    /// A saved search's list: its newest matching entries (all, or only unread), found by the
    /// query, in one page.
    private func searchList(_ search: SavedSearch, request: Request, context: KioskRequestContext) async throws -> Response {
        let showsRead = request.uri.queryParameters.get("show") != "unread"
        let subscriptions = try await reader.subscriptions(user: context.user)
        let entries =
            try await searches.entries(of: search, user: context.user, subscriptions: subscriptions, unreadOnly: !showsRead)
            ?? []
        var names: [SourceID: String] = [:]
        for subscription in subscriptions { names[subscription.id] = subscription.displayName }
        return ReaderListPage(
            scope: .search(search.id), title: search.name, entries: entries, names: names,
            labels: try await reader.labels(of: entries.map(\.id), user: context.user), drawings: drawings,
            counts: try await counts(subscriptions, user: context.user, search: search),
            folders: try await reader.folders(user: context.user),
            showsRead: showsRead, next: nil, newestID: 0, subscription: nil, sources: nil,
            sequence: await live.snapshot().sequence
        ).page.response(for: context)
    }

    /// Whether to suggest "Show full articles": the feed's newest entries against the articles
    /// kept for them (opened with "Full article", or fetched before).
    private func suggestion(for id: SourceID, user: UserID) async throws -> FullArticleSuggestion? {
        let entries = try await store.readingList(EntryFilter(sources: [id], limit: 20), user: user)
        var sample: [(summaryWords: Int, articleWords: Int)] = []
        for entry in entries {
            guard let article = await articles.kept(entry.id)?.article else { continue }
            sample.append((FullArticleSuggestion.words(ofSummary: entry.entry.summary ?? entry.entry.content), article.wordCount))
        }
        return FullArticleSuggestion(sample: sample)
    }

    /// `/reader/entry/<source>/<key>/chapters`: the episode's chapters as JSON for its player,
    /// `{"chapters": [{"start": 0, "title": "..."}]}`, or `{"error": "..."}` (502) saying why not.
    private func episodeChapters(_ context: KioskRequestContext) async throws -> Response {
        let (subscription, entry) = try await followedEntry(context)
        guard let link = entry.entry.episode?.chapters?.url, let episodeFiles else { throw HTTPError(.notFound) }
        let address = URLResolution.resolve(link, against: subscription.url.absoluteString)
        switch await episodeFiles.chapters(at: address) {
        case .success(let list):
            return try JSONResponse(ChapterList(chapters: list)).response
        case .failure(let failure):
            return try JSONResponse(ChapterList(chapters: [], error: "No chapters: \(failure.message)."), status: .badGateway)
                .response
        }
    }

    private struct ChapterList: Encodable, Sendable {
        var chapters: [Chapter]
        var error: String?
    }

    /// `/reader/entry/<source>/<key>/transcript`: the episode's first timed transcript (WebVTT,
    /// SRT or JSON) as `{"cues": [{"start", "end", "text"}]}`, or `{"error": "..."}` (502).
    private func episodeTranscript(_ context: KioskRequestContext) async throws -> Response {
        let (subscription, entry) = try await followedEntry(context)
        guard let (link, format) = EpisodePlayer.timedTranscript(of: entry.entry), let episodeFiles else {
            throw HTTPError(.notFound)
        }
        let address = URLResolution.resolve(link.url, against: subscription.url.absoluteString)
        switch await episodeFiles.transcript(at: address, format: format) {
        case .success(let cues):
            return try JSONResponse(CueList(cues: cues)).response
        case .failure(let failure):
            return try JSONResponse(CueList(cues: [], error: "No transcript: \(failure.message)."), status: .badGateway)
                .response
        }
    }

    private struct CueList: Encodable, Sendable {
        var cues: [TranscriptCue]
        var error: String?
    }

    /// The entry the path's `source` and `key` name, with the user's subscription to its feed;
    /// 404 for a feed the user does not follow or an entry it does not hold.
    private func followedEntry(_ context: KioskRequestContext) async throws -> (Subscription, StoredEntry) {
        let source = SourceID(try Self.parameter("source", context))
        let key = try Self.parameter("key", context)
        guard let subscription = try await reader.subscription(source, user: context.user),
            let entry = try await store.storedEntry(source: source, key: key, user: context.user)
        else { throw HTTPError(.notFound) }
        return (subscription, entry)
    }

    /// `/reader/entry/<source>/<key>`, with the full article in place when `withArticle`.
    private func entry(_ context: KioskRequestContext, withArticle: Bool, summary: Bool = false) async throws -> Response {
        let (subscription, entry) = try await followedEntry(context)
        let source = entry.source
        let key = entry.key
        let sanitizer = HTMLSanitizer(baseURL: entry.entry.link ?? subscription.siteURL, imageProxy: { signer.path(for: $0) })
        let subscriptions = try await reader.subscriptions(user: context.user)
        let articles = articles
        let read: StoredArticle? =
            if withArticle {
                await articles.article(entry: entry.id, link: entry.entry.link)
            } else if subscription.fullArticles, !summary {
                // Kept by the background passes; one still due is fetched now, as "Full article"
                // does, for a few seconds at most (then the summary, and the passes read it).
                if let kept = await articles.kept(entry.id) {
                    kept
                } else {
                    await withinDeadline(dueArticleWait) { [link = entry.entry.link, id = entry.id] in
                        await articles.article(entry: id, link: link)
                    }
                }
            } else {
                nil
            }
        let path = ReaderLinks.entry(source, key: key)
        let counts = try await counts(subscriptions, user: context.user)
        return ReaderEntryPage(
            entry: entry, feedName: subscription.displayName,
            drawing: drawings.drawing(of: source), sanitizer: sanitizer,
            article: ArticleView(
                stored: read, signer: signer, entryPath: path,
                summaryPath: subscription.fullArticles ? path + "?summary=1" : path),
            folders: try await reader.folders(user: context.user),
            unread: counts.all, sequence: await live.snapshot().sequence,
            labels: try await reader.labels(of: [entry.id], user: context.user)[entry.id] ?? [],
            knownLabels: counts.labels.keys.sorted(),
            player: EpisodePlayer(
                entry: entry.entry, feedURL: subscription.url, feedID: source.rawValue,
                mediaPath: mediaThroughKiosk == nil ? nil : { signer.mediaPath(for: $0) },
                throughKiosk: playsThroughKiosk(context),
                chaptersPath: entry.entry.episode?.chapters == nil ? nil : path + "/chapters",
                transcriptPath: EpisodePlayer.timedTranscript(of: entry.entry) == nil ? nil : path + "/transcript",
                title: EntryDrawing(style: drawings.drawing(of: source), entry: entry.entry).title,
                feedName: subscription.displayName,
                artwork: signer.path(for: entry.entry.image),
                place: EpisodePlayer.Place(
                    entryID: entry.id, path: ReaderLinks.position(source, key: key),
                    saved: entry.entry.playableMedia == nil
                        ? nil : try await places.positions(ids: [entry.id], user: context.user)[entry.id],
                    now: Date()))
        ).page.response(for: context)
    }

    /// Whether this viewer's episodes play through the media proxy: their own choice, else the
    /// server's; never without a proxy.
    private func playsThroughKiosk(_ context: KioskRequestContext) -> Bool {
        guard let mediaThroughKiosk else { return false }
        return context.account?.mediaThroughKiosk ?? mediaThroughKiosk
    }

    /// The counts a page is drawn with. Saved searches' counts (each search judged anew) only
    /// where their badges are: Reader's home, and `/reader/counts` that the script reads; a
    /// search's own page has its own, for its title.
    private func counts(
        _ subscriptions: [Subscription], user: UserID, withSearches: Bool = false, search: SavedSearch? = nil
    ) async throws -> ReaderCounts {
        let counts = try await reader.counts(user: user)
        var searchCounts: [Int64: Int] = [:]
        if withSearches {
            searchCounts = try await searches.unreadCounts(user: user, subscriptions: subscriptions)
        } else if let search {
            searchCounts[search.id] = try await searches.unreadCount(of: search, user: user, subscriptions: subscriptions)
        }
        return ReaderCounts(
            unread: counts.unread, starred: counts.starred, subscriptions: subscriptions, searches: searchCounts,
            labels: try await reader.labels(user: user))
    }

    /// A route parameter, percent-decoded (a folder may be "Tech / Swift").
    static func parameter(_ name: String, _ context: KioskRequestContext) throws -> String {
        guard let raw = context.parameters.get(name), let decoded = raw.removingPercentEncoding, !decoded.isEmpty else {
            throw HTTPError(.notFound)
        }
        return decoded
    }

    /// `<seconds>_<id>` from a "next page" link.
    static func cursor(_ text: String) -> EntryCursor? {
        let parts = text.split(separator: "_")
        guard parts.count == 2, let seconds = Double(parts[0]), seconds.isFinite, let id = Int64(parts[1]) else { return nil }
        return EntryCursor(sortDate: Date(timeIntervalSince1970: seconds), id: id)
    }
}
