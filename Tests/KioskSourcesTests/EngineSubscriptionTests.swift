import Foundation
import KioskCore
import KioskDemo
import KioskModel
@testable import KioskSources
import KioskTesting
import ServiceLifecycle
import Testing

/// Feeds subscribed, changed and unsubscribed while the engine runs, over real loopback HTTP (the
/// sample-sources server, the real fetcher). Requests are counted at the server. Bounds on time
/// are generous and one-sided: a slow machine can only make these tests more lenient.
@Suite struct EngineSubscriptionTests {
    /// What a test drives: the sample server, the engine and everything its hub announced.
    struct Harness: Sendable {
        let server: DemoServer
        let engine: Engine
        let hub: EventHub
        let log: EventLog

        var control: DemoControl { server.control }

        /// One of the sample feeds, polled every `interval`.
        func feed(_ source: DemoSource, id: SourceID? = nil, interval: Duration = .seconds(60)) async -> PolledSource {
            await sampleFeed(source, on: server, id: id, interval: interval)
        }

        /// Waits until the hub announced entries for `id` more than `count` times.
        func waitForChanges(_ id: SourceID, moreThan count: Int = 0) async -> Bool {
            await log.wait { events in events.filter { $0.source == id && $0.isChange }.count > count }
        }
    }

    /// Runs a sample server and an engine over it (merged sources included) while `body` runs;
    /// `beforeRun` may subscribe before the engine starts. Stops the engine and waits until it stopped.
    private func running(
        _ feeds: (DemoServer) async -> [PolledSource] = { _ in [] },
        beforeRun: (Harness) async -> Void = { _ in },
        _ body: (Harness) async throws -> Void
    ) async throws {
        try await withSampleSources(latencies: DemoConfiguration.uniform(.milliseconds(5))) { server, catalogue, fetcher in
            let hub = EventHub()
            let (log, recorder) = await hub.record()
            let engine = Engine(
                feeds: await feeds(server), merged: catalogue.merged, fetcher: fetcher, hub: hub,
                backoff: Backoff(cap: .milliseconds(300), jitter: 0))
            let harness = Harness(server: server, engine: engine, hub: hub, log: log)
            await beforeRun(harness)
            let task = Task { try await engine.run() }
            do {
                try await body(harness)
            } catch {
                task.cancel()
                recorder.cancel()
                throw error
            }
            task.cancel()
            recorder.cancel()
            _ = await task.result
        }
    }

    @Test func aFeedSubscribedWhileRunningIsCheckedAndAnnounced() async throws {
        try await running({ [await sampleFeed(.business, on: $0)] }) { harness in
            #expect(await harness.waitForChanges(.business))
            #expect(await harness.control.requestCount(for: .environment) == 0)

            await harness.engine.subscribe(await harness.feed(.environment))
            #expect(await harness.waitForChanges(.environment))
            #expect(await harness.control.requestCount(for: .environment) == 1)
            #expect(await harness.hub.currentSnapshot().entries[.environment]?.count == 20)
            // The merged source it is part of is announced too.
            #expect(await harness.waitForChanges(.entertainmentAndEnvironment))
            #expect(await harness.engine.polledFeeds().map(\.id) == [.business, .environment])
        }
    }

    @Test func anUnsubscribedFeedGetsNoFurtherRequests() async throws {
        let interval = Duration.milliseconds(100)
        let feeds: (DemoServer) async -> [PolledSource] = { server in
            [
                await sampleFeed(.business, on: server, interval: interval),
                await sampleFeed(.environment, on: server, interval: interval),
            ]
        }
        try await running(feeds) { harness in
            #expect(await harness.waitForChanges(.business))
            #expect(await harness.control.waitForRequests(.business, atLeast: 3))

            await harness.engine.unsubscribe(.business)
            let requests = await harness.control.requestCount(for: .business)
            let changes = await harness.log.changed(.business).count
            // A new entry at the source: any check that still ran would announce it.
            await harness.control.addEntry(to: .business)
            // The other feed goes on meanwhile: 10 of its checks are 10 intervals of the removed one.
            let environment = await harness.control.requestCount(for: .environment)
            #expect(await harness.control.waitForRequests(.environment, atLeast: environment + 10))
            try await Task.sleep(for: interval * 10)  // and 10 more for good measure
            // At most the check that had started before `unsubscribe` returned reached the server.
            #expect(await harness.control.requestCount(for: .business) <= requests + 1)
            #expect(await harness.log.changed(.business).count == changes)
            #expect(await harness.engine.polledFeeds().map(\.id) == [.environment])
            #expect(await harness.engine.state(of: .business) == nil)  // forgotten: no merged source has it
        }
    }

    @Test func aMergedPartKeepsItsStateWhenUnsubscribed() async throws {
        try await running({ [await sampleFeed(.environment, on: $0)] }) { harness in
            #expect(await harness.waitForChanges(.environment))
            await harness.engine.unsubscribe(.environment)
            #expect(await harness.engine.polledFeeds().isEmpty)
            // Entertainment + Environment still lists it once Entertainment is added.
            #expect(await harness.engine.state(of: .environment)?.entries?.count == 20)
            await harness.engine.subscribe(await harness.feed(.entertainment))
            #expect(
                await harness.log.wait { events in
                    events.contains { event in
                        guard case .changed(.entertainmentAndEnvironment, let entries, _) = event.kind else { return false }
                        return entries.count == 40
                    }
                })
        }
    }

    @Test func theOutcomeOfACheckInFlightWhenUnsubscribedIsDropped() async throws {
        try await running { harness in
            // Long enough that the answer cannot come before `unsubscribe`, even on a busy machine.
            await harness.control.setLatency(.seconds(4), for: .business)
            await harness.engine.subscribe(await harness.feed(.business))
            #expect(await harness.control.waitForRequests(.business, atLeast: 1))  // counted on arrival, answered later
            await harness.engine.unsubscribe(.business)
            // The check's end is still announced (no source is left "checking"), its outcome is not.
            #expect(await harness.log.wait { $0.contains { $0.kind == .idle(.business) } })
            #expect(await harness.log.changed(.business).isEmpty)
            #expect(await harness.log.failures(.business).isEmpty)
            let snapshot = await harness.hub.currentSnapshot()
            #expect(snapshot.entries[.business] == nil)
            #expect(!snapshot.checking.contains(.business))
            #expect(await harness.engine.state(of: .business) == nil)
        }
    }

    @Test func aFeedSubscribedAgainIsPolledByOneLoop() async throws {
        let interval = Duration.milliseconds(300)
        try await running({ [await sampleFeed(.business, on: $0, interval: interval)] }) { harness in
            #expect(await harness.waitForChanges(.business))
            #expect(await harness.control.waitForRequests(.business, atLeast: 2))
            let feed = await harness.feed(.business, interval: interval)
            for _ in 0..<3 {
                await harness.engine.unsubscribe(.business)
                await harness.engine.subscribe(feed)
            }
            #expect(await harness.engine.polledFeeds() == [feed])
            // Re-adding checks at once; count from that first check on.
            let before = await harness.control.requestCount(for: .business)
            #expect(await harness.control.waitForRequests(.business, atLeast: before + 1))
            let clock = ContinuousClock()
            let start = clock.now
            let first = await harness.control.requestCount(for: .business)
            #expect(await harness.control.waitForRequests(.business, atLeast: first + 5))
            // One loop needs five intervals for five more checks; two would need half as long.
            #expect(clock.now - start >= interval * 4)
            // And the feed is still announced: re-adding forgot its entries, so they are news again.
            #expect(await harness.log.changed(.business).count >= 2)
        }
    }

    @Test func aNewIntervalAppliesToThePauseUnderWay() async throws {
        try await running({ [await sampleFeed(.business, on: $0, interval: .seconds(60))] }) { harness in
            #expect(await harness.waitForChanges(.business))
            #expect(await harness.control.requestCount(for: .business) == 1)

            // Shorter: the 60 s pause ends and checks come every 200 ms.
            let quick = await harness.feed(.business, interval: .milliseconds(200))
            await harness.engine.subscribe(quick)
            #expect(await harness.engine.polledFeeds() == [quick])
            #expect(await harness.control.waitForRequests(.business, atLeast: 4))

            // Longer again: at most the check under way, then nothing for a minute.
            await harness.engine.subscribe(await harness.feed(.business, interval: .seconds(60)))
            let requests = await harness.control.requestCount(for: .business)
            try await Task.sleep(for: .seconds(2))  // 10 short intervals
            #expect(await harness.control.requestCount(for: .business) <= requests + 1)
            #expect(await harness.engine.polledFeeds().map(\.interval) == [.seconds(60)])
        }
    }

    @Test func aNewURLIsUsedFromTheNextCheckOn() async throws {
        let mine: SourceID = "mine"
        try await running({ [await sampleFeed(.business, on: $0, id: mine, interval: .milliseconds(200))] }) { harness in
            #expect(await harness.waitForChanges(mine))
            let businessEntries = await harness.log.changed(mine).last
            await harness.engine.subscribe(await harness.feed(.environment, id: mine, interval: .milliseconds(200)))
            // The validators of the old address are not sent to the new one: its entries arrive.
            #expect(await harness.control.waitForRequests(.environment, atLeast: 1))
            #expect(await harness.waitForChanges(mine, moreThan: 1))
            let entries = await harness.log.changed(mine).last
            #expect(entries != businessEntries)
            #expect(entries?.count == 20)
            let businessRequests = await harness.control.requestCount(for: .business)
            #expect(await harness.control.waitForRequests(.environment, atLeast: 4))
            #expect(await harness.control.requestCount(for: .business) <= businessRequests + 1)
        }
    }

    @Test func subscriptionsMadeBeforeRunAreHonouredWhenItStarts() async throws {
        try await running(
            beforeRun: { harness in
                await harness.engine.subscribe(await harness.feed(.business))
                await harness.engine.subscribe(await harness.feed(.entertainment))
                await harness.engine.unsubscribe(.entertainment)
                await harness.engine.subscribe(await harness.feed(.environment, interval: .seconds(30)))
                await harness.engine.subscribe(await harness.feed(.environment, interval: .seconds(45)))
            }
        ) { harness in
            #expect(await harness.waitForChanges(.business))
            #expect(await harness.waitForChanges(.environment))
            #expect(await harness.engine.polledFeeds().map(\.id) == [.business, .environment])
            #expect(await harness.engine.polledFeeds().map(\.interval) == [.seconds(60), .seconds(45)])
            #expect(await harness.control.requestCount(for: .business) == 1)
            #expect(await harness.control.requestCount(for: .environment) == 1)
            #expect(await harness.control.requestCount(for: .entertainment) == 0)
        }
    }

    @Test func gracefulShutdownEndsEveryLoop() async throws {
        try await withSampleSources(latencies: DemoConfiguration.uniform(.milliseconds(5))) { server, catalogue, fetcher in
            // One check in flight at shutdown, answered (if it were not cancelled) well after the bound below.
            await server.control.setLatency(.seconds(15), for: .entertainment)
            let interval = Duration.milliseconds(100)
            func feed(_ source: DemoSource) async -> PolledSource { await sampleFeed(source, on: server, interval: interval) }
            let hub = EventHub()
            let (log, recorder) = await hub.record()
            defer { recorder.cancel() }
            let engine = Engine(feeds: [await feed(.business)], merged: catalogue.merged, fetcher: fetcher, hub: hub)
            let group = ServiceGroup(services: [engine], gracefulShutdownSignals: [], logger: .init(label: "test"))
            let running = Task { try await group.run() }
            // Loops started every way: at init, subscribed while running, removed and re-added, and one
            // backing off.
            await engine.subscribe(await feed(.environment))
            await engine.subscribe(await feed(.entertainment))
            #expect(await log.wait { $0.contains { $0.source == .environment && $0.isChange } })
            await engine.unsubscribe(.environment)
            await engine.subscribe(await feed(.environment))
            await engine.subscribe(await feed(.albums))  // not a feed: fails and backs off
            #expect(await server.control.waitForRequests(.entertainment, atLeast: 1))
            #expect(await server.control.waitForRequests(.albums, atLeast: 1))

            await group.triggerGracefulShutdown()
            let clock = ContinuousClock()
            let start = clock.now
            try await running.value  // returns only once every child loop of the engine's task group ended
            #expect(clock.now - start < .seconds(10))
            let counts = {
                [await server.control.requestCount(for: .business), await server.control.requestCount(for: .environment)]
            }
            let before = await counts()
            try await Task.sleep(for: interval * 10)
            #expect(await counts() == before)
            #expect(await log.changed(.entertainment).isEmpty)  // the check cut short is no outcome
            #expect(await log.failures(.entertainment).isEmpty)
        }
    }
}

/// The sample server's `source` as a polled feed (named by its id unless `id` says otherwise).
private func sampleFeed(
    _ source: DemoSource, on server: DemoServer, id: SourceID? = nil, interval: Duration = .seconds(60)
) async -> PolledSource {
    let id = id ?? SourceID(source.rawValue)
    return PolledSource(id: id, name: id.rawValue, url: await server.url(for: source), interval: interval)
}
