import Foundation
import KioskCore

// One Kiosk numbers its page events itself. Replicas behind a load balancer must number them
// alike, or a page that reconnects to another replica would resume at the wrong place: so what
// pages hear goes through a log in the shared database, which every replica (the one that wrote
// it included) reads in order and sends on under the log's own numbers.

/// What a replica writes to the shared log.
public enum SharedLogRecord: Sendable, Hashable {
    /// A check changed a source's entries (`added` of them new); a replica whose pages draw the
    /// source reads them from the store, the others make do with the record.
    case changed(SourceID, added: Int? = nil)
    /// A check of a source failed (`message` says why); a replica whose pages draw the source
    /// reads the error from the store.
    case failed(SourceID, message: String? = nil)
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
    /// A change or failure of a source whose state the reader did not ask for: what the record
    /// says, nothing read from the store (a burst of 100,000 first checks is 100,000 of these).
    case noted(id: Int64, SourceID, SharedLogNote)
}

/// What a record says of a source without its state.
public enum SharedLogNote: Sendable, Hashable {
    /// New entries (nil: a record from before records counted them).
    case changed(added: Int?)
    case failed(message: String?)
}

/// The shared log of page events (see `KioskCluster.ChangeLog` on PostgreSQL).
public protocol SharedLog: Sendable {
    /// Appends a record; it reaches every replica's `follow`, this one's included.
    func append(_ record: SharedLogRecord) async throws
    /// Hands `deliver` `.start` with the newest id, then every record appended after it, in
    /// order, without a gap (after a lost connection the missed ones are read again), until the
    /// task is cancelled. A change or failure of a source is read with its state only when
    /// `needsState` says so (the sources this replica's pages draw); else it is `.noted`.
    func follow(
        needsState: @escaping @Sendable (SourceID) async -> Bool, _ deliver: @escaping @Sendable (SharedLogItem) async -> Void
    ) async
    /// The records after `last` up to `through`, in order, each a `.frame` or `.noted` (no state
    /// read): what a page that reconnects from beyond a replica's window missed. Nil when the log
    /// no longer holds them all (pruned), or there are more than `limit`.
    func records(after last: Int64, through: Int64, limit: Int) async throws -> [SharedLogItem]?
}

extension SharedLog {
    /// No history kept: a page from before the replica's own window is resynced.
    public func records(after last: Int64, through: Int64, limit: Int) async throws -> [SharedLogItem]? { nil }

    /// Every record with its source's state read.
    public func follow(_ deliver: @escaping @Sendable (SharedLogItem) async -> Void) async {
        await follow(needsState: { _ in true }, deliver)
    }
}
