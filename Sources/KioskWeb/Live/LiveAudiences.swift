import KioskModel
import KioskSources
import KioskStore

/// The followers of the sources that are not everyone's, as last read from the store (forgotten
/// whenever anyone's subscriptions change). The broadcaster asks it only for such sources.
actor LiveAudiences {
    private let store: any SubscriptionStore
    /// Whether everyone may hear of a source (the News sources): asked without a hop.
    nonisolated let isPublic: @Sendable (SourceID) -> Bool
    private var followers: [SourceID: Set<UserID>] = [:]
    /// Each user's feeds, as last read (for the feeds no page draws: one read per user).
    private var followed: [UserID: Set<SourceID>] = [:]
    /// Bumped whenever anyone's subscriptions change: a follower list read before is not cached.
    private var generation: UInt64 = 0

    init(store: any SubscriptionStore, isPublic: @escaping @Sendable (SourceID) -> Bool) {
        self.store = store
        self.isPublic = isPublic
    }

    /// Who follows `source`, from the cache or the store.
    func followers(of source: SourceID) async -> Set<UserID> {
        if let known = followers[source] { return known }
        let before = generation
        let users = Set((try? await store.followers(of: source)) ?? [])
        // Subscriptions changed while the store answered: use the answer, keep nothing. Nobody
        // is not kept either: a feed nobody follows yet is one being subscribed to (its preview
        // was checked), and its first check may be told before the subscription's change reaches
        // `forget()`; read again, the new follower is there.
        if before == generation, !users.isEmpty { followers[source] = users }
        return users
    }

    /// Whether `user` follows `source`, from the user's feeds as last read.
    func follows(_ user: UserID, _ source: SourceID) async -> Bool {
        if let known = followed[user] { return known.contains(source) }
        let before = generation
        let feeds = Set(((try? await store.subscriptions(user: user)) ?? []).map(\.id))
        if before == generation { followed[user] = feeds }
        return feeds.contains(source)
    }

    /// Subscriptions changed somewhere: who follows what is read again when next needed.
    func forget() {
        followers = [:]
        followed = [:]
        generation += 1
    }
}
