import Foundation
import KioskCore
import KioskModel
import KioskSQLite
import KioskSources
import KioskStore
import KioskTesting
@testable import KioskWeb
import Synchronization
import Testing

/// A replica's broadcaster over a shared log: a feed no page draws is told to its followers
/// from the record alone; nobody else hears of it, and its state is never asked for.
@Suite struct SharedLogDeliveryTests {
    /// A shared log a test feeds by hand: what it is handed goes to the follower, in order.
    final class HandLog: SharedLog {
        private let items: AsyncStream<SharedLogItem>
        private let input: AsyncStream<SharedLogItem>.Continuation
        private let asked = Mutex<[SourceID]>([])
        private let handed = Mutex<[SharedLogItem]>([])
        /// Whether the log still holds its history (false: pruned).
        let keepsHistory = Mutex(true)

        init() {
            (items, input) = AsyncStream.makeStream(of: SharedLogItem.self)
        }

        func append(_ record: SharedLogRecord) async throws {}

        func follow(
            needsState: @escaping @Sendable (SourceID) async -> Bool, _ deliver: @escaping @Sendable (SharedLogItem) async -> Void
        ) async {
            await deliver(.start(100))
            for await item in items {
                if case .noted(_, let source, _) = item {
                    // What the real log asks before it would read a source's state.
                    if await needsState(source) { asked.withLock { $0.append(source) } }
                }
                await deliver(item)
            }
        }

        func hand(_ item: SharedLogItem) {
            handed.withLock { $0.append(item) }
            input.yield(item)
        }

        func records(after last: Int64, through: Int64, limit: Int) async throws -> [SharedLogItem]? {
            guard keepsHistory.withLock({ $0 }) else { return nil }
            return handed.withLock { items in
                items.filter { item in
                    switch item {
                    case .frame(let id, _, _, _), .noted(let id, _, _): id > last && id <= through
                    default: false
                    }
                }
            }
        }
        /// Sources whose state the follower said it needed, of those handed as noted.
        var neededOfNoted: [SourceID] { asked.withLock { $0 } }
    }

    @Test func aFeedNoPageDrawsIsToldToItsFollowersFromTheRecord() async throws {
        let store = try SQLiteStore.inMemoryDatabase()
        let followed = try #require(URL(string: "https://followed.example/feed.xml"))
        let other = try #require(URL(string: "https://other.example/feed.xml"))
        try await store.saveSubscriptions([Subscription(id: "followed", url: followed)], user: .owner)
        try await store.saveFeeds([Subscription(id: "other", url: other)])
        let log = HandLog()
        let hub = EventHub()
        let live = LiveBroadcaster(
            hub: hub, store: store, names: ["followed": "Followed"], renderList: markerRenderer,
            isPublic: { $0 == .business }, heartbeatInterval: .seconds(3600), sharedLog: log, logger: .quiet)
        let running = Task { try await live.run() }
        defer { running.cancel() }
        let started = try await eventually { await live.snapshot().sequence == 100 }
        try #require(started)
        let (_, frames) = await live.subscribe(after: nil, user: .owner)
        let (frameLog, reader) = FrameLog.collecting(frames)
        defer { reader.cancel() }

        log.hand(.noted(id: 101, "other", .changed(added: 4)))
        log.hand(.noted(id: 102, "followed", .changed(added: 3)))
        log.hand(.noted(id: 103, "followed", .failed(message: "HTTP 503")))
        let arrived = try await eventually {
            let ids = await frameLog.ids
            let sequence = await live.snapshot().sequence
            return ids == [102, 103] && sequence == 103
        }
        let ids = await frameLog.ids
        try #require(arrived, "got \(ids)")
        let events = await frameLog.events
        #expect(events.map(\.event) == ["changed", "failed"])
        #expect(events[0].data?.contains(#""added":3"#) == true)
        #expect(events[0].data?.contains(#""source":"followed""#) == true)
        #expect(events[1].data?.contains("HTTP 503") == true)
        // Not a News source: its state was never asked for.
        #expect(log.neededOfNoted.isEmpty)
    }

    /// A page reconnecting from before the replica's window is replayed from the log what was
    /// meant for it (not a resync); when the log no longer holds it, a resync.
    @Test func aPageFromBeyondTheWindowIsReplayedFromTheLog() async throws {
        let store = try SQLiteStore.inMemoryDatabase()
        let followed = try #require(URL(string: "https://followed.example/feed.xml"))
        try await store.saveSubscriptions([Subscription(id: "followed", url: followed)], user: .owner)
        let log = HandLog()
        let live = LiveBroadcaster(
            hub: EventHub(), store: store, names: [:], renderList: markerRenderer, isPublic: { $0 == .business },
            heartbeatInterval: .seconds(3600), replayLimit: 4, sharedLog: log, logger: .quiet)
        let running = Task { try await live.run() }
        defer { running.cancel() }
        let started = try await eventually { await live.snapshot().sequence == 100 }
        try #require(started)
        // Ten events for another account (the window keeps the last four), then one for the
        // owner's feed and one reader change for everyone.
        for id in 101...110 {
            log.hand(.frame(id: Int64(id), event: "opened", json: #"{"title":"T","path":"/news"}"#, audience: [999]))
        }
        log.hand(.noted(id: 111, "followed", .changed(added: 2)))
        log.hand(.frame(id: 112, event: "reader", json: #"{"kind":"read","ids":[],"value":true}"#, audience: nil))
        let read = try await eventually { await live.snapshot().sequence == 112 }
        try #require(read)

        let (_, frames) = await live.subscribe(after: 100, user: .owner)
        let (frameLog, reader) = FrameLog.collecting(frames)
        defer { reader.cancel() }
        let replayed = try await eventually { await frameLog.ids == [111, 112] }
        let ids = await frameLog.ids
        #expect(replayed, "got \(ids)")
        #expect(await frameLog.events.map(\.event) == ["changed", "reader"])

        // Pruned: the page is resynced.
        log.keepsHistory.withLock { $0 = false }
        let (_, again) = await live.subscribe(after: 100, user: .owner)
        let (secondLog, secondReader) = FrameLog.collecting(again)
        defer { secondReader.cancel() }
        let resynced = try await eventually { await secondLog.events.map(\.event) == ["resync"] }
        #expect(resynced)
    }
}
