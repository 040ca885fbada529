import Foundation
import KioskCore

// One Kiosk numbers its page events itself. Replicas behind a load balancer must number them
// alike, or a page that reconnects to another replica would resume at the wrong place: so what
// pages hear goes through a log in the shared database, which every replica (the one that wrote
// it included) reads in order and sends on under the log's own numbers.

/// What a replica writes to the shared log.
public enum SharedLogRecord: Sendable, Hashable {
    /// A check changed a source's entries; every replica reads them from the store.
    case changed(SourceID)
    /// A check of a source failed; every replica reads the error from the store.
    case failed(SourceID)
    /// A page event as it is (a reader change, an opened headline) for `audience` (nil: everyone).
    case frame(event: String, json: String, audience: [Int64]?)
}

/// A record as every replica reads it, what it names already read from the store.
public enum SharedLogItem: Sendable {
    /// The log's newest id when reading began: the reader's place before anything arrives.
    case start(Int64)
    case changed(id: Int64, SourceID, [Entry])
    case failed(id: Int64, SourceID, SourceError)
    case frame(id: Int64, event: String, json: String, audience: [Int64]?)
}

/// The shared log of page events (see `KioskCluster.ChangeLog` on PostgreSQL).
public protocol SharedLog: Sendable {
    /// Appends a record; it reaches every replica's `follow`, this one's included.
    func append(_ record: SharedLogRecord) async throws
    /// Hands `deliver` `.start` with the newest id, then every record appended after it, in
    /// order, without a gap (after a lost connection the missed ones are read again), until the
    /// task is cancelled.
    func follow(_ deliver: @escaping @Sendable (SharedLogItem) async -> Void) async
}
