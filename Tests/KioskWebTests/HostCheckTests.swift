import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOEmbedded
import Testing

@testable import KioskWeb

/// Kiosk answers only the host names it is reached by (DNS rebinding): the loopback names, the
/// listening host and `allowedHosts`, on any port; any other Host gets 421 in plain text.
@Suite struct HostCheckTests {
    // MARK: the policy

    @Test func loopbackNamesAreAllowedOnAnyPortAndNothingElseByDefault() {
        let policy = HostPolicy(boundHost: "127.0.0.1")
        for host in [
            "localhost", "localhost:8080", "LOCALHOST:8080", "localhost.:8080", "127.0.0.1", "127.0.0.1:1", "[::1]",
            "[::1]:8080",
        ] {
            #expect(policy.verdict(for: host) == .allowed, "\(host)")
        }
        for host in [
            "evil.example", "evil.example:8080", "localhost.evil.example", "127.0.0.1.nip.io", "kiosk.lan", "10.0.0.5:8080",
            "[::2]",
        ] {
            #expect(policy.verdict(for: host) == .misdirected, "\(host)")
        }
        for host in ["", ":8080", "localhost:80a", "localhost:123456", "evil.example@localhost", "local host", "[::1", "a/b"] {
            #expect(policy.verdict(for: host) == .malformed, "\(host.debugDescription)")
        }
        // No Host at all: only HTTP/1.0 gets this far (the channel refuses HTTP/1.1 without one).
        #expect(policy.verdict(for: nil) == .allowed)
    }

    @Test func theListeningHostAndAllowedHostsAreAllowed() {
        let named = HostPolicy(boundHost: "Kiosk.LAN", allowedHosts: ["reader.example.org", "192.168.1.20:8080", "fe80::1", " Spaced.Example "])
        for host in ["kiosk.lan:8080", "reader.example.org", "READER.example.org:443", "192.168.1.20:9999", "[fe80::1]:80", "spaced.example"] {
            #expect(named.verdict(for: host) == .allowed, "\(host)")
        }
        #expect(named.verdict(for: "other.example.org") == .misdirected)
        #expect(HostPolicy(boundHost: "::1").verdict(for: "[::1]:80") == .allowed)
        #expect(HostPolicy(boundHost: "192.168.1.20").verdict(for: "192.168.1.20:8080") == .allowed)
        // Listening everywhere names no host.
        for wildcard in ["0.0.0.0", "::", "[::]"] {
            let policy = HostPolicy(boundHost: wildcard)
            #expect(policy.names == HostPolicy.loopbackNames, "\(wildcard)")
            #expect(policy.verdict(for: "0.0.0.0:8080") == .misdirected, "\(wildcard)")
        }
    }

    @Test func loopbackAddressesAreToldFromTheRest() {
        for host in ["localhost", "LocalHost", "127.0.0.1", "127.1.2.3", "::1", "[::1]", "0:0:0:0:0:0:0:1", "::ffff:127.0.0.1"] {
            #expect(HostPolicy.isLoopback(host), "\(host)")
        }
        for host in ["0.0.0.0", "::", "192.168.1.20", "10.0.0.1", "kiosk.lan", "example.org", "128.0.0.1", "::2", "::ffff:10.0.0.1", ""] {
            #expect(!HostPolicy.isLoopback(host), "\(host)")
        }
    }

    // MARK: over the router

    /// The router's answer to `GET path` naming `authority` (the router test client always names
    /// `localhost`, so requests are made here, the way HummingbirdTesting makes its own).
    static func answer(_ kiosk: KioskHarness, authority: String?, path: String = "/healthz") async throws
        -> (status: HTTPResponse.Status, headers: HTTPFields, body: String)
    {
        let request = Request(
            head: HTTPRequest(method: .get, scheme: "http", authority: authority, path: path),
            body: RequestBody(buffer: ByteBuffer()))
        let response = try await respond(to: request, in: buildApplication(kiosk.config, dependencies: kiosk.dependencies, logger: .quiet))
        let collected = BodyCollector()
        try await response.body.write(collected)
        return (response.status, response.headers, String(buffer: collected.box.buffer))
    }

    private static func respond(to request: Request, in app: some ApplicationProtocol) async throws -> Response {
        try await app.responder.respond(
            to: request, context: .init(source: .init(channel: NIOAsyncTestingChannel(), logger: .quiet)))
    }

    /// Collects a response body.
    struct BodyCollector: ResponseBodyWriter {
        final class Box: @unchecked Sendable {
            var buffer = ByteBuffer()
        }
        let box = Box()
        func write(_ buffer: ByteBuffer) async throws {
            var buffer = buffer
            box.buffer.writeBuffer(&buffer)
        }
        consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }

    @Test func anotherHostIsMisdirectedWithTheSecurityHeaders() async throws {
        try await withKioskApp { kiosk in
            for path in ["/healthz", "/", "/no/such/page"] {
                let refused = try await Self.answer(kiosk, authority: "evil.example:8080", path: path)
                #expect(refused.status == .misdirectedRequest, "\(path)")
                #expect(refused.headers[.contentType] == "text/plain; charset=utf-8")
                #expect(refused.body.contains("does not answer to this host name"))
                #expect(!refused.body.contains("evil.example"))
                #expect(refused.headers[.setCookie] == nil, "no cookie for a page that was never served")
                for field in SecurityHeadersMiddleware.fields {
                    #expect(refused.headers[field.name] == field.value, "\(path): \(field.name)")
                }
            }
            let malformed = try await Self.answer(kiosk, authority: "evil.example@localhost")
            #expect(malformed.status == .badRequest)
            #expect(malformed.headers[.contentSecurityPolicy] != nil)

            for authority in ["localhost:8080", "127.0.0.1:8080", "[::1]:8080", nil] {
                let allowed = try await Self.answer(kiosk, authority: authority)
                #expect(allowed.status == .ok, "\(authority ?? "no Host")")
                #expect(allowed.body == "ok\n")
            }
        }
    }

    @Test func theConfiguredNamesAreAnswered() async throws {
        try await withKioskApp { kiosk in
            var config = kiosk.config
            config.host = "kiosk.lan"
            config.allowedHosts = ["reader.example.org"]
            let named = KioskHarness(
                hub: kiosk.hub, store: kiosk.store, signer: kiosk.signer, sampleBase: kiosk.sampleBase, config: config,
                dependencies: kiosk.dependencies)
            #expect(try await Self.answer(named, authority: "kiosk.lan:8080").status == .ok)
            #expect(try await Self.answer(named, authority: "reader.example.org").status == .ok)
            #expect(try await Self.answer(named, authority: "localhost:8080").status == .ok)
            #expect(try await Self.answer(named, authority: "other.example.org").status == .misdirectedRequest)
            // The router test client names localhost, so every route test passes the check.
            try await named.run { client, _ in
                let status = try await client.get("/healthz").status
                #expect(status == .ok)
            }
        }
    }

    // MARK: on a real socket

    @Test func theHostHeaderDecidesOnARealConnection() async throws {
        try await withKioskApp { kiosk in
            try await kiosk.run(.live) { client, _ in
                let port = try #require(client.port)
                let refused = try await RawHTTP.exchange(
                    "GET / HTTP/1.1\r\nHost: evil.example:\(port)\r\nConnection: close\r\n\r\n", port: port)
                #expect(refused.statusLine == "HTTP/1.1 421 Misdirected Request", "\(refused.text)")
                #expect(refused.header("Content-Type") == "text/plain; charset=utf-8")
                HTTPMannersTests.expectSecurityHeaders(refused, "421")

                let allowed = try await RawHTTP.exchange(
                    "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n", port: port)
                #expect(allowed.statusLine == "HTTP/1.1 200 OK")
                // HTTP/1.0 may leave Host out; HTTP/1.1 may not (HTTPMannersTests).
                let old = try await RawHTTP.exchange("GET /healthz HTTP/1.0\r\n\r\n", port: port)
                #expect(old.statusLine == "HTTP/1.0 200 OK")
            }
        }
    }
}
