import Foundation
import Hummingbird
import KioskCore
import KioskModel
import KioskReader
import KioskStore

// Folders (labels) and subscriptions: listing, adding, editing, importing.
extension GoogleReaderAPI {
    /// Every label a subscription carries is here too (NetNewsWire stops syncing folders at the
    /// first category it cannot find in this list), as a folder; then the labels on entries,
    /// as tags (a name that is both is listed once, as the folder).
    func tagList(_ call: Call) async throws -> Response {
        var seen = Set<String>()
        let labels = try await services.reader.subscriptions(user: call.user).map(Self.labelName).filter { seen.insert($0).inserted }
        // NetNewsWire makes a folder of every `/label/` it lists, whatever its type: entry labels
        // would be empty folders there (it shows no item tags anyway), so it is not sent them.
        let isNetNewsWire = call.request.headers[.userAgent]?.contains("NetNewsWire") == true
        let entryLabels =
            isNetNewsWire
            ? [] : try await services.reader.labels(user: call.user).map(\.name).filter { seen.insert($0).inserted }
        let tags = [TagList.Tag(id: StreamID.starred.text, type: nil)]
            + labels.map { TagList.Tag(id: StreamID.label($0).text, type: "folder") }
            + entryLabels.map { TagList.Tag(id: StreamID.label($0).text, type: "tag") }
        let version = try await services.reader.subscriptionsVersion(user: call.user)
        return try Self.json(TagList(tags: tags), request: call.request, now: services.now(), validated: true, version: version)
    }

    func subscriptionList(_ call: Call) async throws -> Response {
        let list = try await services.reader.subscriptions(user: call.user).map { subscription in
            SubscriptionList.Item(
                id: StreamID.feed(subscription.id).text, title: subscription.displayName,
                categories: [
                    SubscriptionList.Category(id: StreamID.label(Self.labelName(subscription)).text, label: Self.labelName(subscription))
                ],
                url: subscription.url.absoluteString, htmlUrl: subscription.siteURL ?? subscription.url.absoluteString,
                iconUrl: "", firstitemmsec: String(Int64(subscription.addedAt.timeIntervalSince1970 * 1000)),
                sortid: String(StableHash.fnv1a64(subscription.id.rawValue) & 0xFFFF_FFFF, radix: 16))
        }
        let version = try await services.reader.subscriptionsVersion(user: call.user)
        return try Self.json(
            SubscriptionList(subscriptions: list), request: call.request, now: services.now(), validated: true, version: version)
    }

    func exportOPML(_ call: Call) async throws -> Response {
        let opml = try await services.reader.exportOPML(user: call.user)
        return Response(
            status: .ok, headers: [.contentType: "text/x-opml; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: opml)))
    }

    func unreadCount(_ call: Call) async throws -> Response {
        let subscriptions = try await services.reader.subscriptions(user: call.user)
        let counts = try await services.reader.counts(user: call.user).unread
        let stamp = String(Int64(services.now().timeIntervalSince1970 * 1_000_000))
        var byLabel: [String: Int] = [:]
        var rows: [UnreadCounts.Count] = []
        for subscription in subscriptions {
            let count = counts[subscription.id] ?? 0
            guard count > 0 else { continue }
            rows.append(.init(id: StreamID.feed(subscription.id).text, count: count, newestItemTimestampUsec: stamp))
            byLabel[Self.labelName(subscription), default: 0] += count
        }
        for (label, count) in byLabel.sorted(by: { $0.key < $1.key }) {
            rows.append(.init(id: StreamID.label(label).text, count: count, newestItemTimestampUsec: stamp))
        }
        for label in try await services.reader.labels(user: call.user) where label.unread > 0 && byLabel[label.name] == nil {
            rows.append(.init(id: StreamID.label(label.name).text, count: label.unread, newestItemTimestampUsec: stamp))
        }
        let total = rows.filter { $0.id.hasPrefix("feed/") }.reduce(0) { $0 + $1.count }
        rows.append(.init(id: StreamID.readingList.text, count: total, newestItemTimestampUsec: stamp))
        return try Self.json(UnreadCounts(max: 1_000, unreadcounts: rows), request: call.request, now: services.now(), validated: true)
    }

    /// Finds the feed at an address (a feed or a site) and subscribes to it; the answer names the
    /// new stream, which the subscription list already holds. A feed already followed is an
    /// answer too, and its list has a new validator all the same (the client fetches it again).
    func quickAdd(_ call: Call) async throws -> Response {
        let address = (call.fields.first("quickadd") ?? "").trimmingCharacters(in: .whitespaces)
        let plain = address.hasPrefix("feed/") ? String(address.dropFirst("feed/".count)) : address
        let outcome = await subscribe(plain, user: call.user)
        let result: QuickAddResult
        switch outcome {
        case .success(let subscription):
            result = QuickAddResult(
                numResults: 1, query: plain, streamId: StreamID.feed(subscription.id).text,
                streamName: subscription.displayName)
        case .failure(let message):
            result = QuickAddResult(numResults: 0, query: plain, error: message.text)
        }
        return try Self.json(result, request: call.request, now: services.now())
    }

    private struct Refusal: Error {
        var text: String
    }

    /// The subscription at `address` (found as the web's Add does), an existing one included.
    private func subscribe(_ address: String, user: UserID) async -> Result<Subscription, Refusal> {
        let feed: FoundFeed
        do throws(FeedFinderError) {
            guard let first = try await services.reader.find(address).feeds.first else { return .failure(Refusal(text: "No feed there.")) }
            feed = first
        } catch {
            return .failure(Refusal(text: error.message))
        }
        do throws(ReaderError) {
            return .success(try await services.reader.subscribe(to: feed, user: user))
        } catch {
            if case .alreadySubscribed(let id) = error, let existing = try? await services.reader.subscription(id, user: user) {
                return .success(existing)
            }
            return .failure(Refusal(text: error.message))
        }
    }

    /// `ac=subscribe|unsubscribe|edit` for each `s`, with a title (`t`) and labels to add (`a`)
    /// or remove (`r`). A feed has one folder here: adding a label files it there; removing its
    /// label moves it to the top level.
    func editSubscription(_ call: Call) async throws -> Response {
        let action = call.fields.first("ac") ?? "edit"
        let title = call.fields.first("t")
        let added = call.fields.all("a").compactMap(Self.label).last.map { $0 == Self.topLevel ? "" : $0 }
        let removed = Set(call.fields.all("r").compactMap(Self.label))
        for stream in call.fields.all("s") {
            guard case .feed(let id) = StreamID(stream) else { throw HTTPError(.badRequest, message: "Not a feed: \(stream)") }
            try await performing {
                var existing = try await services.reader.subscription(id, user: call.user)
                if action == "subscribe", existing == nil {
                    // `feed/<address>` of a feed not followed yet (older NetNewsWire, other clients).
                    guard let url = URL(string: id.rawValue), url.scheme?.hasPrefix("http") == true else {
                        throw ReaderError.unknownFeed(id)
                    }
                    existing = try await services.reader.subscribe(
                        url: url, feedTitle: nil, siteURL: nil, title: title, folder: added.flatMap { $0.isEmpty ? nil : $0 },
                        user: call.user)
                    return
                }
                guard let subscription = existing else { throw ReaderError.unknownFeed(id) }
                if action == "unsubscribe" {
                    try await services.reader.unsubscribe(subscription.id, user: call.user)
                    return
                }
                var folder: String?
                if let added {
                    folder = added
                } else if let current = subscription.folder, removed.contains(current), current != Self.topLevel {
                    folder = ""
                }
                guard title != nil || folder != nil else {
                    // Subscribing to a feed already followed changes nothing but is still a
                    // write: the list gets a new validator (see quickAdd).
                    if action == "subscribe" { try await services.reader.touchSubscriptions(user: call.user) }
                    return
                }
                try await services.reader.update(subscription.id, title: title, folder: folder, user: call.user)
            }
        }
        return Self.ok(now: services.now())
    }

    func importOPML(_ call: Call) async throws -> Response {
        // The OPML is the body itself (what FreshRSS takes), not a form.
        var request = call.request
        let body = try await Self.body(&request)
        let report = try await performing { try await services.reader.importOPML(Array(body.utf8), user: call.user) }
        return Self.text("OK\nadded=\(report.added.count) skipped=\(report.skipped.count) failed=\(report.failed.count)", now: services.now())
    }

    func renameTag(_ call: Call) async throws -> Response {
        guard let old = call.fields.first("s").flatMap(Self.label), let new = call.fields.first("dest").flatMap(Self.label) else {
            throw HTTPError(.badRequest, message: "rename-tag takes s and dest labels.")
        }
        if old == Self.topLevel {
            // The feeds at the top level go into the new folder.
            for subscription in try await services.reader.subscriptions(user: call.user) where subscription.folder == nil {
                try await performing { try await services.reader.update(subscription.id, folder: new, user: call.user) }
            }
        } else {
            try await performing {
                try await services.reader.renameFolder(old, to: new == Self.topLevel ? "" : new, user: call.user)
            }
        }
        return Self.ok(now: services.now())
    }

    /// A removed label: its feeds move to the top level (they stay followed).
    func disableTag(_ call: Call) async throws -> Response {
        for name in call.fields.all("s").compactMap(Self.label) + call.fields.all("t") where name != Self.topLevel {
            try await performing { try await services.reader.renameFolder(name, to: "", user: call.user) }
        }
        return Self.ok(now: services.now())
    }

    /// The label of feeds at the top level. NetNewsWire's FreshRSS account keeps every feed in a
    /// folder (as FreshRSS does, with this same default category), so they are given this one;
    /// filing a feed here moves it to the top level.
    static var topLevel: String { "Uncategorized" }

    static func labelName(_ subscription: Subscription) -> String { subscription.folder ?? topLevel }

    static func label(_ text: String) -> String? {
        if case .label(let name) = StreamID(text) { return name }
        return nil
    }

    /// Runs a reader change; its refusal becomes a 400 with the reader's words (an unknown feed, 404).
    @discardableResult
    func performing<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as ReaderError {
            if case .unknownFeed = error { throw HTTPError(.notFound, message: error.message) }
            throw HTTPError(.badRequest, message: error.message)
        }
    }
}
