import Foundation
import Hummingbird
import HummingbirdTesting
import KioskCore
import KioskSources
import KioskTesting
@testable import KioskWeb
import Testing

/// Every answer carries the strict CSP; every page keeps to it (no inline script or style).
@Suite struct SecurityHeadersRouteTests {
    /// uri, expected status, whether it is an HTML page.
    static let routes: [(uri: String, status: HTTPResponse.Status, html: Bool)] = [
        ("/", .ok, true), ("/news", .ok, true), ("/news?feed=entertainment-environment", .ok, true),
        ("/discover", .ok, true), ("/discover?category=science", .ok, true), ("/facts", .ok, true),
        ("/jokes", .ok, true), ("/albums", .ok, true), ("/offline", .ok, true), ("/no/such/page", .notFound, true),
        ("/news/business/unknown", .notFound, true), ("/img", .forbidden, true), ("/static/app.js", .ok, false),
        ("/static/app.css", .ok, false), ("/static/missing.js", .notFound, true), ("/manifest.webmanifest", .ok, false),
        ("/sw.js", .ok, false), ("/healthz", .ok, false),
    ]

    /// Checks the headers every response must have.
    static func expectSecurityHeaders(_ response: TestResponse, _ uri: String) {
        let csp = response.headers[.contentSecurityPolicy] ?? ""
        #expect(csp.contains("script-src 'self'"), "\(uri): CSP \(csp)")
        #expect(csp.contains("default-src 'self'"), "\(uri)")
        #expect(csp.contains("object-src 'none'"), "\(uri)")
        #expect(csp.contains("frame-ancestors 'none'"), "\(uri)")
        #expect(!csp.contains("unsafe-inline"), "\(uri)")
        #expect(!csp.contains("unsafe-eval"), "\(uri)")
        #expect(response.headers[.xContentTypeOptions] == "nosniff", "\(uri)")
        #expect(response.headers[.xFrameOptions] == "DENY", "\(uri)")
        #expect(response.headers[.referrerPolicy] == "no-referrer", "\(uri)")
    }

    /// Checks that a page keeps to the CSP: scripts only by `src`, no inline styles or handlers.
    static func expectNoInlineActiveContent(_ html: String, _ uri: String) {
        let scripts = HTMLInspection.startTags("script", in: html)
        #expect(!scripts.isEmpty, "\(uri): the page loads app.js")
        for tag in scripts {
            #expect(tag.contains(" src=\""), "\(uri): inline script \(tag)")
        }
        #expect(!HTMLInspection.hasStyleAttribute(html), "\(uri): style attribute")
        #expect(HTMLInspection.startTags("style", in: html).isEmpty, "\(uri): style element")
        #expect(!HTMLInspection.hasEventHandlerAttribute(html), "\(uri): inline event handler")
        #expect(!html.lowercased().contains("javascript:"), "\(uri): javascript: URL")
    }

    @Test func everyRouteAnswersWithAStrictContentSecurityPolicy() async throws {
        try await withKioskApp { kiosk in
            await kiosk.hub.publish(.changed(.business, [SampleEntries.plain(1), SampleEntries.plain(2)]))
            try await kiosk.run { client, _ in
                // The broadcaster's first snapshot has the entries once it runs.
                let listed = try await eventually { try await client.text("/news").contains("Plain headline 2") }
                try #require(listed)
                let detail = "/news/business/\(EntryIdentity.key(of: SampleEntries.plain(1)))"
                for (uri, status, isHTML) in Self.routes + [(detail, .ok, true)] {
                    let response = try await client.get(uri)
                    #expect(response.status == status, "\(uri)")
                    Self.expectSecurityHeaders(response, uri)
                    if isHTML {
                        #expect(response.headers[.contentType] == "text/html; charset=utf-8", "\(uri)")
                        let html = String(buffer: response.body)
                        #expect(html.hasPrefix("<!DOCTYPE html>"), "\(uri)")
                        Self.expectNoInlineActiveContent(html, uri)
                    }
                }
            }
        }
    }

    @Test func screensShowWhatTheirSourcesHold() async throws {
        try await withKioskApp { kiosk in
            try await kiosk.run { client, _ in
                let home = try await client.text("/")
                #expect(home.contains(#"<h1 id="owner-name">Test Owner</h1>"#))
                #expect(home.contains(#"data-page="home""#))
                let facts = try await client.text("/facts")
                #expect(HTMLInspection.count(#"<li class="fact">"#, in: facts) > 0)
                let albums = try await client.text("/albums")
                #expect(HTMLInspection.count(#"<li class="album">"#, in: albums) == 100)
                let jokes = try await client.text("/jokes")
                #expect(jokes.contains(#"id="joke-button""#))
                let offline = try await client.text("/offline")
                #expect(offline.contains("You are offline"))
            }
        }
    }

    @Test func staticFilesHaveTheirTypesAndRevalidate() async throws {
        try await withKioskApp { kiosk in
            try await kiosk.run { client, _ in
                let script = try await client.get("/static/app.js")
                #expect(script.headers[.contentType] == "text/javascript; charset=utf-8")
                let etag = try #require(script.headers[.eTag])
                let again = try await client.get("/static/app.js", headers: [.ifNoneMatch: etag])
                #expect(again.status == .notModified)
                #expect(again.body.readableBytes == 0)
                Self.expectSecurityHeaders(again, "/static/app.js (304)")
                #expect(try await client.get("/manifest.webmanifest").headers[.contentType] == "application/manifest+json")
                #expect(try await client.get("/sw.js").headers[.contentType] == "text/javascript; charset=utf-8")
                #expect(try await client.get("/static/icons/icon-192.png").headers[.contentType] == "image/png")
            }
        }
    }

    @Test func aBrowserGetsAClientCookieOnce() async throws {
        try await withKioskApp { kiosk in
            try await kiosk.run { client, _ in
                let first = try await client.get("/")
                let cookie = try #require(first.headers[.setCookie])
                #expect(cookie.hasPrefix("kiosk_client="))
                #expect(cookie.contains("HttpOnly"))
                #expect(cookie.contains("SameSite=Strict"))
                let value = String(cookie.dropFirst("kiosk_client=".count).prefix(while: { $0 != ";" }))
                #expect(UUID(uuidString: value) != nil)
                let second = try await client.get("/", headers: [.cookie: "kiosk_client=\(value)"])
                #expect(second.headers[.setCookie] == nil)
                let forged = try await client.get("/", headers: [.cookie: "kiosk_client=<script>"])
                #expect(forged.headers[.setCookie]?.hasPrefix("kiosk_client=") == true)
            }
        }
    }
}
