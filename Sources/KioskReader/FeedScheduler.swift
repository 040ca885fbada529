import KioskModel
import KioskSources

/// What the reader needs of the polling engine: start, change and stop polling a feed.
/// `Engine` is the live one; tests pass a recorder.
public protocol FeedScheduler: Sendable {
    func subscribe(_ feed: PolledSource) async
    func unsubscribe(_ id: SourceID) async
}

extension Engine: FeedScheduler {}

/// A scheduler that polls nothing: for a reader whose feeds someone else fills (page tests feed
/// the hub by hand, benchmarks measure pages alone).
public struct IdleScheduler: FeedScheduler {
    public init() {}
    public func subscribe(_ feed: PolledSource) async {}
    public func unsubscribe(_ id: SourceID) async {}
}
