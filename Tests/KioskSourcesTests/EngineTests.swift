import Foundation
import KioskCore
import KioskModel
@testable import KioskSources
import KioskTesting
import Testing

@Suite struct EngineTests {
    private func feed(_ id: SourceID, interval: Duration = .seconds(60)) -> PolledSource {
        PolledSource(id: id, name: id.rawValue, url: url(id.rawValue), interval: interval)
    }

    /// Runs an engine over `feeds` while `body` runs, then stops it. The engine's pauses and the
    /// script's delays pass on `clock`: real time, or a `ManualClock` the test moves.
    private func running(
        _ feeds: [PolledSource], _ script: FetchScript, merged: [MergedSource] = [],
        clock: any Clock<Duration> = ContinuousClock(),
        _ body: (EventHub, Engine, EventLog) async throws -> Void
    ) async throws {
        let hub = EventHub()
        let engine = Engine(
            feeds: feeds, merged: merged, fetcher: ScriptedFetcher(script: script, clock: clock), hub: hub,
            clock: clock, backoff: Backoff(cap: .milliseconds(200), jitter: 0))
        // Listening before the engine starts: its first check may be announced before the body
        // runs, and a log that subscribed later would wait for it in vain.
        let (log, recorder) = await hub.record()
        defer { recorder.cancel() }
        let task = Task { try await engine.run() }
        defer { task.cancel() }
        try await body(hub, engine, log)
    }

    /// On a `ManualClock`: the slow source cannot answer until the test says so, so the order
    /// is certain, whatever the machine's load.
    @Test(.timeLimit(.minutes(2))) func aFastSourceIsAnnouncedBeforeASlowOneAnswers() async throws {
        let clock = ManualClock()
        let script = FetchScript()
        await script.set(url("fast"), delay: .milliseconds(100), .success(rss(["f1"])))
        await script.set(url("slow"), delay: .seconds(3), .success(rss(["s1"])))
        try await running([feed("fast"), feed("slow")], script, clock: clock) { hub, _, log in
            // Both checks are under way at once: an engine that checked one source after the
            // other would never have two answers pending.
            #expect(await clock.waitForSleepers(atLeast: 2), "the two sources were not checked at the same time")
            clock.advance(by: .milliseconds(100))
            #expect(await log.wait { events in events.contains { $0.source == "fast" && $0.isChange } })
            // The fast source was announced while the slow one was still being checked.
            #expect(await log.events.contains { $0.source == "slow" && $0.isChange } == false)
            clock.advance(by: .seconds(3))
            #expect(await log.wait { events in events.contains { $0.source == "slow" && $0.isChange } })
        }
    }

    @Test func anUnchangedSourceProducesNoChangedEvent() async throws {
        let script = FetchScript()
        await script.set(url("a"), .success(rss(["a1", "a2"])))
        try await running([feed("a", interval: .milliseconds(50))], script) { hub, _, log in
            #expect(await log.wait { $0.contains { $0.isChange } })
            await script.set(url("a"), .success(.notModified(freshFor: nil)))
            let checksBefore = await script.count(url("a"))
            #expect(await script.waitForCount(url("a"), atLeast: checksBefore + 3))  // several 304s
            #expect(await log.changed("a").count == 1)
        }
    }

    @Test func identicalEntriesAreNoChange() async throws {
        let script = FetchScript()
        await script.set(url("a"), .success(rss(["a1"])))
        try await running([feed("a", interval: .milliseconds(50))], script) { hub, _, log in
            #expect(await script.waitForCount(url("a"), atLeast: 4))
            #expect(await log.changed("a").count == 1)
        }
    }

    @Test func aFailingSourceKeepsItsEntriesAndTheOthersGoOn() async throws {
        let script = FetchScript()
        await script.set(url("bad"), .success(rss(["b1"])))
        await script.set(url("good"), .success(rss(["g1"])))
        try await running([feed("bad", interval: .milliseconds(50)), feed("good", interval: .milliseconds(50))], script) {
            hub, engine, log in
            #expect(await log.wait { events in events.contains { $0.source == "bad" && $0.isChange } })
            await script.set(url("bad"), .failure(.status(code: 500, message: "boom", retryAfter: nil)))
            #expect(await log.wait { events in events.contains { $0.source == "bad" && $0.isFailure } })
            await script.set(url("good"), .success(rss(["g1", "g2"])))
            #expect(await log.wait { events in events.contains { $0.kind == .changed("good", Self.entries(["g1", "g2"])) } })
            #expect(await engine.state(of: "bad")?.entries?.map(\.title) == ["b1"])
            #expect(await hub.currentSnapshot().entries["bad"]?.map(\.title) == ["b1"])
            // Healing is announced, even with the same entries, so the error clears.
            let changesBefore = await log.changed("bad").count
            await script.set(url("bad"), .success(rss(["b1"])))
            #expect(
                await log.wait { events in events.filter { $0.source == "bad" && $0.isChange }.count > changesBefore })
            #expect(await hub.currentSnapshot().failures["bad"] == nil)
        }
    }

    /// On a `ManualClock`: nothing answers before the test listens, so the first merged list it
    /// sees is certain (with real time, Environment's instant answer could be announced before
    /// the log subscribed, and the test saw only the full list).
    @Test(.timeLimit(.minutes(2))) func theMergedSourceListsEntertainmentBeforeEnvironment() async throws {
        let clock = ManualClock()
        let script = FetchScript()
        await script.set(url("environment"), delay: .milliseconds(100), .success(rss(["env1", "env2"])))
        await script.set(url("entertainment"), delay: .milliseconds(300), .success(rss(["ent1", "ent2"])))
        try await running(
            [feed(.environment), feed(.entertainment)], script, merged: [SourceCatalogue.entertainmentAndEnvironment],
            clock: clock
        ) { hub, _, log in
            #expect(await clock.waitForSleepers(atLeast: 2))
            clock.advance(by: .milliseconds(100))
            // Before Entertainment answered, the merged list already showed Environment alone.
            #expect(await log.wait { events in !events.filter { $0.source == .entertainmentAndEnvironment && $0.isChange }.isEmpty })
            #expect(await log.changed(.entertainmentAndEnvironment).first?.map(\.title) == ["env1", "env2"])
            clock.advance(by: .milliseconds(200))
            #expect(
                await log.wait { events in
                    events.contains {
                        $0.kind == .changed(
                            .entertainmentAndEnvironment, Self.entries(["ent1", "ent2", "env1", "env2"]),
                            origins: [.entertainment, .entertainment, .environment, .environment])
                    }
                })
        }
    }

    /// On a `ManualClock` moved 100 ms at a time: the quick source is checked each time, the
    /// lazy one (60 s) only at the start.
    @Test(.timeLimit(.minutes(2))) func everySourceIsCheckedOnItsOwnInterval() async throws {
        let clock = ManualClock()
        let script = FetchScript()
        await script.set(url("quick"), .success(.notModified(freshFor: nil)))
        await script.set(url("lazy"), .success(.notModified(freshFor: nil)))
        let feeds = [feed("quick", interval: .milliseconds(100)), feed("lazy", interval: .seconds(60))]
        try await running(feeds, script, clock: clock) { _, _, _ in
            for checks in 1...5 {
                #expect(await script.waitForCount(url("quick"), atLeast: checks))
                #expect(await clock.waitForSleepers(atLeast: 2))  // both pause until their next check
                clock.advance(by: .milliseconds(100))
            }
            #expect(await script.waitForCount(url("quick"), atLeast: 6))
            #expect(await script.count(url("lazy")) == 1)
        }
    }

    /// On a `ManualClock`: a 429's Retry-After (30 s) outweighs the 20 ms interval and the
    /// backoff's 200 ms cap; the source is asked again at 30 s, not a moment before.
    @Test(.timeLimit(.minutes(2))) func retryAfterIsHonoured() async throws {
        let clock = ManualClock()
        let script = FetchScript()
        await script.set(url("limited"), .failure(.status(code: 429, message: nil, retryAfter: .seconds(30))))
        try await running([feed("limited", interval: .milliseconds(20))], script, clock: clock) { _, _, _ in
            #expect(await script.waitForCount(url("limited"), atLeast: 1))
            #expect(await clock.waitForSleepers(atLeast: 1))
            #expect(clock.nextDeadline == ManualClock.Instant(offset: .seconds(30)))
            clock.advance(by: .milliseconds(29_999))
            #expect(await script.count(url("limited")) == 1)
            clock.advance(by: .milliseconds(1))
            #expect(await script.waitForCount(url("limited"), atLeast: 2))
        }
    }

    @Test func backoffGrowsExponentiallyUpToItsCapWithJitter() {
        var random = SystemRandomNumberGenerator()
        let backoff = Backoff(cap: .seconds(60), jitter: 0.2)
        #expect(backoff.delay(after: 0, interval: .seconds(5), using: &random) == .seconds(5))
        for failures in 1...10 {
            let delay = backoff.delay(after: failures, interval: .seconds(5), using: &random)
            let expected = min(Duration.seconds(5) * (1 << failures), .seconds(60))
            #expect(delay >= expected * 0.8 && delay <= expected * 1.2)
        }
    }

    static func entries(_ titles: [String]) -> [Entry] {
        titles.map { Entry(id: $0, title: $0, link: $0) }
    }
}

extension EngineEvent {
    var isChange: Bool { if case .changed = kind { true } else { false } }
    var isFailure: Bool { if case .failed = kind { true } else { false } }
}
