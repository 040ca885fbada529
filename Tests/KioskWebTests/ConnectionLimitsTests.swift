import Foundation
#if canImport(Glibc)
import Glibc
#endif
import KioskTesting
@testable import KioskWeb
import Testing

/// What keeps many clients, or idle ones, from taking the server down: the open-file limit raised
/// at start, a cap on connections below it, and connections that say nothing closed. Real sockets
/// and real seconds: run alone, in scripts/swift-tests.sh's real-time stage.
@Suite struct ConnectionLimitsTests {
    @Test func theOpenFileLimitIsRaisedAndConnectionsKeptBelowIt() throws {
        let limits = try #require(OpenFileLimit.raise(), "the open-file limit cannot be read")
        #expect(limits.soft == limits.hard, "the soft limit was left below the hard one")
        #expect(OpenFileLimit.connectionBudget(soft: 1_024) == 1_024 - OpenFileLimit.reserve)
        #expect(OpenFileLimit.connectionBudget(soft: 65_536) == 65_536 - OpenFileLimit.reserve)
        // A tiny limit still leaves some connections; an absurd one does not overflow.
        #expect(OpenFileLimit.connectionBudget(soft: 100) == 64)
        #expect(OpenFileLimit.connectionBudget(soft: .max) == (1 << 30) - OpenFileLimit.reserve)
    }

    @Test func aConnectionThatSaysNothingIsClosedAfterTheIdleTimeoutButAStreamStays() async throws {
        try await withKioskApp { kiosk in
            var kiosk = kiosk
            kiosk.config.idleTimeout = .seconds(1)
            try await kiosk.run(.live) { client, _ in
                let port = try #require(client.port)
                let started = ContinuousClock.now
                async let silent = RawHTTP.exchange("", port: port, wait: .seconds(30))
                // An event stream sends nothing either once it is open, but it is a request in
                // progress: it outlives the idle timeout several times over.
                let stream = try await RawHTTP.exchange(
                    "GET /events HTTP/1.1\r\nHost: localhost\r\n\r\n", port: port, wait: .seconds(4))
                #expect(!stream.closed, "an open event stream was closed as idle")
                #expect(stream.statusLine == "HTTP/1.1 200 OK")
                let idle = try await silent
                #expect(idle.closed, "a connection that said nothing for 30 s is still open")
                #expect(ContinuousClock.now - started >= .milliseconds(900), "closed before its idle timeout")
            }
        }
    }

    @Test func aConnectionBeyondTheCapWaitsUntilOneCloses() async throws {
        try await withKioskApp { kiosk in
            // Run as `kiosk serve` runs it: HummingbirdTesting's live server leaves the cap out.
            var config = kiosk.config
            config.maxConnections = 2
            config.port = try Self.freePort()
            let (app, live) = composeApplication(config, dependencies: kiosk.dependencies, logger: .quiet)
            let running = Task { try await app.runService() }
            do {
                try await Self.holdAllAndAskAgain(port: config.port, live: live)
            } catch {
                running.cancel()
                _ = await running.result
                throw error
            }
            running.cancel()
            _ = await running.result
        }
    }

    /// With the server capped at two: two event streams hold both connections, and a third
    /// connection is answered only once one of them has closed.
    private static func holdAllAndAskAgain(port: Int, live: LiveBroadcaster) async throws {
        let health = "GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
        let up = try await eventually {
            (try? await RawHTTP.exchange(health, host: "127.0.0.1", port: port, wait: .seconds(2)))?.statusLine == "HTTP/1.1 200 OK"
        }
        try #require(up, "the server never answered")

        // Two event streams hold both connections for 8 s (the third is asked meanwhile).
        let request = "GET /events HTTP/1.1\r\nHost: localhost\r\n\r\n"
        async let first = RawHTTP.exchange(request, host: "127.0.0.1", port: port, wait: .seconds(8))
        async let second = RawHTTP.exchange(request, host: "127.0.0.1", port: port, wait: .seconds(8))
        let held = try await eventually { await live.clientCount == 2 }
        try #require(held, "the two streams never opened")
        // A third is not taken in while both are held: its answer comes once one has closed.
        let asked = ContinuousClock.now
        let third = try await RawHTTP.exchange(health, host: "127.0.0.1", port: port, wait: .seconds(30))
        let waited = ContinuousClock.now - asked
        #expect(third.statusLine == "HTTP/1.1 200 OK", "\(third.text)")
        _ = try await (first, second)
        #expect(waited >= .seconds(1), "the third connection was served beside two held ones (after \(waited))")
    }

    /// A port nobody listens on now (the usual small race is acceptable in tests).
    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw RawHTTP.Failure(description: "socket: errno \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw RawHTTP.Failure(description: "bind: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
