import Foundation
import KioskDemo
import Testing

@Suite struct LatencyTests {
    @Test func defaultLatenciesDifferPerSource() {
        let configuration = DemoConfiguration()
        #expect(configuration.latency(for: .business) == .milliseconds(100))
        #expect(configuration.latency(for: .entertainment) == .milliseconds(800))
        #expect(configuration.latency(for: .environment) == .seconds(2))
        #expect(configuration.latency(for: .images) == .milliseconds(30))
        #expect(Set(DemoSource.allCases.map { configuration.latency(for: $0) }).count == DemoSource.allCases.count)
    }

    @Test func aFastSourceAnswersWellBeforeASlowOne() async throws {
        try await DemoHarness.run(DemoConfiguration(evolveEvery: [:])) { demo async throws in
            let clock = ContinuousClock()
            async let slow = clock.measure { _ = try await demo.get("/reuters/environment.xml") }
            async let fast = clock.measure { _ = try await demo.get("/reuters/business.xml") }
            let (slowTime, fastTime) = try await (slow, fast)
            #expect(slowTime >= .milliseconds(1900))
            #expect(fastTime >= .milliseconds(90))
            // Order, not a margin: a loaded 2-core machine stretches both waits.
            #expect(fastTime < slowTime)
        }
    }

    @Test func setLatencyOverridesTheConfiguration() async throws {
        try await DemoHarness.run { demo async throws in
            await demo.control.setLatency(.milliseconds(600), for: .facts)
            let clock = ContinuousClock()
            let facts = try await clock.measure { _ = try await demo.get("/facts.json") }
            #expect(facts >= .milliseconds(590))
            let jokes = try await clock.measure { _ = try await demo.get("/switter/api/joke", headers: [("x-device-uuid", "d")]) }
            #expect(jokes < facts)  // the override applies to facts only
        }
    }
}
