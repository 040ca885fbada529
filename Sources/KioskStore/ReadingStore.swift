import Foundation
import KioskCore
import KioskModel

/// One entry as the reader sees it: the entry, where it came from and what the user did with it.
public struct StoredEntry: Sendable, Hashable {
    /// The store's number for the entry, stable for its life (the sync APIs' item id).
    public var id: Int64
    public var source: SourceID
    /// `EntryIdentity.key(of: entry)`, for URLs.
    public var key: String
    public var entry: Entry
    public var isRead: Bool
    public var isStarred: Bool
    /// Hidden by a rule (or by hand): read, and out of every list but Hidden.
    public var isHidden: Bool
    /// When Kiosk first saw the entry.
    public var receivedAt: Date
    /// The date reading lists sort by: published, else updated, else received.
    public var sortDate: Date

    public init(
        id: Int64, source: SourceID, key: String, entry: Entry, isRead: Bool, isStarred: Bool, isHidden: Bool = false,
        receivedAt: Date, sortDate: Date
    ) {
        self.id = id
        self.source = source
        self.key = key
        self.entry = entry
        self.isRead = isRead
        self.isStarred = isStarred
        self.isHidden = isHidden
        self.receivedAt = receivedAt
        self.sortDate = sortDate
    }
}

/// Which entries a reading list shows, newest first, a page at a time.
public struct EntryFilter: Sendable, Hashable {
    /// Only these feeds; nil for every feed.
    public var sources: [SourceID]?
    public var unreadOnly: Bool
    public var starredOnly: Bool
    /// Only entries the user put this label on.
    public var label: String?
    /// Only hidden entries (the Hidden list); else hidden entries are left out.
    public var hidden: Bool
    /// Only entries with at least one file (an enclosure or a Media RSS file): "Listen" narrows
    /// by this, then keeps those with something to play.
    public var withFiles: Bool
    public var limit: Int
    /// Only entries after this one in list order (the last row of the previous page).
    public var after: EntryCursor?

    public init(
        sources: [SourceID]? = nil, unreadOnly: Bool = false, starredOnly: Bool = false, label: String? = nil,
        hidden: Bool = false, withFiles: Bool = false, limit: Int = 50, after: EntryCursor? = nil
    ) {
        self.sources = sources
        self.unreadOnly = unreadOnly
        self.starredOnly = starredOnly
        self.label = label
        self.hidden = hidden
        self.withFiles = withFiles
        self.limit = limit
        self.after = after
    }
}

/// A place in a reading list (newest first, ties by id): where the next page starts.
public struct EntryCursor: Sendable, Hashable {
    public var sortDate: Date
    public var id: Int64

    public init(sortDate: Date, id: Int64) {
        self.sortDate = sortDate
        self.id = id
    }

    public init(_ entry: StoredEntry) {
        self.init(sortDate: entry.sortDate, id: entry.id)
    }
}

/// How long entries are kept. Entries still in their feed and starred or labelled entries are
/// always kept; others go once older than `maxAge`, or past the newest `maxPerFeed` of their feed.
public struct RetentionPolicy: Sendable, Hashable {
    public var maxAge: Duration
    public var maxPerFeed: Int

    public init(maxAge: Duration, maxPerFeed: Int) {
        self.maxAge = maxAge
        self.maxPerFeed = maxPerFeed
    }
}

/// Read and star state, reading lists and retention. Each call is one user's: they see and
/// change only entries of the feeds they follow, with their own read and star state.
public protocol ReadingStore: Sendable {
    /// A page of a reading list.
    func readingList(_ filter: EntryFilter, user: UserID) async throws -> [StoredEntry]
    /// One entry by its feed and key, in its feed or not any more.
    func storedEntry(source: SourceID, key: String, user: UserID) async throws -> StoredEntry?
    /// Entries by id (those the user may see; any order).
    func storedEntries(ids: [Int64], user: UserID) async throws -> [StoredEntry]
    /// The highest entry id of `sources` (nil: every feed the user follows), 0 when there is
    /// none: the newest entry Kiosk has received there, where a mark-all-read drawn now stops.
    func newestEntryID(sources: [SourceID]?, user: UserID) async throws -> Int64
    /// Unread entries per feed (feeds with none are absent).
    func unreadCounts(user: UserID) async throws -> [SourceID: Int]
    func starredCount(user: UserID) async throws -> Int
    /// Marks entries read or unread; returns the ids whose state changed.
    func setRead(_ read: Bool, ids: [Int64], user: UserID) async throws -> [Int64]
    /// Hides entries (they are marked read too) or shows them again; returns the ids that changed.
    func setHidden(_ hidden: Bool, ids: [Int64], user: UserID) async throws -> [Int64]
    /// Stars or unstars entries; returns the ids whose state changed.
    func setStarred(_ starred: Bool, ids: [Int64], user: UserID) async throws -> [Int64]
    /// Marks every unread entry of `sources` (nil: every feed) with an id up to `upTo` read,
    /// so what arrived after the user looked stays unread. Returns the ids, for undo.
    func markAllRead(sources: [SourceID]?, upTo: Int64, user: UserID) async throws -> [Int64]
    /// Deletes what `policy` no longer keeps (starred or labelled by anyone is kept); returns
    /// how many went.
    @discardableResult
    func prune(_ policy: RetentionPolicy, now: Date) async throws -> Int
}

/// Which entries a sync client asks for by id (the Google Reader API's `stream/items/ids`):
/// never hidden ones, newest received first (or oldest, `oldestFirst`), a page at a time after `after`.
public struct ItemQuery: Sendable, Hashable {
    /// Only these feeds; nil for every feed the user follows.
    public var sources: [SourceID]?
    public var unreadOnly = false
    public var readOnly = false
    public var starredOnly = false
    /// Only entries the user put this label on (`user/-/label/NAME` when NAME is no folder).
    public var label: String?
    /// Only entries Kiosk received at or after this (`ot`).
    public var receivedSince: Date?
    /// Only entries Kiosk received before this (`nt`).
    public var receivedBefore: Date?
    public var oldestFirst = false
    public var limit = 1_000
    /// The id the previous page ended at (the continuation).
    public var after: Int64?

    public init(sources: [SourceID]? = nil, limit: Int = 1_000) {
        self.sources = sources
        self.limit = limit
    }
}

/// One entry as an id page lists it.
public struct ItemRef: Sendable, Hashable {
    public var id: Int64
    public var source: SourceID
    public var receivedAt: Date

    public init(id: Int64, source: SourceID, receivedAt: Date) {
        self.id = id
        self.source = source
        self.receivedAt = receivedAt
    }
}

/// What sync clients read beyond the reading lists.
public protocol SyncReadingStore: Sendable {
    /// A page of entry ids for a sync client, in receipt order (ids grow as entries arrive).
    func itemRefs(_ query: ItemQuery, user: UserID) async throws -> [ItemRef]
    /// The newest entry of `sources` (nil: every feed the user follows) received by `date`; 0 if none.
    func newestEntryID(sources: [SourceID]?, receivedBy date: Date, user: UserID) async throws -> Int64
    /// How many entries the user can read (every feed they follow).
    func itemCount(user: UserID) async throws -> Int
}
