import Foundation
import Hummingbird
import HummingbirdTesting
import KioskDemo
import Testing

@testable import KioskWeb

/// Slow clients cannot hold the server: a request must be all in within a deadline of its first
/// byte, and stalled ones give way to new ones. On main a `POST /login` trickling a byte every
/// few seconds was held for ever, and 600 of them made /healthz unreachable. Over a real socket:
/// the properties are judged by what ended first (the server's close, long before the trickle
/// could finish), with bounds far from any passing run.
@Suite struct RequestDeadlineTests {
    /// 7,000 bytes at ten a second would take twelve minutes; the deadline is one second.
    @Test func aRequestBodyThatTricklesIsCutOffAtTheDeadline() async throws {
        try await withLimits(requestTimeout: .seconds(1)) { port in
            let head = "POST /login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                + "Content-Length: 7000\r\n\r\n"
            let trickled = try await RawHTTP.trickle(
                head, rest: Array(repeating: UInt8(ascii: "a"), count: 7_000), port: port, every: .milliseconds(100),
                limit: .seconds(90))
            #expect(trickled.closed, "a body trickled at ten bytes a second was never cut off")
            #expect(trickled.sent < 7_000)
            let health = try await RawHTTP.exchange("GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n", port: port)
            #expect(health.statusLine.contains("200"), "\(health.statusLine)")
        }
    }

    /// The head counts too: a header line that never ends.
    @Test func requestHeadersThatTrickleAreCutOffToo() async throws {
        try await withLimits(requestTimeout: .seconds(1)) { port in
            let trickled = try await RawHTTP.trickle(
                "GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: ", rest: Array(repeating: UInt8(ascii: "a"), count: 5_000),
                port: port, every: .milliseconds(100), limit: .seconds(90))
            #expect(trickled.closed, "a head trickled at ten bytes a second was never cut off")
            #expect(trickled.sent < 5_000)
        }
    }

    /// With three connections allowed part-way through a request, a fourth that arrives closes
    /// the one stalled longest, and is answered; the other two are left alone.
    @Test func stalledRequestsMakeRoomForANewOne() async throws {
        try await withLimits(requestTimeout: .seconds(120), pendingRequestLimit: 3) { port in
            var stalled: [Task<RawHTTP.Reply, any Error>] = []
            for _ in 0..<3 {
                stalled.append(Task { try await RawHTTP.exchange("GET /healthz HTTP/1.1\r\nHost: localhost\r\n", port: port, wait: .seconds(10)) })
                try await Task.sleep(for: .milliseconds(500))  // so that they arrive in this order
            }
            let answer = try await RawHTTP.exchange("GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n", port: port)
            #expect(answer.statusLine.contains("200"), "\(answer.statusLine)")
            #expect(try await stalled[0].value.closed, "the connection stalled longest was not closed to make room")
            #expect(try await stalled[1].value.closed == false)
            #expect(try await stalled[2].value.closed == false)
        }
    }

    @Test func theDefaultsAreGenerousForRealClients() {
        let config = AppConfig(catalogue: .demo(base: URL(fileURLWithPath: "/"), newsAPIKey: "demo"), dataDirectory: URL(fileURLWithPath: "/tmp"))
        #expect(config.requestTimeout == .seconds(60))
        #expect(config.pendingRequestLimit == 256)
    }

    /// A live Kiosk with these limits, on a free port.
    private func withLimits(
        requestTimeout: Duration, pendingRequestLimit: Int = 256, _ body: @escaping @Sendable (Int) async throws -> Void
    ) async throws {
        try await withKioskApp { kiosk in
            var config = kiosk.config
            config.requestTimeout = requestTimeout
            config.pendingRequestLimit = pendingRequestLimit
            let limited = KioskHarness(
                hub: kiosk.hub, store: kiosk.store, signer: kiosk.signer, sampleBase: kiosk.sampleBase, config: config,
                dependencies: kiosk.dependencies)
            try await limited.run(.live) { client, _ in try await body(try #require(client.port)) }
        }
    }
}
