import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import KioskDemo
import Testing

@testable import KioskWeb

/// With no account, a real installation's owner proves it with the link printed at start: a
/// request from loopback alone (a reverse proxy on this machine that adds no header) gets nothing
/// of the reader. On main, loopback was enough: 200 on /reader and /settings, 303 on subscribe.
@Suite struct OwnerAccessTests {
    static let token = String(repeating: "ab", count: 32)
    static let html: HTTPFields = [.accept: "text/html"]

    @Test func withoutTheLinkNothingOfTheReaderIsServed() async throws {
        try await withOwnerLink { client in
            for path in ["/", "/reader", "/reader/all", "/settings", "/news"] {
                let page = try await client.get(path, headers: Self.html)
                #expect(page.status == .unauthorized, "\(path)")
                #expect(String(buffer: page.body).contains(#"data-page="owner-link""#), "\(path)")
                #expect(page.headers[.cacheControl] == "no-store")
            }
            let subscribe = try await client.execute(
                uri: "/reader/subscribe", method: .post,
                headers: [.contentType: "application/x-www-form-urlencoded"], body: ByteBuffer(string: "url=http://example.com/"))
            #expect([.unauthorized, .forbidden].contains(subscribe.status), "\(subscribe.status)")
            // What anyone may fetch still answers.
            #expect(try await client.get("/healthz").status == .ok)
            #expect(try await client.get("/static/app.css").status == .ok)
        }
    }

    @Test func theLinkLeavesACookieThatLetsTheOwnerIn() async throws {
        try await withOwnerLink { client in
            #expect(try await client.get("/owner?token=" + String(repeating: "00", count: 32), headers: Self.html).status == .unauthorized)
            #expect(try await client.get("/owner", headers: Self.html).status == .unauthorized)
            let opened = try await client.get("/owner?token=" + Self.token, headers: Self.html)
            #expect(opened.status == .seeOther)
            #expect(opened.headers[.location] == "/")
            let setCookie = try #require(opened.headers[.setCookie])
            #expect(setCookie.hasPrefix("kiosk_owner="))
            for attribute in ["HttpOnly", "SameSite=Lax", "Path=/"] { #expect(setCookie.contains(attribute)) }
            let cookie = String(setCookie.prefix { $0 != ";" })
            #expect(try await client.get("/reader", headers: [.cookie: cookie, .accept: "text/html"]).status == .ok)
            #expect(try await client.get("/settings", headers: [.cookie: cookie, .accept: "text/html"]).status == .ok)
            // A cookie of another value is nothing.
            #expect(try await client.get("/reader", headers: [.cookie: "kiosk_owner=" + Self.token]).status == .unauthorized)
        }
    }

    @Test func theCookieOutlivesTheProcessAndTheTokenDoesNot() async throws {
        try await withKioskApp { kiosk in
            let first = OwnerPass(access: .link(token: Self.token), signer: kiosk.signer)
            let second = OwnerPass(access: .newLink(), signer: kiosk.signer)
            // The cookie comes from the installation's key: a restart (a new token) keeps it.
            #expect(first.cookieValue == second.cookieValue)
            #expect(OwnerAccess.newLink() != OwnerAccess.newLink())
            #expect(OwnerAccess.loopback.path == nil)
            #expect(OwnerAccess.link(token: "t").path == "/owner?token=t")
        }
    }

    @Test func aRealInstallationAsksForTheLinkByDefault() {
        let config = AppConfig(catalogue: .demo(base: URL(fileURLWithPath: "/"), newsAPIKey: "demo"), dataDirectory: URL(fileURLWithPath: "/tmp"))
        guard case .link(let token) = config.ownerAccess else {
            Issue.record("the default trusts loopback")
            return
        }
        #expect(token.count == 64)
    }

    /// A Kiosk with no account whose owner must use the link with ``token``.
    private func withOwnerLink(_ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        try await withKioskApp { kiosk in
            var config = kiosk.config
            config.ownerAccess = .link(token: Self.token)
            let linked = KioskHarness(
                hub: kiosk.hub, store: kiosk.store, signer: kiosk.signer, sampleBase: kiosk.sampleBase, config: config,
                dependencies: kiosk.dependencies)
            try await linked.run { client, _ in try await body(client) }
        }
    }
}
