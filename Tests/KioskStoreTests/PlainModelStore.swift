import Foundation
import KioskCore
import KioskModel
import KioskSources
import KioskStore

/// The plain model the read-state model test checks SQLite against (`ReadStateModelTests`): a
/// `KioskStore` in dictionaries, one read flag per entry where SQLite keeps a mark per feed plus
/// exceptions. It is a test's oracle, not a store: the app and the other tests use SQLite (in
/// memory where no file is wanted).
actor PlainModelStore: KioskStore {
    private let allowances = MemoryAllowanceLedger()
    private var states: [SourceID: SourceState] = [:]
    private var opened: [UserID: OpenedHeadline] = [:]
    private var device: UUID?
    /// Web Push devices and kept values (not modelled further).
    private var devices: [PushDevice] = []
    private var kept: [String: String] = [:]
    /// Each user's hidden entries.
    private var hiddenIDs: [UserID: Set<Int64>] = [:]
    /// Each user's place in episodes (not pruned with entries: the model test plays none).
    private var playback: [UserID: [Int64: PlaybackPosition]] = [:]
    /// Each user's labels and the entries carrying them.
    private var labelled: [UserID: [String: Set<Int64>]] = [:]
    /// Every feed anyone follows (no user's name or folder).
    private var feedList: [Subscription] = []
    /// Each user's feeds: the feed's id, their name and folder for it.
    private var follows: [UserID: [Subscription]] = [:]
    private var readIDs: [UserID: Set<Int64>] = [:]
    private var starredIDs: [UserID: Set<Int64>] = [:]
    private var table = ReadingTable()
    private var users: [Account] = []
    private var passwordHashes: [UserID: String] = [:]
    private var nextUser: Int64 = 1
    private var appPasswordList: [(password: AppPassword, hash: String)] = []
    private var nextAppPassword: Int64 = 1
    private var sessionList: [String: StoredSession] = [:]
    private var feverKeys: [String: (user: UserID, appPassword: Int64?)] = [:]
    private var signInFailureList: [(account: String, address: String, at: Date, cleared: Bool)] = []
    private var searchList: [(user: UserID, search: SavedSearch)] = []
    private var nextSearch: Int64 = 0
    /// Kept, never run: the model test writes no rules (the stores' own tests check them).
    private var ruleList: [(user: UserID, rule: Rule)] = []

    /// A store remembering `states` (as if each had been saved).
    init(states: [SourceID: SourceState] = [:]) {
        self.states = states.mapValues(Self.deduplicated)
        var table = ReadingTable()
        for (id, state) in states { table.keep(state.entries ?? [], of: id, now: Date()) }
        self.table = table
    }

    func loadSourceStates() -> [SourceID: SourceState] { states }

    func saveSourceState(_ state: SourceState, for id: SourceID) {
        states[id] = Self.deduplicated(state)
        if let entries = state.entries {
            table.keep(entries, of: id, now: Date())
        } else {
            table.forget(id)
        }
    }

    // MARK: - Reading

    /// The entry as `user` sees it, if they follow its feed.
    private func view(_ stored: StoredEntry, for user: UserID) -> StoredEntry? {
        guard followed(by: user).contains(stored.source) else { return nil }
        var stored = stored
        stored.isRead = readIDs[user, default: []].contains(stored.id)
        stored.isStarred = starredIDs[user, default: []].contains(stored.id)
        stored.isHidden = hiddenIDs[user, default: []].contains(stored.id)
        return stored
    }

    private func followed(by user: UserID) -> Set<SourceID> { Set((follows[user] ?? []).map(\.id)) }

    private func visible(to user: UserID) -> [StoredEntry] { table.kept.values.compactMap { view($0, for: user) } }

    func readingList(_ filter: EntryFilter, user: UserID) -> [StoredEntry] {
        let sources = filter.sources.map(Set.init)
        let matching = visible(to: user).filter { stored in
            (sources?.contains(stored.source) ?? true) && (!filter.unreadOnly || !stored.isRead)
                && (!filter.starredOnly || stored.isStarred) && stored.isHidden == filter.hidden
                && (!filter.withFiles || !stored.entry.enclosures.isEmpty || !(stored.entry.media ?? []).isEmpty)
                && filter.after.map { stored.sortDate < $0.sortDate || (stored.sortDate == $0.sortDate && stored.id < $0.id) } ?? true
        }
        return Array(
            matching.sorted { ($0.sortDate, $0.id) > ($1.sortDate, $1.id) }.prefix(max(0, filter.limit)))
    }

    func storedEntry(source: SourceID, key: String, user: UserID) -> StoredEntry? {
        visible(to: user).filter { $0.source == source && $0.key == key }.max {
            (table.inFeed.contains($0.id) ? 1 : 0) < (table.inFeed.contains($1.id) ? 1 : 0)
        }
    }

    func storedEntries(ids: [Int64], user: UserID) -> [StoredEntry] {
        ids.compactMap { id in table.kept[id].flatMap { view($0, for: user) } }
    }

    func newestEntryID(sources: [SourceID]?, user: UserID) -> Int64 {
        newestEntryID(sources: sources, receivedBy: .distantFuture, user: user)
    }

    func itemRefs(_ query: ItemQuery, user: UserID) -> [ItemRef] {
        let only = query.sources.map(Set.init)
        let matching = visible(to: user).filter { stored in
            (only?.contains(stored.source) ?? true) && (!query.unreadOnly || !stored.isRead)
                && (!query.readOnly || stored.isRead) && (!query.starredOnly || stored.isStarred) && !stored.isHidden
                && query.receivedSince.map { stored.receivedAt >= $0 } ?? true
                && query.receivedBefore.map { stored.receivedAt < $0 } ?? true
                && query.after.map { query.oldestFirst ? stored.id > $0 : stored.id < $0 } ?? true
        }
        let ordered = matching.sorted { query.oldestFirst ? $0.id < $1.id : $0.id > $1.id }
        return ordered.prefix(max(0, query.limit)).map { ItemRef(id: $0.id, source: $0.source, receivedAt: $0.receivedAt) }
    }

    func newestEntryID(sources: [SourceID]?, receivedBy date: Date, user: UserID) -> Int64 {
        let only = sources.map(Set.init)
        return visible(to: user).filter { (only?.contains($0.source) ?? true) && $0.receivedAt <= date }.map(\.id).max() ?? 0
    }

    func unreadCounts(user: UserID) -> [SourceID: Int] {
        var counts: [SourceID: Int] = [:]
        for stored in visible(to: user) where !stored.isRead { counts[stored.source, default: 0] += 1 }
        return counts
    }

    func starredCount(user: UserID) -> Int { visible(to: user).filter(\.isStarred).count }

    func setRead(_ read: Bool, ids: [Int64], user: UserID) -> [Int64] {
        ids.filter { id in
            guard let stored = table.kept[id].flatMap({ view($0, for: user) }), stored.isRead != read else { return false }
            if read { readIDs[user, default: []].insert(id) } else { readIDs[user]?.remove(id) }
            return true
        }
    }

    func setHidden(_ hidden: Bool, ids: [Int64], user: UserID) -> [Int64] {
        if hidden { _ = setRead(true, ids: ids, user: user) }
        return ids.filter { id in
            guard let stored = table.kept[id].flatMap({ view($0, for: user) }), stored.isHidden != hidden else { return false }
            if hidden { hiddenIDs[user, default: []].insert(id) } else { hiddenIDs[user]?.remove(id) }
            return true
        }
    }

    func setStarred(_ starred: Bool, ids: [Int64], user: UserID) -> [Int64] {
        ids.filter { id in
            guard let stored = table.kept[id].flatMap({ view($0, for: user) }), stored.isStarred != starred else {
                return false
            }
            if starred { starredIDs[user, default: []].insert(id) } else { starredIDs[user]?.remove(id) }
            return true
        }
    }

    func markAllRead(sources: [SourceID]?, upTo: Int64, user: UserID) -> [Int64] {
        let only = sources.map(Set.init)
        let ids = visible(to: user).filter { !$0.isRead && $0.id <= upTo && (only?.contains($0.source) ?? true) }.map(\.id)
        readIDs[user, default: []].formUnion(ids)
        return ids.sorted()
    }

    private func starredByAnyone(_ id: Int64) -> Bool { starredIDs.values.contains { $0.contains(id) } }

    @discardableResult
    func prune(_ policy: RetentionPolicy, now: Date) -> Int {
        let cutoff = now.addingTimeInterval(-Double(policy.maxAge.components.seconds))
        var removed = 0
        for (id, stored) in table.kept
        where !table.inFeed.contains(id) && !starredByAnyone(id) && stored.receivedAt < cutoff {
            table.kept[id] = nil
            removed += 1
        }
        for source in Set(table.kept.values.map(\.source)) {
            let newestFirst = table.kept.values.filter { $0.source == source }.sorted { ($0.sortDate, $0.id) > ($1.sortDate, $1.id) }
            for stored in newestFirst.dropFirst(max(0, policy.maxPerFeed))
            where !table.inFeed.contains(stored.id) && !starredByAnyone(stored.id) {
                table.kept[stored.id] = nil
                removed += 1
            }
        }
        return removed
    }

    func entries(for source: SourceID) -> [Entry] { states[source]?.entries ?? [] }

    // MARK: - Subscriptions

    func feeds() -> [Subscription] { feedList }

    func saveFeeds(_ feeds: [Subscription]) throws(StoreError) {
        var next = feedList
        for feed in feeds {
            var feed = feed
            feed.title = nil
            feed.folder = nil
            if let index = next.firstIndex(where: { $0.id == feed.id }) {
                feed.addedAt = next[index].addedAt
                feed.feedTitle = feed.feedTitle ?? next[index].feedTitle
                feed.siteURL = feed.siteURL ?? next[index].siteURL
                next[index] = feed
            } else {
                next.append(feed)
            }
        }
        // The same promise as SQLite's UNIQUE (url): all or nothing.
        guard Set(next.map(\.url)).count == next.count else {
            throw .other("a feed with that address is already subscribed")
        }
        feedList = next
    }

    func subscriptions(user: UserID) -> [Subscription] {
        (follows[user] ?? []).compactMap { mine in
            guard var feed = feedList.first(where: { $0.id == mine.id }) else { return nil }
            feed.title = mine.title
            feed.folder = mine.folder
            feed.addedAt = mine.addedAt
            return feed
        }
    }

    private var versions: [UserID: Int64] = [:]

    func subscriptionsVersion(user: UserID) -> Int64 { versions[user] ?? 0 }

    func touchSubscriptions(user: UserID) { versions[user, default: 0] += 1 }

    func feedHealth() -> [SourceID: FeedHealth] {
        states.mapValues { FeedHealth(lastSuccess: $0.lastSuccess, lastFailure: $0.lastFailure, lastError: $0.lastError?.description) }
    }

    func saveSubscriptions(_ subscriptions: [Subscription], user: UserID) throws(StoreError) {
        versions[user, default: 0] += 1
        // Only new feeds are added: an existing one is shared, and one user's save never changes it.
        for feed in subscriptions {
            if let known = feedList.first(where: { $0.id == feed.id }), known.url != feed.url {
                throw .conflict("another feed already has the id \(feed.id.rawValue)")
            }
        }
        try saveFeeds(subscriptions.filter { feed in !feedList.contains { $0.id == feed.id } })
        var mine = follows[user] ?? []
        for subscription in subscriptions {
            if let index = mine.firstIndex(where: { $0.id == subscription.id }) {
                mine[index].title = subscription.title
                mine[index].folder = subscription.folder
            } else {
                mine.append(subscription)
            }
        }
        follows[user] = mine
    }

    func followers(of id: SourceID) -> [UserID] {
        follows.filter { $0.value.contains { $0.id == id } }.map(\.key).sorted()
    }

    @discardableResult
    func removeSubscription(_ id: SourceID, user: UserID) -> Bool {
        versions[user, default: 0] += 1
        follows[user]?.removeAll { $0.id == id }
        let ids = Set(table.kept.values.filter { $0.source == id }.map(\.id))
        readIDs[user]?.subtract(ids)
        starredIDs[user]?.subtract(ids)
        let followed = follows.values.contains { $0.contains { $0.id == id } }
        guard !followed, feedList.first(where: { $0.id == id })?.isBuiltIn != true else { return false }
        removeFeed(id)
        return true
    }

    func removeFeed(_ id: SourceID) {
        for user in follows.keys where follows[user]?.contains(where: { $0.id == id }) == true { versions[user, default: 0] += 1 }
        feedList.removeAll { $0.id == id }
        for user in follows.keys { follows[user]?.removeAll { $0.id == id } }
        states[id] = nil
        table.forget(id)
    }

    // MARK: - Accounts

    func accounts() -> [Account] { users }

    func accountCount() -> Int { users.count }

    func account(_ id: UserID) -> Account? { users.first { $0.id == id } }

    func credentials(name: String) -> (account: Account, passwordHash: String)? {
        guard let account = users.first(where: { $0.name.lowercased() == name.lowercased() }),
            let hash = passwordHashes[account.id]
        else { return nil }
        return (account, hash)
    }

    func addAccount(name: String, passwordHash: String, isAdmin: Bool) throws(StoreError) -> Account {
        guard credentials(name: name) == nil else { throw .conflict("there is already an account named \(name)") }
        let account = Account(id: UserID(nextUser), name: name, isAdmin: isAdmin, createdAt: Date())
        nextUser += 1
        users.append(account)
        passwordHashes[account.id] = passwordHash
        return account
    }

    func setPasswordHash(_ hash: String, user: UserID) {
        passwordHashes[user] = hash
        sessionList = sessionList.filter { $0.value.user != user || $0.value.appPassword != nil }
    }

    func setHomeName(_ name: String?, user: UserID) {
        guard let index = users.firstIndex(where: { $0.id == user }) else { return }
        users[index].homeName = name
    }

    func setMediaThroughKiosk(_ value: Bool?, user: UserID) {
        guard let index = users.firstIndex(where: { $0.id == user }) else { return }
        users[index].mediaThroughKiosk = value
    }

    @discardableResult
    func removeAccount(_ id: UserID) -> [SourceID] {
        var forgotten: [SourceID] = []
        for feed in follows[id] ?? [] where removeSubscription(feed.id, user: id) { forgotten.append(feed.id) }
        follows[id] = nil
        readIDs[id] = nil
        starredIDs[id] = nil
        opened[id] = nil
        users.removeAll { $0.id == id }
        passwordHashes[id] = nil
        appPasswordList.removeAll { $0.password.user == id }
        sessionList = sessionList.filter { $0.value.user != id }
        feverKeys = feverKeys.filter { $0.value.user != id }
        return forgotten
    }

    func addAppPassword(name: String, secretHash: String, user: UserID) -> AppPassword {
        let password = AppPassword(id: nextAppPassword, user: user, name: name, createdAt: Date())
        nextAppPassword += 1
        appPasswordList.append((password, secretHash))
        return password
    }

    func appPasswords(user: UserID) -> [AppPassword] {
        appPasswordList.map(\.password).filter { $0.user == user }
    }

    @discardableResult
    func removeAppPassword(_ id: Int64, user: UserID) -> Bool {
        guard appPasswordList.contains(where: { $0.password.id == id && $0.password.user == user }) else { return false }
        appPasswordList.removeAll { $0.password.id == id }
        sessionList = sessionList.filter { $0.value.appPassword != id }
        feverKeys = feverKeys.filter { $0.value.appPassword != id }
        return true
    }

    func useAppPassword(secretHash: String, user: UserID) -> AppPassword? {
        guard let index = appPasswordList.firstIndex(where: { $0.hash == secretHash && $0.password.user == user }) else {
            return nil
        }
        appPasswordList[index].password.lastUsedAt = Date()
        return appPasswordList[index].password
    }

    func setFeverKeyHash(_ hash: String, appPassword: Int64) {
        guard let password = appPasswordList.first(where: { $0.password.id == appPassword })?.password else { return }
        feverKeys[hash] = (password.user, appPassword)
    }

    func feverCredentials(keyHash: String) -> (account: Account, appPassword: AppPassword?)? {
        guard let key = feverKeys[keyHash], let account = account(key.user) else { return nil }
        guard let id = key.appPassword else { return (account, nil) }
        guard let password = appPasswordList.first(where: { $0.password.id == id })?.password else { return nil }
        return (account, password)
    }

    func itemCount(user: UserID) -> Int { visible(to: user).count }

    func saveSession(tokenHash: String, _ session: StoredSession) {
        sessionList[tokenHash] = session
    }

    func session(tokenHash: String) -> StoredSession? {
        guard let session = sessionList[tokenHash], session.expiresAt >= Date() else { return nil }
        return session
    }

    func removeSession(tokenHash: String) {
        sessionList[tokenHash] = nil
    }

    func recordSignInFailure(account: String, address: String, at: Date, forgetBefore: Date) {
        signInFailureList.removeAll { $0.at < forgetBefore }
        signInFailureList.append((account.lowercased(), address, at, false))
    }

    func signInFailures(account: String, address: String, since: Date) -> SignInFailures {
        let account = account.lowercased()
        let recent = signInFailureList.filter { $0.at > since }
        let pair = recent.filter { $0.account == account && $0.address == address && !$0.cleared }
        let byAddress = recent.filter { $0.address == address }
        return SignInFailures(
            pair: pair.count, pairOldest: pair.map(\.at).min(), address: byAddress.count,
            addressOldest: byAddress.map(\.at).min(), account: recent.filter { $0.account == account }.count)
    }

    func clearSignInFailures(account: String, address: String) {
        let account = account.lowercased()
        for index in signInFailureList.indices
        where signInFailureList[index].account == account && signInFailureList[index].address == address {
            signInFailureList[index].cleared = true
        }
    }

    // MARK: - App state

    func lastOpened(user: UserID) -> OpenedHeadline? { opened[user] }

    func setLastOpened(_ headline: OpenedHeadline, user: UserID) { opened[user] = headline }

    func deviceID() -> UUID {
        if let device { return device }
        let id = UUID()
        device = id
        return id
    }

    /// Articles are not part of the model (the contract checks them on both stores): kept by id only.
    private var articles: [Int64: StoredArticle] = [:]

    func article(entry: Int64) -> StoredArticle? { articles[entry] }

    func saveArticle(_ article: StoredArticle, entry: Int64) {
        articles[entry] = article
        claims[entry] = nil
    }

    private var claims: [Int64: Date] = [:]

    func claimArticleFetch(entry: Int64, until: Date, now: Date) -> Bool {
        if let held = claims[entry], held > now { return false }
        claims[entry] = until
        return true
    }

    func articles(entries: [Int64]) -> [Int64: StoredArticle] { articles.filter { entries.contains($0.key) } }

    func fullArticleFeeds() -> [FullArticleFeed] { [] }

    func entriesWithoutArticles(of source: SourceID, limit: Int) -> [ArticleWanted] { [] }

    /// Entries where every word of `text` starts a word of the title or plain-text summary,
    /// case and diacritics ignored; in source order, then display order (`.newest`: by id, down).
    func search(_ text: String, limit: Int, user: UserID?, order: SearchOrder) -> [SearchHit] {
        guard order == .newest else { return search(text, limit: limit, user: user) }
        return Array(search(text, limit: .max, user: user).sorted { $0.id > $1.id }.prefix(limit))
    }

    func search(_ text: String, limit: Int, user: UserID?) -> [SearchHit] {
        let only = user.map { followed(by: $0) }
        let words = SearchText.words(of: text).prefix(SearchText.maxWords).map { SearchText.folded($0) }
        guard limit > 0, !words.isEmpty else { return [] }
        var hits: [SearchHit] = []
        // Every entry kept, in its feed or not any more (as SQLite's index holds them).
        for stored in table.kept.values.sorted(by: { ($0.source, $0.id) < ($1.source, $1.id) })
        where (only?.contains(stored.source) ?? true) && SearchText.matches(stored.entry, queryWords: words) {
            hits.append(SearchHit(id: stored.id, source: stored.source, entry: stored.entry))
            if hits.count == limit { return hits }
        }
        return hits
    }

    /// `state` with its entries deduplicated by identity, as the SQLite store keeps them.
    private static func deduplicated(_ state: SourceState) -> SourceState {
        var state = state
        state.entries = state.entries.map { EntryIdentity.deduplicated($0).map(\.entry) }
        return state
    }

    func spend(_ allowance: String, account: String, limit: Int, window: Duration, now: Date) async -> Date? {
        await allowances.spend(allowance, account: account, limit: limit, window: window, now: now)
    }
}

/// The in-memory store's entries as the reader sees them: every entry kept, in the feed or not
/// any more, by id (the SQLite row id's role).
struct ReadingTable: Sendable {
    var kept: [Int64: StoredEntry] = [:]
    var inFeed: Set<Int64> = []
    var nextID: Int64 = 1

    /// What `EntryRows.replace` does: new entries added, changed ones updated in place (their
    /// state kept), the ones that left the feed kept out of it.
    mutating func keep(_ entries: [Entry], of source: SourceID, now: Date) {
        var byIdentity: [String: Int64] = [:]
        for (id, stored) in kept where stored.source == source { byIdentity[EntryIdentity.of(stored.entry)] = id }
        for id in byIdentity.values { inFeed.remove(id) }
        for (identity, entry) in EntryIdentity.deduplicated(entries) {
            if let id = byIdentity[identity] {
                kept[id]?.entry = entry
                inFeed.insert(id)
            } else {
                let date = min((entry.published ?? entry.updated) ?? now, now)
                kept[nextID] = StoredEntry(
                    id: nextID, source: source, key: EntryRules.key(identity: identity), entry: entry, isRead: false,
                    isStarred: false, receivedAt: now, sortDate: date)
                inFeed.insert(nextID)
                nextID += 1
            }
        }
    }

    mutating func forget(_ source: SourceID) {
        for (id, stored) in kept where stored.source == source {
            kept[id] = nil
            inFeed.remove(id)
        }
    }
}

// MARK: - Saved searches

extension PlainModelStore {
    func savedSearches(user: UserID) async throws -> [SavedSearch] {
        searchList.filter { $0.user == user }.map(\.search)
    }

    func saveSearch(name: String, query: String, user: UserID, now: Date) async throws -> SavedSearch {
        nextSearch += 1
        let search = SavedSearch(id: nextSearch, name: name, query: query, createdAt: now)
        searchList.append((user, search))
        return search
    }

    @discardableResult
    func deleteSavedSearch(_ id: Int64, user: UserID) async throws -> Bool {
        let before = searchList.count
        searchList.removeAll { $0.user == user && $0.search.id == id }
        return searchList.count < before
    }
}

// MARK: - Rules

extension PlainModelStore {
    func rules(user: UserID) async throws -> [Rule] {
        ruleList.filter { $0.user == user }.map(\.rule).sorted { ($0.position, $0.id) < ($1.position, $1.id) }
    }

    func addRule(_ draft: RuleDraft, user: UserID, now: Date, most: Int) async throws -> Rule? {
        guard ruleList.count(where: { $0.user == user }) < most else { return nil }
        let position = (ruleList.filter { $0.user == user }.map(\.rule.position).max() ?? 0) + 1
        let rule = Rule(id: Int64(ruleList.count + 1), draft: draft, position: position, createdAt: now)
        ruleList.append((user, rule))
        return rule
    }

    @discardableResult
    func updateRule(_ id: Int64, to draft: RuleDraft, user: UserID) async throws -> Bool {
        guard let index = ruleList.firstIndex(where: { $0.user == user && $0.rule.id == id }) else { return false }
        ruleList[index].rule.draft = draft
        ruleList[index].rule.flag = nil
        return true
    }

    @discardableResult
    func deleteRule(_ id: Int64, user: UserID) async throws -> Bool {
        let before = ruleList.count
        ruleList.removeAll { $0.user == user && $0.rule.id == id }
        return ruleList.count < before
    }

    func moveRule(_ id: Int64, earlier: Bool, user: UserID) async throws {
        let order = RuleOrder.moving(id, earlier: earlier, in: try await rules(user: user).map(\.id))
        for index in ruleList.indices where ruleList[index].user == user {
            ruleList[index].rule.position = (order.firstIndex(of: ruleList[index].rule.id) ?? 0) + 1
        }
    }

    func ruleMatches(user: UserID, since: Date) async throws -> [Int64: Int] { [:] }

    // Labels: kept, not modelled further (the model test is about read state).

    func labelCounts(user: UserID) -> [LabelCount] {
        (labelled[user] ?? [:]).filter { !$0.value.isEmpty }.sorted { $0.key < $1.key }.map { name, ids in
            let entries = ids.compactMap { table.kept[$0].flatMap { view($0, for: user) } }
            return LabelCount(name: name, unread: entries.filter { !$0.isRead }.count, total: entries.count)
        }
    }

    func setLabel(_ label: String, _ on: Bool, ids: [Int64], user: UserID) -> [Int64] {
        ids.filter { id in
            guard table.kept[id].flatMap({ view($0, for: user) }) != nil else { return false }
            let had = labelled[user]?[label]?.contains(id) ?? false
            guard had != on else { return false }
            if on { labelled[user, default: [:]][label, default: []].insert(id) } else { labelled[user]?[label]?.remove(id) }
            return true
        }
    }

    func entryLabels(ids: [Int64], user: UserID) -> [Int64: [String]] {
        var found: [Int64: [String]] = [:]
        for (name, labelledIDs) in labelled[user] ?? [:] {
            for id in ids where labelledIDs.contains(id) { found[id, default: []].append(name) }
        }
        return found.mapValues { $0.sorted() }
    }

    func savePosition(_ position: PlaybackPosition, user: UserID) -> Bool {
        guard table.kept[position.entryID].flatMap({ view($0, for: user) }) != nil else { return false }
        if let kept = playback[user]?[position.entryID], kept.savedAt > position.savedAt { return true }
        playback[user, default: [:]][position.entryID] = position
        return true
    }

    func positions(ids: [Int64], user: UserID) -> [Int64: PlaybackPosition] {
        (playback[user] ?? [:]).filter { ids.contains($0.key) }
    }

    func positionsInProgress(limit: Int, user: UserID) -> [PlaybackPosition] {
        let open = (playback[user] ?? [:]).values.filter { !$0.isFinished }
        return Array(open.sorted { ($0.savedAt, $0.entryID) > ($1.savedAt, $1.entryID) }.prefix(max(0, limit)))
    }

    func hasFiles(amongLatest latest: Int, user: UserID) -> Bool {
        visible(to: user).sorted { $0.id > $1.id }.prefix(max(0, latest)).contains {
            !$0.entry.enclosures.isEmpty || !($0.entry.media ?? []).isEmpty
        }
    }

    // Transcripts are not modelled: the model test's entries list none.
    func entriesWithoutTranscripts(of source: SourceID?, retryBefore: Date, limit: Int) -> [TranscriptWanted] { [] }

    func claimTranscript(entry: Int64, now: Date, retryBefore: Date) -> Bool { false }

    func saveTranscript(_ transcript: StoredTranscript, entry: Int64) {}

    func transcript(entry: Int64) -> StoredTranscript? { nil }

    func transcriptTexts(entries: [Int64]) -> [Int64: String] { [:] }

    func pushDevices(user: UserID) -> [PushDevice] { devices.filter { $0.user == user } }

    func savePushDevice(
        user: UserID, kind: PushDevice.Kind, endpoint: String, p256dh: String, auth: String, name: String, now: Date
    ) -> PushDevice {
        if let kept = devices.first(where: { $0.endpoint == endpoint }), kept.kind == .webhook || kind == .webhook {
            return kept
        }
        devices.removeAll { $0.endpoint == endpoint }
        let device = PushDevice(
            id: (devices.map(\.id).max() ?? 0) + 1, user: user, kind: kind, endpoint: endpoint, p256dh: p256dh, auth: auth,
            name: name, createdAt: now)
        devices.append(device)
        return device
    }

    @discardableResult
    func removePushDevice(_ id: Int64, user: UserID) -> Bool {
        let before = devices.count
        devices.removeAll { $0.id == id && $0.user == user }
        return devices.count < before
    }

    func removePushDevice(endpoint: String) { devices.removeAll { $0.endpoint == endpoint } }

    func duePushDevices(sentBefore: Date, excluding: Set<Int64>, limit: Int) -> [PushDevice] { [] }

    func movePushWindow(_ device: Int64, from: Date?, to: Date?) -> Bool { false }

    func takePendingPushes(device: Int64, limit: Int) -> [Int64] { [] }

    func queuePushes(device: Int64, ids: [Int64], now: Date) {}

    func pendingPushes(limit: Int) -> [PendingPush] { [] }

    func notePushSent(_ id: Int64, at: Date?, error: String?) {
        for index in devices.indices where devices[index].id == id {
            if let at { devices[index].lastSentAt = at }
            devices[index].lastError = error
        }
    }

    func keptValue(_ key: String, orKeep made: @Sendable () -> String) -> String {
        if let value = kept[key] { return value }
        let value = made()
        kept[key] = value
        return value
    }
}
