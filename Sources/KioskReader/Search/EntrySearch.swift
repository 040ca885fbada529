import Foundation
import KioskCore
import KioskModel
import KioskStore

/// Search over the entries Kiosk stored, in the query language of search, saved searches and
/// rules (`Query`). What SQL can do it does: the full-text index (FTS5, or PostgreSQL's) narrows
/// a query with words to the entries holding them, best first; a query without words reads the
/// reading list newest first (only unread or starred entries when it asks for those). The query
/// then judges each candidate as a rule would, fields, exclusions, dates and regular expressions
/// included, on the entry's title, plain summary and content, fetched article and episode's transcript.
public struct EntrySearch: Sendable {
    private let store: any KioskStore

    /// Most candidates the index hands over for a query with words.
    static let indexedCandidates = 300
    /// Most entries of the reading list judged for a query without words.
    static let listedCandidates = 5_000
    /// Most unread (or starred) entries judged besides the index's candidates, for a query with
    /// words asking for those: a saved search's count reads them on every refresh of the counts.
    static let supplementCandidates = 500

    public init(store: any KioskStore) {
        self.store = store
    }

    /// The entries of `user`'s feeds (`subscriptions`) that `query` matches, at most `limit`. An
    /// entry whose regular expression ran out of its budget is not a match.
    public func entries(
        matching query: Query, user: UserID, subscriptions: [Subscription], now: Date = Date(), limit: Int = 50,
        order: SearchOrder = .relevance
    ) async throws -> [StoredEntry] {
        try await search(query, user: user, subscriptions: subscriptions, now: now, limit: limit, order: order).entries
    }

    /// What a search found: at most `limit` matches, and whether every candidate was judged
    /// (false when the index's best `indexedCandidates`, or the newest `listedCandidates` of the
    /// reading list, were judged and more might match).
    public struct Found: Sendable {
        public var entries: [StoredEntry]
        public var isExhaustive: Bool
    }

    /// The entries of the feeds in `subscriptions` (a rule's scope, or all the user follows)
    /// that `query` matches, at most `limit`, and whether the search looked at every candidate.
    /// A query with words takes the index's candidates in `order`: the best matches (a search
    /// box), or the newest (saved searches and rules, which list the newest matches and count
    /// them: ranking every match of a common word cost 300 ms over a million entries).
    public func search(
        _ query: Query, user: UserID, subscriptions: [Subscription], now: Date = Date(), limit: Int = 50,
        order: SearchOrder = .relevance
    ) async throws -> Found {
        guard limit > 0, !subscriptions.isEmpty else { return Found(entries: [], isExhaustive: true) }
        let feeds = Dictionary(subscriptions.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let terms = query.requiredTerms
        var found: [StoredEntry] = []
        var exhaustive = true
        if !terms.isEmpty {
            let hits = try await store.search(terms, limit: Self.indexedCandidates, user: user, order: order)
            exhaustive = hits.count < Self.indexedCandidates
            let kept = hits.filter { feeds[$0.source] != nil }
            // Their reading state in one read, back in the index's order (best first).
            let stored = Dictionary(
                try await store.storedEntries(ids: kept.map(\.id), user: user).map { ($0.id, $0) },
                uniquingKeysWith: { first, _ in first })
            found = try await judge(
                kept.compactMap { stored[$0.id] }, by: query, feeds: feeds, user: user, now: now, limit: limit)
            // The index's candidates are read and unread alike: a query for unread (or starred)
            // entries, a saved search's count, whose newest 300 word matches are all read would
            // find none of its older unread ones. The newest 500 of its reading list (the
            // unread, usually far fewer) are judged too.
            let states = query.requiredStates
            if !exhaustive, found.count < limit, states.contains(.unread) || states.contains(.starred) {
                let listed = try await listed(
                    query, feeds: feeds, user: user, now: now, limit: limit, budget: Self.supplementCandidates)
                let seen = Set(found.map(\.id))
                found += listed.entries.filter { !seen.contains($0.id) }.prefix(limit - found.count)
                if order == .newest { found.sort { ($0.sortDate, $0.id) > ($1.sortDate, $1.id) } }
                exhaustive = listed.isExhaustive
            }
        } else {
            (found, exhaustive) = try await listed(
                query, feeds: feeds, user: user, now: now, limit: limit, budget: Self.listedCandidates)
        }
        return Found(entries: found, isExhaustive: exhaustive)
    }

    /// The first `limit` matches of `query` in the reading list, newest first (only unread or
    /// starred entries when it asks for those), judging at most `budget` entries.
    private func listed(
        _ query: Query, feeds: [SourceID: Subscription], user: UserID, now: Date, limit: Int, budget: Int
    ) async throws -> (entries: [StoredEntry], isExhaustive: Bool) {
        let states = query.requiredStates
        var filter = EntryFilter(
            sources: nil, unreadOnly: states.contains(.unread), starredOnly: states.contains(.starred),
            hidden: states.contains(.hidden), limit: min(500, budget))
        var found: [StoredEntry] = []
        var read = 0
        while found.count < limit {
            guard read < budget else { return (found, false) }
            let page = try await store.readingList(filter, user: user)
            read += page.count
            let inScope = page.filter { feeds[$0.source] != nil }
            found += try await judge(inScope, by: query, feeds: feeds, user: user, now: now, limit: limit - found.count)
            guard page.count == filter.limit, let last = page.last else { break }
            filter.after = EntryCursor(last)
        }
        return (found, true)
    }

    /// The first `limit` of `candidates` that `query` matches, in their order.
    private func judge(
        _ candidates: [StoredEntry], by query: Query, feeds: [SourceID: Subscription], user: UserID, now: Date, limit: Int
    ) async throws -> [StoredEntry] {
        guard !candidates.isEmpty else { return [] }
        let articles = try await store.articles(entries: candidates.map(\.id))
        let transcripts = try await store.transcriptTexts(entries: candidates.map(\.id))
        let labels = try await store.entryLabels(ids: candidates.map(\.id), user: user)
        var matches: [StoredEntry] = []
        // Hidden entries are found only by asking for them (`is:hidden`).
        let findsHidden = query.requiredStates.contains(.hidden)
        for candidate in candidates where matches.count < limit && (findsHidden || !candidate.isHidden) {
            let document = Self.document(
                of: candidate, feed: feeds[candidate.source], article: articles[candidate.id],
                transcript: transcripts[candidate.id], labels: labels[candidate.id] ?? [])
            if query.matches(document, now: now) { matches.append(candidate) }
        }
        return matches
    }

    /// What the query reads of an entry.
    static func document(
        of stored: StoredEntry, feed: Subscription?, article: StoredArticle?, transcript: String? = nil, labels: [String] = []
    ) -> QueryDocument {
        EntryDocument.make(
            stored.entry, feedName: feed?.displayName ?? stored.source.rawValue, folder: feed?.folder,
            isRead: stored.isRead, isStarred: stored.isStarred, receivedAt: stored.receivedAt, article: article,
            transcript: transcript, labels: labels, isHidden: stored.isHidden)
    }
}
