import Foundation
import Hummingbird
import KioskCore
import KioskModel
import KioskReader
import KioskStore

// Streams: ids a page at a time, contents by id or by stream, newsboat's Atom, and read and
// star state (edit-tag, mark-all-as-read).
extension GoogleReaderAPI {
    /// `stream/items/ids`: `s` the stream; `xt` exclude (read), `it` include (read, starred);
    /// `ot`/`nt` received at or after / before (Unix seconds); `n` a page (at most 10,000);
    /// `c` the continuation; `r=o` oldest first. Ids are decimal strings.
    func itemIDs(_ call: Call) async throws -> Response {
        let limit = Self.pageSize(call.fields, default: 20, max: 10_000)
        guard var query = try await itemQuery(call, stream: call.fields.first("s")) else {
            return try Self.json(ItemIDPage(itemRefs: []), request: call.request, now: services.now())
        }
        query.limit = limit + 1
        var refs = try await services.store.itemRefs(query, user: call.user)
        let more = refs.count > limit
        if more { refs.removeLast() }
        // Written directly: a client with 10,000 unread fetches ten pages of these on every
        // sync, and JSONEncoder took most of the time.
        var json = #"{"itemRefs":["#
        json.reserveCapacity(refs.count * 96 + 64)
        var streams: [SourceID: String] = [:]
        for (index, ref) in refs.enumerated() {
            if index > 0 { json += "," }
            let stream = streams[ref.source] ?? JSONText.string(StreamID.feed(ref.source).text)
            streams[ref.source] = stream
            json += #"{"id":""#
            json += String(ref.id)
            json += #"","directStreamIds":["#
            json += stream
            json += #"],"timestampUsec":""#
            json += Self.microseconds(ref.receivedAt)
            json += #""}"#
        }
        json += "]"
        if more, let last = refs.last { json += #","continuation":""# + String(last.id) + #"""# }
        json += "}"
        return Self.jsonText(json, now: services.now())
    }

    /// `stream/items/contents`: the entries of every `i` (any id form), in the order asked.
    func itemContents(_ call: Call) async throws -> Response {
        let ids = Array(call.fields.all("i").compactMap(ItemID.parse).prefix(1_000))
        let ordered = try await services.store.storedEntries(inOrder: ids, user: call.user)
        let page = ContentsPage(
            id: StreamID.readingList.text, updated: Int64(services.now().timeIntervalSince1970),
            items: try await items(ordered, user: call.user))
        return try Self.json(page, request: call.request, now: services.now())
    }

    /// `stream/contents/<stream>` (or `?s=`): a page of a stream's entries, newest first.
    func streamContents(_ call: Call) async throws -> Response {
        let stream = call.pathStream.flatMap { $0.isEmpty ? nil : $0 } ?? call.fields.first("s") ?? StreamID.readingList.text
        let limit = Self.pageSize(call.fields, default: 20, max: 1_000)
        var entries: [StoredEntry] = []
        var more = false
        if var query = try await itemQuery(call, stream: stream) {
            query.limit = limit + 1
            var refs = try await services.store.itemRefs(query, user: call.user)
            more = refs.count > limit
            if more { refs.removeLast() }
            entries = try await services.store.storedEntries(inOrder: refs.map(\.id), user: call.user)
        }
        let page = ContentsPage(
            id: stream, title: nil, updated: Int64(services.now().timeIntervalSince1970),
            items: try await items(entries, user: call.user), continuation: more ? entries.last.map { String($0.id) } : nil)
        return try Self.json(page, request: call.request, now: services.now())
    }

    /// `edit-tag`: `i` (repeated, any id form), `a` tags to add, `r` tags to remove: read,
    /// starred, kept-unread (unread again), and labels (`user/-/label/NAME`: the entry's own
    /// labels; a feed's folder is not changed here); other tags are accepted and ignored.
    func editTag(_ call: Call) async throws -> Response {
        // At most 1,000 a call (NetNewsWire sends chunks of 1,000): one write transaction each.
        let ids = Array(call.fields.all("i").prefix(1_000).compactMap(ItemID.parse))
        guard !ids.isEmpty else { return Self.ok(now: services.now()) }
        for tag in call.fields.all("a").compactMap(StreamID.init) {
            switch tag {
            case .read: try await performing { try await services.reader.setRead(true, ids: ids, user: call.user) }
            case .keptUnread: try await performing { try await services.reader.setRead(false, ids: ids, user: call.user) }
            case .starred: try await performing { try await services.reader.setStarred(true, ids: ids, user: call.user) }
            case .label(let name): try await performing { try await services.reader.setLabel(name, true, ids: ids, user: call.user) }
            default: continue
            }
        }
        for tag in call.fields.all("r").compactMap(StreamID.init) {
            switch tag {
            case .read: try await performing { try await services.reader.setRead(false, ids: ids, user: call.user) }
            case .starred: try await performing { try await services.reader.setStarred(false, ids: ids, user: call.user) }
            case .label(let name): try await performing { try await services.reader.setLabel(name, false, ids: ids, user: call.user) }
            default: continue
            }
        }
        return Self.ok(now: services.now())
    }

    /// `mark-all-as-read`: every entry of stream `s` received by `ts` (microseconds; now when
    /// absent) is read; what arrives later stays unread.
    func markAllAsRead(_ call: Call) async throws -> Response {
        guard let stream = call.fields.first("s").flatMap(StreamID.init) else {
            throw HTTPError(.badRequest, message: "mark-all-as-read takes a stream (s).")
        }
        let scope: ReadingScope
        switch stream {
        case .readingList: scope = .all
        case .starred: scope = .starred
        case .label(let name) where name == Self.topLevel:
            // The top level is no folder of the reader: each of its feeds, one by one.
            let by = call.fields.first("ts").flatMap(Double.init).map { Date(timeIntervalSince1970: $0 / 1_000_000) } ?? services.now()
            for subscription in try await services.reader.subscriptions(user: call.user) where subscription.folder == nil {
                let upTo = try await services.store.newestEntryID(sources: [subscription.id], receivedBy: by, user: call.user)
                _ = try await performing { try await services.reader.markAllRead(.feed(subscription.id), upTo: upTo, user: call.user) }
            }
            return Self.ok(now: services.now())
        case .label(let name):
            scope = try await services.reader.folders(user: call.user).contains(name) ? .folder(name) : .label(name)
        case .feed(let id):
            guard try await services.reader.subscription(id, user: call.user) != nil else { throw HTTPError(.notFound) }
            scope = .feed(id)
        default: return Self.ok(now: services.now())
        }
        let by = call.fields.first("ts").flatMap(Double.init).map { Date(timeIntervalSince1970: $0 / 1_000_000) } ?? services.now()
        let sources = try await services.reader.sources(in: scope, user: call.user)
        let upTo = try await services.store.newestEntryID(sources: sources, receivedBy: by, user: call.user)
        _ = try await performing { try await services.reader.markAllRead(scope, upTo: upTo, user: call.user) }
        return Self.ok(now: services.now())
    }

    /// newsboat's feed: `reader/atom/<stream>?n=N`, Atom with each entry's state as Google
    /// Reader category labels (`read`, or `kept-unread` and `fresh`). Its validator is the
    /// answer's own hash, so it changes whenever an entry or its state does.
    func atom(_ call: Call) async throws -> Response {
        let stream = call.pathStream ?? ""
        let limit = Self.pageSize(call.fields, default: 20, max: 1_000)
        var entries: [StoredEntry] = []
        var title = "Kiosk"
        var siteURL: String?
        if var query = try await itemQuery(call, stream: stream) {
            query.limit = limit
            entries = try await services.store.storedEntries(inOrder: try await services.store.itemRefs(query, user: call.user).map(\.id), user: call.user)
        } else {
            throw HTTPError(.notFound, message: "No such stream: \(stream)")
        }
        let subscriptions = try await services.reader.subscriptions(user: call.user)
        if case .feed(let id) = StreamID(stream), let subscription = subscriptions.first(where: { $0.id == id }) {
            title = subscription.displayName
            siteURL = subscription.siteURL ?? subscription.url.absoluteString
        }
        let articles = try await services.store.syncArticles(
            for: entries, fullArticleFeeds: Set(subscriptions.filter(\.fullArticles).map(\.id)))
        let xml = AtomWriter.feed(
            id: stream, title: title, siteURL: siteURL, updated: services.now(), entries: entries,
            names: Dictionary(subscriptions.map { ($0.id, $0.displayName) }, uniquingKeysWith: { first, _ in first }),
            feedURLs: Dictionary(subscriptions.map { ($0.id, $0.url.absoluteString) }, uniquingKeysWith: { first, _ in first }),
            articles: articles)
        let tag = "\"" + String(StableHash.fnv1a64(xml), radix: 16) + "\""
        var headers: HTTPFields = [
            .contentType: "application/atom+xml; charset=utf-8", .cacheControl: "private, no-cache", .eTag: tag,
            .date: InternetDate.rfc822(services.now()),
        ]
        if call.request.headers[.ifNoneMatch] == tag { return Response(status: .notModified, headers: headers) }
        headers[.contentLength] = String(xml.utf8.count)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: xml)))
    }

    // MARK: - Helpers

    /// The query a stream and the call's filters (`xt`, `it`, `ot`, `nt`, `c`, `r`) make; nil
    /// when the stream holds nothing the user may see.
    private func itemQuery(_ call: Call, stream text: String?) async throws -> ItemQuery? {
        guard let stream = StreamID(text ?? StreamID.readingList.text) else { return nil }
        var query = ItemQuery()
        switch stream {
        case .readingList: break
        case .starred: query.starredOnly = true
        case .read: query.readOnly = true
        case .keptUnread: query.unreadOnly = true
        case .feed(let id):
            guard try await services.reader.subscription(id, user: call.user) != nil else { return nil }
            query.sources = [id]
        case .label(let name) where name == Self.topLevel:
            query.sources = try await services.reader.subscriptions(user: call.user).filter { Self.labelName($0) == name }.map(\.id)
        case .label(let name):
            // A folder's entries; else the entries the user put that label on.
            if try await services.reader.folders(user: call.user).contains(name) {
                query.sources = try await services.reader.sources(in: .folder(name), user: call.user)
            } else {
                query.label = name
            }
        case .otherState: return nil
        }
        for excluded in call.fields.all("xt").compactMap(StreamID.init) where excluded == .read {
            query.unreadOnly = true
        }
        for included in call.fields.all("it").compactMap(StreamID.init) {
            if included == .read { query.readOnly = true }
            if included == .starred { query.starredOnly = true }
        }
        query.receivedSince = call.fields.first("ot").flatMap(Double.init).map(Date.init(timeIntervalSince1970:))
        query.receivedBefore = call.fields.first("nt").flatMap(Double.init).map(Date.init(timeIntervalSince1970:))
        query.after = call.fields.first("c").flatMap { Int64($0) }
        query.oldestFirst = call.fields.first("r") == "o"
        return query
    }

    private func items(_ entries: [StoredEntry], user: UserID) async throws -> [ContentsPage.Item] {
        guard !entries.isEmpty else { return [] }
        let subscriptions = try await services.reader.subscriptions(user: user)
        let byID = Dictionary(subscriptions.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        // Feeds read as full articles sync their kept articles as the items' content.
        let articles = try await services.store.syncArticles(
            for: entries, fullArticleFeeds: Set(subscriptions.filter(\.fullArticles).map(\.id)))
        let labels = try await services.reader.labels(of: entries.map(\.id), user: user)
        return entries.map { stored in
            let subscription = byID[stored.source]
            let entry = stored.entry
            let site = subscription?.siteURL ?? subscription?.url.absoluteString ?? ""
            var categories = [StreamID.readingList.text]
            if let subscription { categories.append(StreamID.label(Self.labelName(subscription)).text) }
            if stored.isRead { categories.append(StreamID.read.text) }
            if stored.isStarred { categories.append(StreamID.starred.text) }
            categories += (labels[stored.id] ?? []).map { StreamID.label($0).text }
            let links = entry.link.map { [ContentsPage.Link(href: $0, type: "text/html")] } ?? []
            let published = stored.syncPublished
            return ContentsPage.Item(
                id: ItemID.long(stored.id), crawlTimeMsec: String(Int64(stored.receivedAt.timeIntervalSince1970 * 1000)),
                timestampUsec: Self.microseconds(stored.receivedAt), published: Int64(published.timeIntervalSince1970),
                updated: Int64((entry.updated ?? published).timeIntervalSince1970),
                title: stored.syncTitle, author: stored.syncAuthor, canonical: links, alternate: links,
                summary: .init(content: stored.syncHTML(base: site, articles: articles)), categories: categories,
                origin: .init(
                    streamId: StreamID.feed(stored.source).text, title: subscription?.displayName ?? stored.source.rawValue,
                    htmlUrl: site),
                enclosure: ContentsPage.Enclosure.list(of: entry, feedURL: subscription?.url.absoluteString))
        }
    }

    static func pageSize(_ fields: FormFields, default fallback: Int, max: Int) -> Int {
        min(Swift.max(1, fields.first("n").flatMap { Int($0) } ?? fallback), max)
    }

    static func microseconds(_ date: Date) -> String {
        String(Int64((date.timeIntervalSince1970 * 1_000_000).rounded()))
    }
}
