import KioskCore
import KioskModel
import KioskSources

/// What an OPML import did, feed by feed, for the report the user sees.
public struct ImportReport: Sendable, Hashable {
    public var added: [Subscription]
    /// Already subscribed, or listed twice in the file.
    public var skipped: [OPMLSubscription]
    /// Could not be added, with the reason.
    public var failed: [(OPMLSubscription, String)]

    public init(added: [Subscription] = [], skipped: [OPMLSubscription] = [], failed: [(OPMLSubscription, String)] = []) {
        self.added = added
        self.skipped = skipped
        self.failed = failed
    }

    public static func == (lhs: ImportReport, rhs: ImportReport) -> Bool {
        lhs.added == rhs.added && lhs.skipped == rhs.skipped
            && lhs.failed.map(\.0) == rhs.failed.map(\.0) && lhs.failed.map(\.1) == rhs.failed.map(\.1)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(added)
        hasher.combine(skipped)
        hasher.combine(failed.map(\.1))
    }
}
