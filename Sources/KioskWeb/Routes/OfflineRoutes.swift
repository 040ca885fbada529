import Foundation
import Hummingbird
import KioskCore
import KioskModel
import KioskReader
import KioskSources
import KioskStore

/// Reading without a network: the bundle the installed app keeps (`/reader/offline.json`) and
/// the page that shows it when the server cannot be reached (`/offline/reader`).
struct OfflineRoutes: Sendable {
    let reader: Reader
    let store: any KioskStore
    let drawings: EntryDrawings
    let signer: ImageSigner

    func register(on router: Router<KioskRequestContext>) {
        router.get("offline/reader") { _, _ in OfflineReaderPage().page.response }
        router.get("reader/offline.json") { request, context in
            let limit = OfflineBundle.limit(request.uri.queryParameters.get("limit").flatMap { Int($0) })
            return try JSONResponse(try await bundle(limit: limit, user: context.user)).response
        }
    }

    private func bundle(limit: Int, user: UserID) async throws -> OfflineBundle {
        let subscriptions = try await reader.subscriptions(user: user)
        let counts = try await reader.counts(user: user)
        let entries = try await store.readingList(
            EntryFilter(sources: try await reader.sources(in: .all, user: user), unreadOnly: true, limit: limit), user: user)
        let articles = try await store.articles(entries: entries.map(\.id))
        var names: [SourceID: String] = [:]
        var sites: [SourceID: String] = [:]
        for subscription in subscriptions {
            names[subscription.id] = subscription.displayName
            sites[subscription.id] = subscription.siteURL
        }
        let items = entries.map { entry in
            OfflineBundle.item(
                entry, feedTitle: names[entry.source] ?? entry.source.rawValue, drawing: drawings.drawing(of: entry.source),
                article: articles[entry.id], signer: signer, siteURL: sites[entry.source])
        }
        return OfflineBundle(
            account: Self.account(user), savedAt: ISO8601DateFormatter().string(from: Date()), limit: limit,
            unread: counts.unread.values.reduce(0, +),
            feeds: subscriptions.map { OfflineBundle.Feed(id: $0.id.rawValue, title: $0.displayName, unread: counts.unread[$0.id] ?? 0) },
            entries: items)
    }

    /// Whose reader: the owner's, or an account's number (the device only compares it).
    static func account(_ user: UserID) -> String { String(user.rawValue) }
}
