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
}
