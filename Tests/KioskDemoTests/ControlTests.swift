import Foundation
import KioskDemo
import Testing

@Suite struct ControlTests {
    @Test func requestCountsPerSourceAndPath() async throws {
        try await DemoHarness.run { demo async throws in
            _ = try await demo.get("/facts.json")
            _ = try await demo.get("/facts.json")
            _ = try await demo.get("/images/artwork/1/10x10bb.png")
            _ = try await demo.get("/images/artwork/2/10x10bb.png")
            _ = try await demo.get("/images/artwork/2/10x10bb.png")
            _ = try await demo.get("/newsapi/v2/top-headlines?apiKey=wrong")
            _ = try await demo.get("/nowhere")
            _ = try await demo.get("/_demo/stats")
            let control = demo.control
            #expect(await control.requestCount(for: .facts) == 2)
            #expect(await control.requestCount(for: .images) == 3)
            #expect(await control.requestCount(path: "/images/artwork/2/10x10bb.png") == 2)
            #expect(await control.requestCount(for: .newsAPI) == 1)
            #expect(await control.requestCount(path: "/newsapi/v2/top-headlines") == 1)
            #expect(await control.requestCount(for: .business) == 0)
            #expect(await control.requestCount(path: "/nowhere") == 0)
        }
    }

    @Test func httpControlSwitchesFaultsAndLatency() async throws {
        try await DemoHarness.run { demo async throws in
            #expect(try await demo.post("/_demo/fault?source=business&mode=serverError").status == 200)
            #expect(try await demo.get("/reuters/business.xml").status == 500)
            #expect(await demo.control.fault(for: .business) == .serverError)
            #expect(try await demo.post("/_demo/fault?source=business&mode=none").status == 200)
            #expect(try await demo.get("/reuters/business.xml").status == 200)

            #expect(try await demo.post("/_demo/latency?source=facts&ms=400").status == 200)
            #expect(await demo.control.latencyOverride(for: .facts) == .milliseconds(400))
            let elapsed = try await ContinuousClock().measure { _ = try await demo.get("/facts.json") }
            #expect(elapsed >= .milliseconds(390))

            #expect(try await demo.post("/_demo/fault?source=nope&mode=none").status == 400)
            let unknown = try await demo.post("/_demo/fault?source=facts&mode=explode")
            #expect(unknown.status == 400)
            // The browser tests read the list of modes from this answer.
            let listed = unknown.text.split(separator: ":").last.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } }
            #expect(listed == DemoFault.allCases.map(\.rawValue))
            #expect(try await demo.get("/_demo/fault?source=facts&mode=none").status == 405)
        }
    }

    @Test func httpAdvanceAddsAFeedEntry() async throws {
        try await DemoHarness.run { demo async throws in
            #expect(try await demo.post("/_demo/advance?source=environment").status == 200)
            #expect(DemoHarness.isETag(try await demo.get("/reuters/environment.xml").header("etag"), of: .environment, version: 1))
            #expect(try await demo.post("/_demo/advance?source=facts").status == 400)
        }
    }

    @Test func httpStatsReportCountsAsJSON() async throws {
        try await DemoHarness.run { demo async throws in
            _ = try await demo.get("/reuters/business.xml")
            await demo.control.setFault(.garbageBody, for: .albums)
            let stats = try await demo.get("/_demo/stats")
            #expect(stats.status == 200)
            let json = try #require(stats.json)
            let sources = try #require(json["sources"] as? [String: Int])
            #expect(sources["business"] == 1)
            #expect(sources["facts"] == 0)
            #expect((json["paths"] as? [String: Int])?["/reuters/business.xml"] == 1)
            #expect((json["faults"] as? [String: String])?["albums"] == "garbageBody")
        }
    }
}
