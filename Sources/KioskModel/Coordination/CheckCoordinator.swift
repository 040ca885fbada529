import Foundation
import KioskCore

// One Kiosk checks every feed itself. Several replicas sharing one database must not: before each
// check the engine asks its coordinator, which leases the feed to one replica for the check and
// tells the others when to ask again. The lease expires on its own, so a replica that dies loses
// its feeds to the others within the expiry.

/// Whether this replica may check a feed now.
public enum CheckClaim: Sendable, Equatable {
    /// This replica holds the feed's lease. `state` is the feed's state as stored (another
    /// replica may have checked it since this one did), nil when nothing is stored.
    case granted(SourceState?)
    /// Another replica holds the lease, or checked the feed within its interval: ask again after
    /// this long.
    case notBefore(Duration)
}

/// Decides which replica checks which feed (see `KioskCluster.FeedLeases`).
public protocol CheckCoordinator: Sendable {
    /// Asks to check `feed` now (its id, and its host: politeness per host holds across
    /// replicas). `holdsState`: this engine has the feed's state in memory (one that has not,
    /// a feed subscribed again, is always handed the stored state).
    func claim(_ feed: PolledSource, holdsState: Bool) async -> CheckClaim
    /// The check is over and its outcome stored: the next is due `wait` from now, by whichever
    /// replica claims it then. Releases the lease.
    func finished(_ id: SourceID, nextIn wait: Duration) async
}
