import Foundation
import KioskCore
import KioskModel
import KioskSources
import KioskStore
import Logging

/// Every user's own reader: their subscriptions (the catalogue's one home), folders, and read
/// and star state. A feed several users follow is polled once. Every change is saved first, then
/// handed to the engine (what to poll) and announced (`onChange`, naming the user), so every page
/// and sync client of that user hears of it.
public actor Reader {
    public typealias ChangeHandler = @Sendable (ReaderChange) async -> Void

    private let store: any SubscriptionStore & ReadingStore & LabelStore & AllowanceLedger
    private let scheduler: any FeedScheduler
    /// The feeds handed to the scheduler at the last start or reload (reload stops the others).
    private var scheduled: Set<SourceID> = []
    /// The catalogue's and the config file's sources as defined (kind, headers): a subscription
    /// keeps only the address, the names and the interval.
    private var definitions: [SourceID: PolledSource] = [:]
    private let finder: FeedFinder
    private let policy: AddressPolicy
    private let onChange: ChangeHandler
    private let logger: Logger
    /// Each user's subscriptions, loaded on first use (an account added from the command line
    /// while Kiosk runs is read when it first signs in).
    private var lists: [UserID: [Subscription]] = [:]
    /// What every user follows: the News sources and the config file's feeds.
    private var everyones: [Subscription] = []
    /// Mark-all-read actions (and rules applied to existing entries) that can still be undone,
    /// newest last: the entries they marked read, those they starred, hid and labelled.
    private var undoable:
        [(token: String, user: UserID, ids: [Int64], starred: [Int64], hidden: [Int64], labelled: Labelled?)] = []
    /// Each user's last counts, reused for two seconds while no entry arrived (an engine's check
    /// saves entries without the reader knowing, and a badge must not lag its list) and no
    /// change was made here, even one made while they were being counted (`CountsCache`).
    private var cachedCounts = CountsCache(lifetime: .seconds(2))
    private let limits: ReaderLimits
    private let now: @Sendable () -> Date

    public init(
        store: any SubscriptionStore & ReadingStore & LabelStore & AllowanceLedger, scheduler: any FeedScheduler, finder: FeedFinder, policy: AddressPolicy,
        limits: ReaderLimits = ReaderLimits(), now: @escaping @Sendable () -> Date = { Date() },
        logger: Logger = Logger(label: "kiosk.reader"), onChange: @escaping ChangeHandler = { _ in }
    ) {
        self.limits = limits
        self.now = now
        self.store = store
        self.scheduler = scheduler
        self.finder = finder
        self.policy = policy
        self.logger = logger
        self.onChange = onChange
    }

    // MARK: - Starting

    /// Makes sure `builtIn` (the News sources, filed under "News") and `configured` (the config
    /// file's feeds) are among the feeds with their configured addresses and followed by every
    /// user (each when first seen), and has the engine poll every feed once. Users' names and
    /// folders are kept.
    public func start(builtIn: [PolledSource], configured: [PolledSource]) async throws(ReaderError)
    {
        definitions = Dictionary((builtIn + configured).map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
        let feeds = try await storing { try await self.store.feeds() }
        var wanted: [Subscription] = []
        for (feed, isBuiltIn) in builtIn.map({ ($0, true) }) + configured.map({ ($0, false) }) {
            if var existing = feeds.first(where: { $0.id == feed.id }) {
                existing.url = feed.url
                existing.interval = feed.interval
                existing.isBuiltIn = isBuiltIn
                existing.folder = isBuiltIn ? "News" : nil  // where a user first given it finds it
                wanted.append(existing)
            } else {
                wanted.append(
                    Subscription(
                        id: feed.id, url: feed.url, feedTitle: feed.name, folder: isBuiltIn ? "News" : nil,
                        interval: feed.interval, isBuiltIn: isBuiltIn))
            }
        }
        self.everyones = wanted
        // Another feed may hold a configured address: the configured one wins. A feed that
        // stopped being built in and that nobody follows goes too.
        let claimed = Set(wanted.map(\.url))
        let displaced = feeds.filter { claimed.contains($0.url) && !wanted.map(\.id).contains($0.id) }
        let everyones = wanted
        try await storing {
            for old in displaced { try await self.store.removeFeed(old.id) }
            try await self.store.saveFeeds(everyones)
        }
        lists = [:]
        // The local owner (also the first account) has the News sources from the first moment;
        // every other user gets them when first seen.
        _ = try await list(for: .owner)
        let all = try await storing { try await self.store.feeds() }
        for feed in all { await scheduler.subscribe(polled(feed)) }
        scheduled = Set(all.map(\.id))
    }

    /// What the engine polls for `subscription`: its address and interval, with the kind and
    /// headers the configuration gives its id.
    private func polled(_ subscription: Subscription) -> PolledSource {
        var source = subscription.polledSource
        if let definition = definitions[subscription.id] {
            source.kind = definition.kind
            source.headers = definition.headers
        }
        return source
    }

    /// Reads the subscriptions again after another replica changed them: the users' lists are
    /// read anew, and the engine polls exactly the feeds anyone follows.
    public func reload() async throws(ReaderError) {
        lists = [:]
        let all = try await storing { try await self.store.feeds() }
        for feed in all { await scheduler.subscribe(polled(feed)) }  // a feed already polled: no-op
        for gone in scheduled.subtracting(all.map(\.id)) { await scheduler.unsubscribe(gone) }
        scheduled = Set(all.map(\.id))
    }

    /// The user's subscriptions, loading them (and giving them what everyone follows) the first time.
    private func list(for user: UserID) async throws(ReaderError) -> [Subscription] {
        if let list = lists[user] { return list }
        var list = try await storing { try await self.store.subscriptions(user: user) }
        let missing = everyones.filter { feed in !list.contains { $0.id == feed.id } }
        if !missing.isEmpty {
            try await storing { try await self.store.saveSubscriptions(missing, user: user) }
            list = try await storing { try await self.store.subscriptions(user: user) }
        }
        lists[user] = list
        return list
    }

    // MARK: - Subscriptions

    /// The user's subscriptions, in the order they were added.
    public func subscriptions(user: UserID) async throws(ReaderError) -> [Subscription] {
        try await list(for: user)
    }

    /// How each of the user's feeds' checks have gone (absent: never checked).
    public func feedHealth(user: UserID) async throws(ReaderError) -> [SourceID: FeedHealth] {
        let followed = Set(try await list(for: user).map(\.id))
        return try await storing { try await self.store.feedHealth() }.filter { followed.contains($0.key) }
    }

    /// Changes with every change of the user's subscriptions or folders, even one undone (see
    /// `SubscriptionStore.subscriptionsVersion`): sync clients' list validators carry it.
    public func subscriptionsVersion(user: UserID) async throws(ReaderError) -> Int64 {
        _ = try await list(for: user)  // the built-in feeds are added first, which is a change too
        return try await storing { try await self.store.subscriptionsVersion(user: user) }
    }

    /// Gives the user's list a new version with nothing changed: for a write that changed nothing
    /// (a sync client subscribing to a feed already followed), so its clients look again.
    public func touchSubscriptions(user: UserID) async throws(ReaderError) {
        try await storing { try await self.store.touchSubscriptions(user: user) }
    }

    public func subscription(_ id: SourceID, user: UserID) async throws(ReaderError) -> Subscription? {
        try await list(for: user).first { $0.id == id }
    }

    /// The user's folder names, in the order they first appear (top-level feeds have none).
    public func folders(user: UserID) async throws(ReaderError) -> [String] {
        var seen = Set<String>()
        return try await list(for: user).compactMap(\.folder).filter { seen.insert($0).inserted }
    }

    /// The feeds at what the user typed (a feed or a site), to preview or pick from.
    public func find(_ address: String) async throws(FeedFinderError) -> FeedSearch {
        try await finder.find(address)
    }

    /// Subscribes to the feed found by `find`.
    @discardableResult
    public func subscribe(to feed: FoundFeed, title: String? = nil, folder: String? = nil, user: UserID)
        async throws(ReaderError) -> Subscription
    {
        try await subscribe(
            url: feed.url, feedTitle: feed.title, siteURL: feed.siteURL, title: title, folder: folder, user: user)
    }

    /// Subscribes to the feed at `url`, with what its preview said of it (the add page's form
    /// carries these between finding and subscribing).
    @discardableResult
    public func subscribe(
        url: URL, feedTitle: String?, siteURL: String?, title: String? = nil, folder: String? = nil, user: UserID
    ) async throws(ReaderError) -> Subscription {
        if let refusal = policy.refusal(for: url) { throw .refused(refusal) }
        let followed = try await list(for: user)
        if let existing = followed.first(where: { $0.url == url }) {
            // Nothing changes, yet it is a write: the list gets a new version (and nothing else,
            // so a rename under way is never undone), and a sync client holding the list's
            // validator does not hear "not modified" about the feed it just added (NetNewsWire
            // then reports it as not found).
            try await touchSubscriptions(user: user)
            throw .alreadySubscribed(existing.id)
        }
        guard followed.count < limits.subscriptionsPerAccount else { throw .limit(Self.feedLimit(limits)) }
        let feeds = try await storing { try await self.store.feeds() }
        let known = feeds.first { $0.url == url }
        let subscription = Subscription(
            id: known?.id ?? Subscription.id(for: url), url: url, title: try Self.name(title),
            feedTitle: feedTitle ?? known?.feedTitle, siteURL: siteURL ?? known?.siteURL, folder: try Self.name(folder),
            interval: known?.interval ?? Subscription.defaultInterval, isBuiltIn: known?.isBuiltIn ?? false)
        try await save([subscription], user: user)
        if known == nil { await scheduler.subscribe(polled(subscription)) }
        await onChange(.subscriptions(user: user))
        return subscription
    }

    /// Renames, files or re-times a subscription. A nil argument leaves that part as it is; an
    /// empty `title` goes back to the feed's own, an empty `folder` to the top level. The
    /// interval is the feed's, for everyone who follows it; "Show full articles" is the user's.
    @discardableResult
    public func update(
        _ id: SourceID, title: String? = nil, folder: String? = nil, interval: Duration? = nil, fullArticles: Bool? = nil,
        user: UserID
    ) async throws(ReaderError) -> Subscription {
        guard var subscription = try await subscription(id, user: user) else { throw .unknownFeed(id) }
        if let fullArticles { subscription.fullArticles = fullArticles }
        if let title { subscription.title = try Self.name(title) }
        if let folder { subscription.folder = try Self.name(folder) }
        if let interval {
            guard !subscription.isBuiltIn else { throw .builtInFeed(subscription.displayName) }
            let clamped = min(max(interval, Subscription.intervalRange.lowerBound), Subscription.intervalRange.upperBound)
            if clamped != subscription.interval {
                // How often a feed is checked is the feed's, for everyone who follows it.
                let followers = try await storing { try await self.store.followers(of: id) }
                guard followers == [user] else { throw .sharedFeed(subscription.displayName) }
                subscription.interval = clamped
                let feed = subscription
                try await storing { try await self.store.saveFeeds([feed]) }
            }
        }
        try await save([subscription], user: user)
        if interval != nil { await scheduler.subscribe(polled(subscription)) }
        await onChange(.subscriptions(user: user))
        return subscription
    }

    /// Stops following a feed and forgets what the user did with its entries; the feed itself
    /// goes when nobody follows it any more.
    public func unsubscribe(_ id: SourceID, user: UserID) async throws(ReaderError) {
        guard let subscription = try await subscription(id, user: user) else { throw .unknownFeed(id) }
        guard !subscription.isBuiltIn else { throw .builtInFeed(subscription.displayName) }
        let forgotten = try await storing { try await self.store.removeSubscription(id, user: user) }
        if forgotten { await scheduler.unsubscribe(id) }
        lists[user]?.removeAll { $0.id == id }
        cachedCounts.invalidate(user)
        await onChange(.subscriptions(user: user))
    }

    /// Renames a folder (every feed in it moves); an empty name moves them to the top level.
    public func renameFolder(_ name: String, to newName: String, user: UserID) async throws(ReaderError) {
        let target = try Self.name(newName)
        let moved = try await list(for: user).filter { $0.folder == name }.map { subscription in
            var subscription = subscription
            subscription.folder = target
            return subscription
        }
        guard !moved.isEmpty else { return }
        try await save(moved, user: user)
        await onChange(.subscriptions(user: user))
    }

    // MARK: - OPML

    /// The allowance OPML imports are counted under (`AllowanceLedger`).
    static let importAllowance = "opml-import"

    /// Adds every feed of an OPML file that the user does not already follow, all at once or,
    /// when saving fails, none. Nested outlines become folders.
    public func importOPML(_ bytes: [UInt8], user: UserID) async throws(ReaderError) -> ImportReport {
        let document: OPMLDocument
        do {
            document = try OPML.parse(bytes)
        } catch {
            throw .opml(error)
        }
        // Counted in the store: a restart does not clear it, replicas do not multiply it.
        let now = now()
        let store = store
        let limit = limits.importsPerHour
        let refusedSince = try await storing {
            try await store.spend(Self.importAllowance, account: String(user.rawValue), limit: limit, window: Duration.seconds(3_600), now: now)
        }
        if let oldest = refusedSince {
            let wait = max(1, Int((3_600 - now.timeIntervalSince(oldest)) / 60 + 0.999))
            throw .limit(
                "One account may import \(limits.importsPerHour) OPML files an hour; try again in \(wait) minute\(wait == 1 ? "" : "s").")
        }
        var report = ImportReport(skipped: document.duplicates)
        let followed = try await list(for: user)
        var room = max(0, limits.subscriptionsPerAccount - followed.count)
        var known = Set(followed.map(\.url))
        let feeds = try await storing { try await self.store.feeds() }
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
            guard room > 0 else {
                report.failed.append((item, Self.feedLimit(limits)))
                continue
            }
            room -= 1
            let existing = feeds.first { $0.url == url }
            report.added.append(
                Subscription(
                    id: existing?.id ?? Subscription.id(for: url), url: url, feedTitle: item.title ?? existing?.feedTitle,
                    siteURL: item.siteURL ?? existing?.siteURL, folder: item.folder.flatMap { try? Self.name($0) },
                    interval: existing?.interval ?? Subscription.defaultInterval,
                    isBuiltIn: existing?.isBuiltIn ?? false, addedAt: now))
        }
        guard !report.added.isEmpty else { return report }
        try await save(report.added, user: user)
        for subscription in report.added where !feeds.contains(where: { $0.id == subscription.id }) {
            await scheduler.subscribe(polled(subscription))
        }
        await onChange(.subscriptions(user: user))
        return report
    }

    /// The user's subscriptions as OPML 2.0, folders as outlines.
    public func exportOPML(now: Date = Date(), user: UserID) async throws(ReaderError) -> String {
        OPML.write(
            title: "Kiosk subscriptions",
            subscriptions: try await list(for: user).map {
                OPMLSubscription(feedURL: $0.url.absoluteString, title: $0.displayName, siteURL: $0.siteURL, folder: $0.folder)
            },
            dateCreated: now)
    }

    // MARK: - Read and star state

    /// The user's unread entries per feed and starred count, at most `countsLifetime` old and
    /// never older than the newest entry of the feeds they follow.
    public func counts(user: UserID) async throws(ReaderError) -> (unread: [SourceID: Int], starred: Int) {
        let now = ContinuousClock.now
        _ = try await list(for: user)
        let newest = try await storing { try await self.store.newestEntryID(sources: nil, user: user) }
        if let cached = cachedCounts.counts(user: user, newest: newest, now: now) {
            return (cached.unread, cached.starred)
        }
        let ticket = cachedCounts.ticket(user: user, newest: newest, now: now)
        let unread = try await storing { try await self.store.unreadCounts(user: user) }
        let starred = try await storing { try await self.store.starredCount(user: user) }
        cachedCounts.keep(CountsCache.Counts(unread: unread, starred: starred), for: ticket)
        return (unread, starred)
    }

    /// The feeds a scope reads (nil: every feed the user follows).
    public func sources(in scope: ReadingScope, user: UserID) async throws(ReaderError) -> [SourceID]? {
        switch scope {
        case .all, .starred, .search, .label, .hidden: nil
        case .folder(let name): try await list(for: user).filter { $0.folder == name }.map(\.id)
        case .feed(let id): [id]
        }
    }

    /// Marks entries read or unread; returns the ids whose state changed.
    @discardableResult
    public func setRead(_ read: Bool, ids: [Int64], user: UserID) async throws(ReaderError) -> [Int64] {
        // A hidden entry stays read: unread, it would count in its feed's badge (and a synced
        // app's) while it is out of every list. "Show it again" first, then it can be unread.
        var hidden = Set<Int64>()
        if !read, !ids.isEmpty {
            hidden = Set(try await storing { try await self.store.storedEntries(ids: ids, user: user) }.filter(\.isHidden).map(\.id))
        }
        let marked = hidden.isEmpty ? ids : ids.filter { !hidden.contains($0) }
        let changed = try await storing { try await self.store.setRead(read, ids: marked, user: user) }
        cachedCounts.invalidate(user)
        if !changed.isEmpty { await onChange(.read(user: user, ids: changed, isRead: read)) }
        return changed
    }

    /// Stars or unstars entries; returns the ids whose state changed.
    @discardableResult
    public func setStarred(_ starred: Bool, ids: [Int64], user: UserID) async throws(ReaderError) -> [Int64] {
        let changed = try await storing { try await self.store.setStarred(starred, ids: ids, user: user) }
        cachedCounts.invalidate(user)
        if !changed.isEmpty { await onChange(.starred(user: user, ids: changed, isStarred: starred)) }
        return changed
    }

    /// Most labels one user keeps.
    public static let mostLabels = 200

    /// Puts a label on entries (or takes it off); returns the ids whose labels changed. A name
    /// that cannot be a label, or a new label past `mostLabels`, is refused with a sentence.
    @discardableResult
    public func setLabel(_ name: String, _ on: Bool, ids: [Int64], user: UserID) async throws(ReaderError) -> [Int64] {
        guard let label = LabelName.normalized(name) else { throw Self.badLabel }
        if on {
            let labels = try await storing { try await self.store.labelCounts(user: user) }
            guard labels.count < Self.mostLabels || labels.contains(where: { $0.name == label }) else {
                throw .limit("You have \(Self.mostLabels) labels already: take one off its entries to make another.")
            }
        }
        let changed = try await storing { try await self.store.setLabel(label, on, ids: ids, user: user) }
        if !changed.isEmpty { await onChange(.labelled(user: user, ids: changed, label: label, isOn: on)) }
        return changed
    }

    /// The sentence for a name that cannot be a label.
    static let badLabel = ReaderError.invalidName(
        "A label is 1 to \(LabelName.maxLength) characters, with no control characters.")

    /// The user's labels with their counts, by name.
    public func labels(user: UserID) async throws(ReaderError) -> [LabelCount] {
        try await storing { try await self.store.labelCounts(user: user) }
    }

    /// The labels on each of `ids` (entries with none absent).
    public func labels(of ids: [Int64], user: UserID) async throws(ReaderError) -> [Int64: [String]] {
        guard !ids.isEmpty else { return [:] }
        return try await storing { try await self.store.entryLabels(ids: ids, user: user) }
    }

    /// Marks every unread entry of `scope` up to entry `upTo` (the newest the user saw) read.
    /// Returns how many, and a token that undoes it while it is among the last few.
    public func markAllRead(_ scope: ReadingScope, upTo: Int64, user: UserID) async throws(ReaderError)
        -> (count: Int, undo: String)
    {
        // A saved search's list is the query's, not a set of feeds: it is read entry by entry.
        if case .search = scope { throw ReaderError.refused("A saved search has no Mark all read.") }
        if case .hidden = scope { throw ReaderError.refused("Hidden entries are read already.") }
        let sources = try await sources(in: scope, user: user)
        let ids: [Int64]
        if scope == .starred || scope.label != nil {
            let starred = try await storing {
                try await self.store.readingList(
                    EntryFilter(unreadOnly: true, starredOnly: scope == .starred, label: scope.label, limit: 100_000), user: user)
            }
            ids = try await storing {
                try await self.store.setRead(true, ids: starred.map(\.id).filter { $0 <= upTo }, user: user)
            }
        } else {
            ids = try await storing { try await self.store.markAllRead(sources: sources, upTo: upTo, user: user) }
        }
        cachedCounts.invalidate(user)
        if !ids.isEmpty { await onChange(.read(user: user, ids: ids, isRead: true)) }
        return (ids.count, remember(read: ids, starred: [], user: user))
    }

    /// Marks `read` read and stars `starred` (a rule applied to the entries already there).
    /// Returns how many entries changed, and a token that undoes it while it is among the last few.
    public func apply(
        read: [Int64], starred: [Int64], hidden: [Int64] = [], labelled: Labelled? = nil, user: UserID
    ) async throws(ReaderError) -> (count: Int, undo: String) {
        // Hidden entries are read too: marked here, so undo marks them unread again.
        let marked = try await setRead(true, ids: Array(Set(read + hidden)), user: user)
        let stars = try await setStarred(true, ids: starred, user: user)
        let hid = try await setHidden(true, ids: hidden, user: user)
        var labels: Labelled?
        if let labelled {
            labels = Labelled(label: labelled.label, ids: try await setLabel(labelled.label, true, ids: labelled.ids, user: user))
        }
        return (
            Set(marked + stars + hid + (labels?.ids ?? [])).count,
            remember(read: marked, starred: stars, hidden: hid, labelled: labels, user: user)
        )
    }

    /// Hides entries (marking them read) or shows them again; returns the ids that changed.
    @discardableResult
    public func setHidden(_ hidden: Bool, ids: [Int64], user: UserID) async throws(ReaderError) -> [Int64] {
        let changed = try await storing { try await self.store.setHidden(hidden, ids: ids, user: user) }
        cachedCounts.invalidate(user)
        if !changed.isEmpty { await onChange(.hidden(user: user, ids: changed, isHidden: hidden)) }
        return changed
    }

    /// Entries a label was put on.
    public struct Labelled: Sendable, Hashable {
        public var label: String
        public var ids: [Int64]

        public init(label: String, ids: [Int64]) {
            self.label = label
            self.ids = ids
        }
    }

    private func remember(
        read: [Int64], starred: [Int64], hidden: [Int64] = [], labelled: Labelled? = nil, user: UserID
    ) -> String {
        let token = UUID().uuidString
        undoable.append((token, user, read, starred, hidden, labelled))
        if undoable.count > 64 { undoable.removeFirst(undoable.count - 64) }
        return token
    }

    /// Undoes one of the user's mark-all-reads (or rules applied): its entries are unread
    /// (and unstarred) again.
    public func undo(_ token: String, user: UserID) async throws(ReaderError) {
        guard let index = undoable.firstIndex(where: { $0.token == token && $0.user == user }) else {
            throw .undoExpired
        }
        let done = undoable.remove(at: index)
        // Shown again first: a hidden entry is never marked unread (`setRead`).
        if !done.hidden.isEmpty { try await setHidden(false, ids: done.hidden, user: user) }
        if !done.ids.isEmpty { try await setRead(false, ids: done.ids, user: user) }
        if !done.starred.isEmpty { try await setStarred(false, ids: done.starred, user: user) }
        if let labelled = done.labelled, !labelled.ids.isEmpty {
            try await setLabel(labelled.label, false, ids: labelled.ids, user: user)
        }
    }

    // MARK: - Helpers

    private func save(_ subscriptions: [Subscription], user: UserID) async throws(ReaderError) {
        cachedCounts.invalidate(user)
        try await storing {
            try await self.store.saveSubscriptions(subscriptions, user: user)
        }
        lists[user] = try await storing { try await self.store.subscriptions(user: user) }
    }

    private func storing<T: Sendable>(_ body: @Sendable () async throws -> T) async throws(ReaderError) -> T {
        do { return try await body() } catch let error as ReaderError { throw error } catch { throw .storage("\(error)") }
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

    /// The sentence for an account at its feed limit.
    static func feedLimit(_ limits: ReaderLimits) -> String {
        "One account may follow \(limits.subscriptionsPerAccount) feeds, and this one does: unsubscribe from some to add others."
    }
}
