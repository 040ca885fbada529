import Foundation
import KioskCore
import KioskSources
import KioskStore
import Logging

/// The user's own reader: their subscriptions (the catalogue's one home), folders, and read and
/// star state. Every change is saved first, then handed to the engine (what to poll) and
/// announced (`onChange`), so every open page and, later, every sync client hears of it.
public actor Reader {
    public typealias ChangeHandler = @Sendable (ReaderChange) async -> Void

    private let store: any KioskStore
    private let scheduler: any FeedScheduler
    private let finder: FeedFinder
    private let policy: AddressPolicy
    private let onChange: ChangeHandler
    private let logger: Logger
    private var list: [Subscription] = []
    /// Mark-all-read actions that can still be undone, newest last.
    private var undoable: [(token: String, ids: [Int64])] = []
    /// The last counts read, and when: every page shows them, and counting a million entries
    /// takes tens of milliseconds. A change made here drops them at once; entries the engine
    /// brings show within `countsLifetime`.
    private var cachedCounts: (unread: [SourceID: Int], starred: Int, at: ContinuousClock.Instant)?
    private let countsLifetime: Duration = .seconds(2)

    public init(
        store: any KioskStore, scheduler: any FeedScheduler, finder: FeedFinder, policy: AddressPolicy,
        logger: Logger = Logger(label: "kiosk.reader"), onChange: @escaping ChangeHandler = { _ in }
    ) {
        self.store = store
        self.scheduler = scheduler
        self.finder = finder
        self.policy = policy
        self.logger = logger
        self.onChange = onChange
    }

    // MARK: - Starting

    /// Loads the subscriptions, makes sure `builtIn` (the News sources, filed under "News") and
    /// `configured` (the config file's feeds) are among them with their configured addresses,
    /// and has the engine poll them all. The user's names and folders are kept.
    public func start(builtIn: [PolledSource], configured: [PolledSource]) async throws(ReaderError) {
        do {
            list = try await store.subscriptions()
        } catch {
            throw .storage("\(error)")
        }
        var changed: [Subscription] = []
        for (feed, isBuiltIn) in builtIn.map({ ($0, true) }) + configured.map({ ($0, false) }) {
            if var existing = list.first(where: { $0.id == feed.id }) {
                guard existing.url != feed.url || existing.interval != feed.interval || existing.isBuiltIn != isBuiltIn
                else { continue }
                existing.url = feed.url
                existing.interval = feed.interval
                existing.isBuiltIn = isBuiltIn
                changed.append(existing)
            } else {
                changed.append(
                    Subscription(
                        id: feed.id, url: feed.url, feedTitle: feed.name, folder: isBuiltIn ? "News" : nil,
                        interval: feed.interval, isBuiltIn: isBuiltIn))
            }
        }
        // Another subscription may hold a configured address: the configured one wins.
        let claimed = Set(changed.map(\.url))
        let displaced = list.filter { claimed.contains($0.url) && !changed.map(\.id).contains($0.id) }
        do {
            for old in displaced { try await store.removeSubscription(old.id) }
            if !changed.isEmpty { try await store.saveSubscriptions(changed) }
            list = try await store.subscriptions()
        } catch {
            throw .storage("\(error)")
        }
        for subscription in list { await scheduler.subscribe(subscription.polledSource) }
    }

    // MARK: - Subscriptions

    public func subscriptions() -> [Subscription] { list }

    public func subscription(_ id: SourceID) -> Subscription? { list.first { $0.id == id } }

    /// Folder names in use, in the order they first appear (top-level feeds have none).
    public func folders() -> [String] {
        var seen = Set<String>()
        return list.compactMap(\.folder).filter { seen.insert($0).inserted }
    }

    /// The feeds at what the user typed (a feed or a site), to preview or pick from.
    public func find(_ address: String) async throws(FeedFinderError) -> FeedSearch {
        try await finder.find(address)
    }

    /// Subscribes to the feed found by `find`.
    @discardableResult
    public func subscribe(to feed: FoundFeed, title: String? = nil, folder: String? = nil) async throws(ReaderError)
        -> Subscription
    {
        try await subscribe(url: feed.url, feedTitle: feed.title, siteURL: feed.siteURL, title: title, folder: folder)
    }

    /// Subscribes to the feed at `url`, with what its preview said of it (the add page's form
    /// carries these between finding and subscribing).
    @discardableResult
    public func subscribe(
        url: URL, feedTitle: String?, siteURL: String?, title: String? = nil, folder: String? = nil
    ) async throws(ReaderError) -> Subscription {
        if let refusal = policy.refusal(for: url) { throw .refused(refusal) }
        if let existing = list.first(where: { $0.url == url }) { throw .alreadySubscribed(existing.id) }
        let subscription = Subscription(
            id: Subscription.id(for: url), url: url, title: try Self.name(title), feedTitle: feedTitle,
            siteURL: siteURL, folder: try Self.name(folder))
        try await save([subscription])
        await scheduler.subscribe(subscription.polledSource)
        await onChange(.subscriptions)
        return subscription
    }

    /// Renames, files or re-times a subscription. A nil argument leaves that part as it is; an
    /// empty `title` goes back to the feed's own, an empty `folder` to the top level.
    @discardableResult
    public func update(_ id: SourceID, title: String? = nil, folder: String? = nil, interval: Duration? = nil)
        async throws(ReaderError) -> Subscription
    {
        guard var subscription = subscription(id) else { throw .unknownFeed(id) }
        if let title { subscription.title = try Self.name(title) }
        if let folder { subscription.folder = try Self.name(folder) }
        if let interval {
            guard !subscription.isBuiltIn else { throw .builtInFeed(subscription.displayName) }
            subscription.interval = min(max(interval, Subscription.intervalRange.lowerBound), Subscription.intervalRange.upperBound)
        }
        try await save([subscription])
        await scheduler.subscribe(subscription.polledSource)
        await onChange(.subscriptions)
        return subscription
    }

    /// Stops following a feed and forgets its entries.
    public func unsubscribe(_ id: SourceID) async throws(ReaderError) {
        guard let subscription = subscription(id) else { throw .unknownFeed(id) }
        guard !subscription.isBuiltIn else { throw .builtInFeed(subscription.displayName) }
        await scheduler.unsubscribe(id)
        do {
            try await store.removeSubscription(id)
        } catch {
            throw .storage("\(error)")
        }
        list.removeAll { $0.id == id }
        cachedCounts = nil
        await onChange(.subscriptions)
    }

    /// Renames a folder (every feed in it moves); an empty name moves them to the top level.
    public func renameFolder(_ name: String, to newName: String) async throws(ReaderError) {
        let target = try Self.name(newName)
        let moved = list.filter { $0.folder == name }.map { subscription in
            var subscription = subscription
            subscription.folder = target
            return subscription
        }
        guard !moved.isEmpty else { return }
        try await save(moved)
        await onChange(.subscriptions)
    }

    // MARK: - OPML

    /// Adds every feed of an OPML file that is not already followed, all at once or, when
    /// saving fails, none. Nested outlines become folders.
    public func importOPML(_ bytes: [UInt8]) async throws(ReaderError) -> ImportReport {
        let document: OPMLDocument
        do {
            document = try OPML.parse(bytes)
        } catch {
            throw .opml(error)
        }
        var report = ImportReport(skipped: document.duplicates)
        var known = Set(list.map(\.url))
        let now = Date()
        for item in document.subscriptions {
            guard let url = URL(string: item.feedURL), let scheme = url.scheme?.lowercased(),
                scheme == "http" || scheme == "https", url.host?.isEmpty == false
            else {
                report.failed.append((item, "not an http(s) address"))
                continue
            }
            if let refusal = policy.refusal(for: url) {
                report.failed.append((item, refusal))
                continue
            }
            guard known.insert(url).inserted else {
                report.skipped.append(item)
                continue
            }
            report.added.append(
                Subscription(
                    id: Subscription.id(for: url), url: url, feedTitle: item.title, siteURL: item.siteURL,
                    folder: item.folder.flatMap { try? Self.name($0) }, addedAt: now))
        }
        guard !report.added.isEmpty else { return report }
        try await save(report.added)
        for subscription in report.added { await scheduler.subscribe(subscription.polledSource) }
        await onChange(.subscriptions)
        return report
    }

    /// Every subscription as OPML 2.0, folders as outlines.
    public func exportOPML(now: Date = Date()) -> String {
        OPML.write(
            title: "Kiosk subscriptions",
            subscriptions: list.map {
                OPMLSubscription(feedURL: $0.url.absoluteString, title: $0.displayName, siteURL: $0.siteURL, folder: $0.folder)
            },
            dateCreated: now)
    }

    // MARK: - Read and star state

    /// Unread entries per feed and the starred count, at most `countsLifetime` old.
    public func counts() async throws(ReaderError) -> (unread: [SourceID: Int], starred: Int) {
        let now = ContinuousClock.now
        if let cached = cachedCounts, now - cached.at < countsLifetime { return (cached.unread, cached.starred) }
        let unread = try await storing { try await self.store.unreadCounts() }
        let starred = try await storing { try await self.store.starredCount() }
        cachedCounts = (unread, starred, now)
        return (unread, starred)
    }

    /// The feeds a scope reads (nil: every feed).
    public func sources(in scope: ReadingScope) -> [SourceID]? {
        switch scope {
        case .all, .starred: nil
        case .folder(let name): list.filter { $0.folder == name }.map(\.id)
        case .feed(let id): [id]
        }
    }

    public func setRead(_ read: Bool, ids: [Int64]) async throws(ReaderError) {
        let changed = try await storing { try await self.store.setRead(read, ids: ids) }
        cachedCounts = nil
        if !changed.isEmpty { await onChange(.read(ids: changed, isRead: read)) }
    }

    public func setStarred(_ starred: Bool, ids: [Int64]) async throws(ReaderError) {
        let changed = try await storing { try await self.store.setStarred(starred, ids: ids) }
        cachedCounts = nil
        if !changed.isEmpty { await onChange(.starred(ids: changed, isStarred: starred)) }
    }

    /// Marks every unread entry of `scope` up to entry `upTo` (the newest the user saw) read.
    /// Returns how many, and a token that undoes it while it is among the last few.
    public func markAllRead(_ scope: ReadingScope, upTo: Int64) async throws(ReaderError) -> (count: Int, undo: String) {
        let sources = sources(in: scope)
        let ids: [Int64]
        if case .starred = scope {
            let starred = try await storing {
                try await self.store.readingList(EntryFilter(unreadOnly: true, starredOnly: true, limit: 100_000))
            }
            ids = try await storing { try await self.store.setRead(true, ids: starred.map(\.id).filter { $0 <= upTo }) }
        } else {
            ids = try await storing { try await self.store.markAllRead(sources: sources, upTo: upTo) }
        }
        let token = UUID().uuidString
        undoable.append((token, ids))
        if undoable.count > 32 { undoable.removeFirst(undoable.count - 32) }
        cachedCounts = nil
        if !ids.isEmpty { await onChange(.read(ids: ids, isRead: true)) }
        return (ids.count, token)
    }

    /// Undoes a mark-all-read: its entries are unread again.
    public func undo(_ token: String) async throws(ReaderError) {
        guard let index = undoable.firstIndex(where: { $0.token == token }) else { throw .undoExpired }
        let ids = undoable.remove(at: index).ids
        try await setRead(false, ids: ids)
    }

    // MARK: - Helpers

    private func save(_ subscriptions: [Subscription]) async throws(ReaderError) {
        cachedCounts = nil
        do {
            try await store.saveSubscriptions(subscriptions)
            list = try await store.subscriptions()
        } catch {
            throw .storage("\(error)")
        }
    }

    private func storing<T: Sendable>(_ body: @Sendable () async throws -> T) async throws(ReaderError) -> T {
        do { return try await body() } catch { throw .storage("\(error)") }
    }

    /// A user-given name: trimmed, at most 200 characters, no control characters; "" is nil.
    static func name(_ text: String?) throws(ReaderError) -> String? {
        guard let text else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return nil }
        guard trimmed.count <= 200 else { throw .invalidName("Names are at most 200 characters.") }
        guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .invalidName("Names cannot contain control characters.")
        }
        return trimmed
    }
}
