import Foundation
import Hummingbird
import KioskCore
import KioskModel
import KioskReader
import KioskSources
import KioskStore

/// `POST /opened`: the page the reader just opened tells Home (in every tab) which headline it
/// was. Opening a page is a GET and changes nothing; this beacon does, sent by the script, so a
/// cross-site `<img>` cannot (it is a POST behind `SameOriginMiddleware`), and a client that
/// sends a flood of them is heard at most every `OpenedLimiter.spacing`.
struct OpenedRoute: Sendable {
    let news: NewsSections
    let store: any KioskStore
    let reader: Reader
    let live: LiveBroadcaster
    let shelf: ArticleShelf
    let limiter = OpenedLimiter()

    private struct Opened: Decodable { var path: String }

    func register(on router: Router<KioskRequestContext>) {
        router.post("opened") { request, context in
            let form = try await FormBody.decode(Opened.self, from: request, limit: 4_096)
            let path = Self.headlinePath(form.path)
            guard let title = await title(of: path, user: context.user) else { throw HTTPError(.notFound) }
            if await limiter.admit(context.clientID, now: ContinuousClock.now) {
                await live.recordOpened(title: title, path: path, user: context.user)
            }
            return Response(status: .noContent)
        }
    }

    /// An entry read as its full article (`/news/…/article`, `/reader/entry/…/article`) is the
    /// same headline, remembered at its own page.
    static func headlinePath(_ path: String) -> String {
        guard path.hasSuffix("/article"), path.hasPrefix("/news/") || path.hasPrefix("/reader/entry/") else { return path }
        return String(path.dropLast("/article".count))
    }

    /// The headline at `path` (a News, Discover or reader detail), or nil when there is none.
    private func title(of path: String, user: UserID) async -> String? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        switch parts.count {
        case 4 where parts[1] == "news":
            let source = SourceID(parts[2])
            guard news.shows(source) else { return nil }
            let state = await live.snapshot()
            var found = state.entries[source]?.first(where: { EntryIdentity.key(of: $0) == parts[3] })
            if found == nil {
                found = (try? await store.storedEntry(source: source, key: parts[3], user: user))?.entry
            }
            return found.map { $0.title.flatMap { $0.isEmpty ? nil : $0 } ?? "Untitled" }
        case 4 where parts[1] == "discover" && parts[2] == "articles":
            return await shelf.article(parts[3]).map { $0.title ?? "Untitled" }
        case 5 where parts[1] == "reader" && parts[2] == "entry":
            guard let source = parts[3].removingPercentEncoding, let key = parts[4].removingPercentEncoding,
                (try? await reader.subscription(SourceID(source), user: user)) != nil
            else { return nil }
            let entry = try? await store.storedEntry(source: SourceID(source), key: key, user: user)
            return entry.map { $0.entry.title.flatMap { $0.isEmpty ? nil : $0 } ?? "Untitled" }
        default:
            return nil
        }
    }
}

/// At most one "opened" per client every `spacing`, and at most `perSecond` from everyone: two
/// detail pages alternated as fast as a script can must not become an event to every open page
/// per request.
actor OpenedLimiter {
    static let spacing: Duration = .milliseconds(500)
    static let perSecond = 20
    private var last: [String: ContinuousClock.Instant] = [:]
    private var windowStart: ContinuousClock.Instant?
    private var inWindow = 0

    func admit(_ client: String, now: ContinuousClock.Instant) -> Bool {
        if let previous = last[client], now - previous < Self.spacing { return false }
        if let start = windowStart, now - start < .seconds(1) {
            guard inWindow < Self.perSecond else { return false }
            inWindow += 1
        } else {
            windowStart = now
            inWindow = 1
        }
        // Bounded: a crowd of clients costs a reset, not memory.
        if last.count >= 10_000 { last.removeAll() }
        last[client] = now
        return true
    }
}
