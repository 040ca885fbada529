import Foundation
import KioskModel
import KioskStore

/// Each user's last unread and starred counts, reused for a moment: every page shows them, and
/// counting a million entries takes tens of milliseconds.
///
/// The reader is an actor, so a count being computed and a change being made interleave at
/// every `await`: a count read before a change must never be kept after it (the page drawn next,
/// and every `/reader/counts` until the lifetime ran out, would show the count from before; a
/// page whose last change that was kept it for good). So each user's counts have a generation:
/// a change bumps it, and a count is kept only if no change happened while it was computed.
struct CountsCache: Sendable {
    struct Counts: Sendable, Hashable {
        var unread: [SourceID: Int]
        var starred: Int
    }

    /// What a count being computed remembers of the cache when it began.
    struct Ticket: Sendable, Hashable {
        var user: UserID
        var generation: UInt64
        var newest: Int64
        var startedAt: ContinuousClock.Instant
    }

    let lifetime: Duration
    private var kept: [UserID: (counts: Counts, at: ContinuousClock.Instant, newest: Int64, generation: UInt64)] = [:]
    private var generations: [UserID: UInt64] = [:]

    init(lifetime: Duration) {
        self.lifetime = lifetime
    }

    /// The counts kept for `user`, if they are recent, counted up to entry `newest` (no entry
    /// arrived since) and no change was made since.
    func counts(user: UserID, newest: Int64, now: ContinuousClock.Instant) -> Counts? {
        guard let entry = kept[user], now - entry.at < lifetime, entry.newest == newest,
            entry.generation == generations[user, default: 0]
        else { return nil }
        return entry.counts
    }

    /// Taken before counting.
    func ticket(user: UserID, newest: Int64, now: ContinuousClock.Instant) -> Ticket {
        Ticket(user: user, generation: generations[user, default: 0], newest: newest, startedAt: now)
    }

    /// Keeps counts computed under `ticket`, unless a change was made meanwhile.
    mutating func keep(_ counts: Counts, for ticket: Ticket) {
        guard generations[ticket.user, default: 0] == ticket.generation else { return }
        kept[ticket.user] = (counts, ticket.startedAt, ticket.newest, ticket.generation)
    }

    /// A change of `user`'s read or star state or subscriptions: whatever was counted, or is
    /// being counted, is out of date.
    mutating func invalidate(_ user: UserID) {
        generations[user, default: 0] &+= 1
        kept[user] = nil
    }
}
