import Foundation
import KioskModel

/// Where subscriptions live: the catalogue's one home. A feed is kept once however many users
/// follow it; each user has their own name for it and their own folder (the names their
/// subscriptions are filed under).
public protocol SubscriptionStore: Sendable {
    /// Every feed anyone follows, once, without any user's name or folder: what the engine polls.
    func feeds() async throws -> [Subscription]
    /// Adds or updates feeds (address, interval, built in) without anyone following them anew.
    func saveFeeds(_ feeds: [Subscription]) async throws
    /// The feeds `user` follows, in the order they were added.
    func subscriptions(user: UserID) async throws -> [Subscription]
    /// Has `user` follow each feed under its name and folder (adding the feed if new): all of
    /// them or, on failure, none (an OPML import is never half done).
    func saveSubscriptions(_ subscriptions: [Subscription], user: UserID) async throws
    /// `user` stops following a feed and forgets their state of its entries. A feed nobody
    /// follows any more is forgotten (validators, entries): returns whether it was.
    @discardableResult
    func removeSubscription(_ id: SourceID, user: UserID) async throws -> Bool
    /// Forgets a feed for everyone.
    func removeFeed(_ id: SourceID) async throws
    /// Who follows a feed.
    func followers(of id: SourceID) async throws -> [UserID]
    /// A number that changes with every change of `user`'s subscriptions or folders (saving,
    /// removing, a feed forgotten), even one undone before anyone looked: sync clients' list
    /// validators carry it, so a feed removed and added back is never "not modified".
    func subscriptionsVersion(user: UserID) async throws -> Int64
    /// A new `subscriptionsVersion` for `user` with nothing else changed: a write that changed
    /// nothing (subscribing to a feed already followed) still tells sync clients to look again.
    func touchSubscriptions(user: UserID) async throws
    /// How each feed's checks have gone (no entries read): a feed absent here was never checked.
    func feedHealth() async throws -> [SourceID: FeedHealth]
}

/// How a feed's checks have gone, for the reader's list: never checked, fine, or failing and why.
public struct FeedHealth: Sendable, Hashable {
    public var lastSuccess: Date?
    public var lastFailure: Date?
    /// The last failure, as a sentence ("HTTP 404", "not a feed: ...").
    public var lastError: String?

    public init(lastSuccess: Date? = nil, lastFailure: Date? = nil, lastError: String? = nil) {
        self.lastSuccess = lastSuccess
        self.lastFailure = lastFailure
        self.lastError = lastError
    }

    /// The last check failed (none succeeded after it).
    public var isFailing: Bool {
        guard let lastFailure else { return false }
        return lastSuccess.map { $0 < lastFailure } ?? true
    }

    /// Never checked to the end yet.
    public var isUnchecked: Bool { lastSuccess == nil && lastFailure == nil }
}
