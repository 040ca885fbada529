import AsyncHTTPClient
import Foundation
import KioskDemo
import Logging
import Testing

@Suite struct ServerLifecycleTests {
    @Test func baseURLIsLoopbackWithTheBoundPort() async throws {
        try await DemoHarness.run { demo async throws in
            #expect(demo.base.scheme == "http")
            #expect(demo.base.host == "127.0.0.1")
            #expect((demo.base.port ?? 0) > 0)
            #expect(await demo.server.url(for: .facts).absoluteString == demo.url("/facts.json"))
            #expect(await demo.server.url(for: .newsAPI).absoluteString == demo.url("/newsapi/v2/"))
        }
    }

    @Test func aServerThatCannotBindFailsInsteadOfHanging() async throws {
        try await DemoHarness.run { demo async throws in
            var logger = Logger(label: "kiosk.demo.tests")
            logger.logLevel = .critical
            let port = try #require(demo.base.port)
            let second = DemoServer(configuration: DemoConfiguration(port: port), logger: logger)
            await #expect(throws: (any Error).self) { try await second.run() }
            // Waiters are released with the configured address rather than left waiting.
            #expect(await second.baseURL().port == port)
        }
    }

    /// `kiosk --demo` prefers the port beside the app's, the same on every start (feeds added
    /// from the demo's sites name it); when it is taken, any free port is bound instead.
    @Test func aPreferredPortThatIsTakenGivesWayToAnother() async throws {
        try await DemoHarness.run { demo async throws in
            var logger = Logger(label: "kiosk.demo.tests")
            logger.logLevel = .critical
            let taken = try #require(demo.base.port)
            var configuration = DemoConfiguration(port: taken)
            configuration.portIsPreferred = true
            let second = DemoServer(configuration: configuration, logger: logger)
            let serving = Task { try await second.run() }
            let base = await second.baseURL()
            #expect(base.port != taken && (base.port ?? 0) > 0)
            let response = try await demo.client.execute(
                HTTPClientRequest(url: base.absoluteString + "/facts.json"), timeout: .seconds(20))
            #expect(response.status == .ok)
            serving.cancel()
            _ = await serving.result
        }
        #expect(DemoConfiguration.preferredPort(beside: 8080) == 8081)
        #expect(DemoConfiguration.preferredPort(beside: 0) == 0)
        #expect(DemoConfiguration.preferredPort(beside: 65_535) == 0)
    }
}
