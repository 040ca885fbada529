import AsyncHTTPClient
import Foundation
import KioskCore
import KioskDemo
import KioskModel
@testable import KioskSources
import KioskTesting
import Testing

/// The engine over real loopback HTTP: the embedded sample-sources server, the real fetcher.
/// Bounds on time are generous; what is asserted is order and outcome.
@Suite struct LiveEngineTests {
    /// Runs a sample server with `latencies`, an engine over `feeds` of it, and `body`.
    private func live(
        latencies: [DemoSource: Duration], interval: Duration = .seconds(60),
        sources: [DemoSource] = [.business, .entertainment, .environment],
        _ body: (DemoControl, EventHub, EventLog) async throws -> Void
    ) async throws {
        try await withSampleSources(latencies: latencies) { server, catalogue, fetcher in
            let wanted: [SourceID: DemoSource] = [.business: .business, .entertainment: .entertainment, .environment: .environment]
            var feeds = catalogue.feeds.filter { wanted[$0.id].map(sources.contains) ?? false }
            for index in feeds.indices { feeds[index].interval = interval }
            let hub = EventHub()
            let (log, recorder) = await hub.record()
            let engine = Engine(
                feeds: feeds, merged: catalogue.merged, fetcher: fetcher, hub: hub,
                backoff: Backoff(cap: .milliseconds(300), jitter: 0))
            let engineTask = Task { try await engine.run() }
            defer {
                engineTask.cancel()
                recorder.cancel()
            }
            try await body(server.control, hub, log)
        }
    }

    @Test func theFastSourceIsAnnouncedBeforeTheSlowOneAnswers() async throws {
        let latencies: [DemoSource: Duration] = [.business: .milliseconds(100), .entertainment: .seconds(1), .environment: .seconds(3)]
        try await live(latencies: latencies) { _, _, log in
            #expect(await log.wait { events in events.contains { $0.source == .environment && $0.isChange } })
            let changes = await log.events.filter(\.isChange).map(\.source)
            let business = changes.firstIndex(of: .business)
            let entertainment = changes.firstIndex(of: .entertainment)
            let environment = changes.firstIndex(of: .environment)
            #expect(business != nil && entertainment != nil && environment != nil)
            #expect((business ?? .max) < (entertainment ?? .max))
            #expect((entertainment ?? .max) < (environment ?? .max))
        }
    }

    @Test func everySourceIsCheckedOnItsInterval() async throws {
        try await live(latencies: DemoConfiguration.uniform(.milliseconds(10)), interval: .milliseconds(300), sources: [.business]) {
            control, _, _ in
            let clock = ContinuousClock()
            let start = clock.now
            #expect(await control.waitForRequests(.business, atLeast: 4))
            // Four checks need at least three intervals between them: never faster than the clock.
            #expect(clock.now - start >= .milliseconds(850))
        }
    }

    @Test func anUnchangedSourceCostsA304AndNoEvent() async throws {
        try await live(latencies: DemoConfiguration.uniform(.milliseconds(10)), interval: .milliseconds(200), sources: [.business]) {
            control, _, log in
            #expect(await log.wait { $0.contains { $0.source == .business && $0.isChange } })
            let before = await control.requestCount(for: .business)
            #expect(await control.waitForRequests(.business, atLeast: before + 3))
            #expect(await log.changed(.business).count == 1)
            #expect(await log.failures(.business).isEmpty)
        }
    }

    @Test func aNewEntryAtTheSourceIsAnnounced() async throws {
        try await live(latencies: DemoConfiguration.uniform(.milliseconds(10)), interval: .milliseconds(200), sources: [.business]) {
            control, _, log in
            #expect(await log.wait { $0.contains { $0.source == .business && $0.isChange } })
            await control.addEntry(to: .business)
            #expect(await log.wait { events in events.filter { $0.source == .business && $0.isChange }.count == 2 })
            let lists = await log.changed(.business)
            #expect(lists.last?.count == (lists.first?.count ?? 0) + 1)
            #expect(lists.last?.dropFirst().first == lists.first?.first)  // the new one is on top
        }
    }

    @Test func aFailingSourceKeepsItsEntriesTheOthersGoOnAndHealingIsAnnounced() async throws {
        try await live(latencies: DemoConfiguration.uniform(.milliseconds(10)), interval: .milliseconds(200)) { control, hub, log in
            #expect(await log.wait { events in Set(events.filter(\.isChange).map(\.source)).isSuperset(of: [.business, .environment]) })
            await control.setFault(.serverError, for: .business)
            #expect(await log.wait { events in events.contains { $0.source == .business && $0.isFailure } })
            #expect(await hub.currentSnapshot().entries[.business]?.count == 20)
            // The others go on: a new Environment entry still arrives.
            await control.addEntry(to: .environment)
            #expect(await log.wait { events in events.filter { $0.source == .environment && $0.isChange }.count >= 2 })
            let changesBefore = await log.changed(.business).count
            await control.setFault(.none, for: .business)
            #expect(await log.wait { events in events.filter { $0.source == .business && $0.isChange }.count > changesBefore })
            #expect(await hub.currentSnapshot().failures[.business] == nil)
        }
    }

    @Test func theMergedSourceListsEntertainmentBeforeEnvironment() async throws {
        try await live(latencies: [.business: .milliseconds(10), .entertainment: .milliseconds(400), .environment: .milliseconds(10)]) {
            _, hub, log in
            #expect(await log.wait { events in events.contains { $0.source == .entertainment && $0.isChange } })
            // The merged list is published just after its part: wait for the one that follows it.
            #expect(
                await log.wait { events in
                    guard let part = events.lastIndex(where: { $0.source == .entertainment && $0.isChange }) else { return false }
                    return events[part...].contains { $0.source == .entertainmentAndEnvironment && $0.isChange }
                })
            let snapshot = await hub.currentSnapshot()
            let entertainment = snapshot.entries[.entertainment] ?? []
            let environment = snapshot.entries[.environment] ?? []
            #expect(!entertainment.isEmpty && !environment.isEmpty)
            #expect(snapshot.entries[.entertainmentAndEnvironment] == entertainment + environment)
        }
    }
}

extension DemoControl {
    /// Waits (generous deadline) until the sample server has seen `count` requests for `source`.
    func waitForRequests(_ source: DemoSource, atLeast count: Int, timeout: Duration = .seconds(20)) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while requestCount(for: source) < count, clock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        return requestCount(for: source) >= count
    }
}
