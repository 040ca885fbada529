import KioskSources

/// Where the user's subscriptions live: the catalogue's one home. Folders are the names the
/// subscriptions are filed under.
public protocol SubscriptionStore: Sendable {
    /// Every subscription, in the order they were added.
    func subscriptions() async throws -> [Subscription]
    /// Adds each subscription, or replaces the one with its id: all of them or, on failure, none
    /// (an OPML import is never half done).
    func saveSubscriptions(_ subscriptions: [Subscription]) async throws
    /// Forgets a subscription and everything kept of its feed (validators, entries).
    func removeSubscription(_ id: SourceID) async throws
}
