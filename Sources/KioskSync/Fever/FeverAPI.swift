import Foundation
import Hummingbird
import KioskAccounts
import KioskCore
import KioskModel
import KioskReader
import KioskStore
import Logging

/// The Fever API (version 3), for Reeder, Unread and the other apps that speak it, at
/// `/api/fever` (clients add `?api`). Every request carries `api_key` in its body, MD5 of
/// `name:app password` (app passwords only: see `Accounts.verifyFever`). Reads are named in the query (`groups`,
/// `feeds`, `favicons`, `items` with `since_id`/`max_id`/`with_ids`, `unread_item_ids`,
/// `saved_item_ids`, `links`); writes are `mark=item|feed|group`, `as=read|unread|saved|unsaved`,
/// `id`, `before`. Feeds and groups (folders) get stable numbers from their ids and names.
public struct FeverAPI<Context: SyncRequestContext>: Sendable {
    let services: SyncServices

    public init(_ services: SyncServices) {
        self.services = services
    }

    /// At most this many items per `items` answer (Fever's own page).
    static var pageSize: Int { 50 }

    public func register(on router: Router<Context>, at path: String = "api/fever") {
        for route in [path, path + ".php"] {
            router.post(RouterPath(route)) { request, context in try await answer(request, context) }
            router.get(RouterPath(route)) { request, context in try await answer(request, context) }
        }
    }

    private func answer(_ request: Request, _ context: Context) async throws -> Response {
        var request = request
        let body: String
        do {
            body = String(buffer: try await request.collectBody(upTo: 64 << 10))
        } catch {
            throw HTTPError(.contentTooLarge)
        }
        let fields = FormFields(query: request.uri.query, body: body)
        var reply: [String: FeverValue] = ["api_version": .int(3), "auth": .int(0)]
        let found: (account: Account, appPassword: AppPassword?)
        do throws(AccountError) {
            // The key from the body only (Fever's clients POST it): an address ends up in logs.
            let key = FormFields(body).first("api_key") ?? ""
            found = try await services.accounts.verifyFever(apiKey: key, address: context.clientAddress ?? "unknown")
        } catch {
            if case .throttled(let wait) = error {
                var response = try Self.json(reply)
                response.status = .tooManyRequests
                response.headers[.retryAfter] = String(max(1, wait.components.seconds))
                return response
            }
            return try Self.json(reply)
        }
        let user = found.account.id
        reply["auth"] = .int(1)
        reply["last_refreshed_on_time"] = .int(Int64(services.now().timeIntervalSince1970))
        let subscriptions = try await services.reader.subscriptions(user: user)

        if let mark = fields.first("mark") { try await self.mark(mark, fields, subscriptions: subscriptions, user: user) }
        let has = { (name: String) in fields.pairs.contains { $0.0 == name } }
        if has("groups") || has("feeds") { reply["feeds_groups"] = .list(feedsGroups(subscriptions)) }
        if has("groups") { reply["groups"] = .list(groups(subscriptions)) }
        if has("feeds") { reply["feeds"] = .list(feeds(subscriptions)) }
        if has("favicons") { reply["favicons"] = .list([]) }
        if has("links") { reply["links"] = .list([]) }
        if has("items") {
            reply["items"] = .list(try await items(fields, subscriptions: subscriptions, user: user))
            reply["total_items"] = .int(Int64(try await services.store.itemCount(user: user)))
        }
        if has("unread_item_ids") {
            var query = ItemQuery(limit: 100_000)
            query.unreadOnly = true
            reply["unread_item_ids"] = .string(try await ids(query, user: user))
        }
        if has("saved_item_ids") {
            var query = ItemQuery(limit: 100_000)
            query.starredOnly = true
            reply["saved_item_ids"] = .string(try await ids(query, user: user))
        }
        return try Self.json(reply)
    }

    // MARK: - Reads

    private func groups(_ subscriptions: [Subscription]) -> [FeverValue] {
        var seen = Set<String>()
        return subscriptions.compactMap(\.folder).filter { seen.insert($0).inserted }.map { name in
            .object(["id": .int(Self.number(ofGroup: name)), "title": .string(name)])
        }
    }

    private func feedsGroups(_ subscriptions: [Subscription]) -> [FeverValue] {
        var byFolder: [String: [Int64]] = [:]
        var order: [String] = []
        for subscription in subscriptions {
            guard let folder = subscription.folder else { continue }
            if byFolder[folder] == nil { order.append(folder) }
            byFolder[folder, default: []].append(Self.number(ofFeed: subscription.id))
        }
        return order.map { folder in
            .object([
                "group_id": .int(Self.number(ofGroup: folder)),
                "feed_ids": .string((byFolder[folder] ?? []).map(String.init).joined(separator: ",")),
            ])
        }
    }

    private func feeds(_ subscriptions: [Subscription]) -> [FeverValue] {
        subscriptions.map { subscription in
            .object([
                "id": .int(Self.number(ofFeed: subscription.id)), "favicon_id": .int(0),
                "title": .string(subscription.displayName), "url": .string(subscription.url.absoluteString),
                "site_url": .string(subscription.siteURL ?? subscription.url.absoluteString), "is_spark": .int(0),
                "last_updated_on_time": .int(Int64(services.now().timeIntervalSince1970)),
            ])
        }
    }

    /// `items`: `with_ids` (at most 50), else after `since_id` (oldest first), else before
    /// `max_id` (newest first), else the oldest 50.
    private func items(_ fields: FormFields, subscriptions: [Subscription], user: UserID) async throws -> [FeverValue] {
        let entries: [StoredEntry]
        if let list = fields.first("with_ids") {
            let wanted = Array(list.split(separator: ",").compactMap { Int64($0.trimmingCharacters(in: .whitespaces)) }.prefix(Self.pageSize))
            entries = try await services.store.storedEntries(inOrder: Set(wanted).sorted(), user: user)
        } else {
            var query = ItemQuery(limit: Self.pageSize)
            if let since = fields.first("since_id").flatMap({ Int64($0) }) {
                query.after = since
                query.oldestFirst = true
            } else if let max = fields.first("max_id").flatMap({ Int64($0) }), max > 0 {
                query.after = max
            } else {
                query.oldestFirst = true
            }
            entries = try await services.store.storedEntries(inOrder: try await services.store.itemRefs(query, user: user).map(\.id), user: user)
        }
        // Feeds read as full articles sync their kept articles as the items' content.
        let articles = try await services.store.syncArticles(
            for: entries, fullArticleFeeds: Set(subscriptions.filter(\.fullArticles).map(\.id)))
        return entries.map { stored in
            let entry = stored.entry
            return .object([
                "id": .int(stored.id), "feed_id": .int(Self.number(ofFeed: stored.source)),
                "title": .string(stored.syncTitle), "author": .string(stored.syncAuthor ?? ""),
                "html": .string(stored.syncHTML(articles: articles)),
                "url": .string(entry.link ?? ""), "is_saved": .int(stored.isStarred ? 1 : 0),
                "is_read": .int(stored.isRead ? 1 : 0),
                "created_on_time": .int(Int64(stored.syncPublished.timeIntervalSince1970)),
            ])
        }
    }

    private func ids(_ query: ItemQuery, user: UserID) async throws -> String {
        try await services.store.itemRefs(query, user: user).map { String($0.id) }.joined(separator: ",")
    }

    // MARK: - Writes

    private func mark(_ kind: String, _ fields: FormFields, subscriptions: [Subscription], user: UserID) async throws {
        guard let id = fields.first("id").flatMap({ Int64($0) }) else { return }
        let action = fields.first("as") ?? ""
        do {
            switch kind {
            case "item":
                switch action {
                case "read": try await services.reader.setRead(true, ids: [id], user: user)
                case "unread": try await services.reader.setRead(false, ids: [id], user: user)
                case "saved": try await services.reader.setStarred(true, ids: [id], user: user)
                case "unsaved": try await services.reader.setStarred(false, ids: [id], user: user)
                default: return
                }
            case "feed", "group":
                guard action == "read" else { return }
                let scope: ReadingScope
                if kind == "feed" {
                    guard let feed = subscriptions.first(where: { Self.number(ofFeed: $0.id) == id }) else { return }
                    scope = .feed(feed.id)
                } else if id == 0 {
                    scope = .all
                } else {
                    guard let folder = subscriptions.compactMap(\.folder).first(where: { Self.number(ofGroup: $0) == id }) else {
                        return
                    }
                    scope = .folder(folder)
                }
                let before = fields.first("before").flatMap(Double.init).map(Date.init(timeIntervalSince1970:)) ?? services.now()
                let sources = try await services.reader.sources(in: scope, user: user)
                let upTo = try await services.store.newestEntryID(sources: sources, receivedBy: before, user: user)
                _ = try await services.reader.markAllRead(scope, upTo: upTo, user: user)
            default:
                return
            }
        } catch let error as ReaderError {
            services.logger.notice("a Fever change was refused", metadata: ["reason": "\(error.message)"])
        }
    }

    // MARK: - Helpers

    /// A feed's Fever number: stable, from its id (53 bits, exact in any client's JSON numbers).
    static func number(ofFeed id: SourceID) -> Int64 { number("feed:" + id.rawValue) }

    static func number(ofGroup name: String) -> Int64 { number("group:" + name) }

    private static func number(_ text: String) -> Int64 {
        Int64(StableHash.fnv1a64(text) & 0x1F_FFFF_FFFF_FFFF) | 1
    }

    static func json(_ reply: [String: FeverValue]) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(reply)
        return Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// A JSON value of a Fever answer (its shapes vary by what was asked).
enum FeverValue: Encodable, Sendable {
    case int(Int64)
    case string(String)
    case list([FeverValue])
    case object([String: FeverValue])

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .int(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .list(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}
