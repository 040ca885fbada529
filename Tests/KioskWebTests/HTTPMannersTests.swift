import Foundation
import Hummingbird
import HummingbirdTesting
import KioskCore
import KioskModel
import KioskSources
import KioskStore
@testable import KioskWeb
import Testing

/// HTTP's manners: HEAD wherever GET is, 405 with `Allow` for a method a path does not take,
/// HTTP/1.0 connections closed after their answer, a Permissions-Policy and the other security
/// headers on every answer, the channel's own 400s included.
@Suite struct HTTPMannersTests {
    /// The Permissions-Policy every answer carries.
    static func expectPermissionsPolicy(_ policy: String?, _ where: String) {
        let policy = policy ?? ""
        for feature in ["camera=()", "microphone=()", "geolocation=()", "interest-cohort=()"] {
            #expect(policy.contains(feature), "\(`where`): Permissions-Policy \(policy)")
        }
    }

    /// The security headers of an answer read off a socket.
    static func expectSecurityHeaders(_ reply: RawHTTP.Reply, _ where: String) {
        let csp = reply.header("Content-Security-Policy") ?? ""
        #expect(csp.contains("default-src 'self'") && csp.contains("frame-ancestors 'none'"), "\(`where`): CSP \(csp)")
        #expect(reply.header("X-Content-Type-Options") == "nosniff", "\(`where`)")
        #expect(reply.header("X-Frame-Options") == "DENY", "\(`where`)")
        #expect(reply.header("Referrer-Policy") == "no-referrer", "\(`where`)")
        expectPermissionsPolicy(reply.header("Permissions-Policy"), `where`)
    }

    // MARK: HEAD and 405, over the router

    @Test func headAnswersLikeGetWithoutABody() async throws {
        try await withKioskApp { kiosk in
            try await kiosk.run { client, _ in
                for uri in SecurityHeadersRouteTests.routes.map(\.uri) + ["/reader", "/reader/add", "/feeds.opml"] {
                    let get = try await client.get(uri)
                    let head = try await client.execute(uri: uri, method: .head)
                    #expect(head.status == get.status, "\(uri)")
                    #expect(head.headers[.contentType] == get.headers[.contentType], "\(uri)")
                    // An error page's body is left to the channel, which never writes one for HEAD.
                    if head.status == .ok { #expect(head.body.readableBytes == 0, "\(uri)") }
                    SecurityHeadersRouteTests.expectSecurityHeaders(head, "HEAD \(uri)")
                }
                // Files have a fixed length, which HEAD announces.
                for uri in ["/static/app.js", "/sw.js", "/healthz"] {
                    let get = try await client.get(uri)
                    let head = try await client.execute(uri: uri, method: .head)
                    #expect(head.headers[.contentLength] == String(get.body.readableBytes), "\(uri)")
                }
            }
        }
    }

    @Test func headOnTheEventStreamSubscribesNoOne() async throws {
        try await withKioskApp { kiosk in
            try await kiosk.run { client, live in
                let head = try await client.execute(uri: "/events", method: .head)
                #expect(head.status == .ok)
                #expect(head.headers[.contentType] == "text/event-stream")
                #expect(await live.clientCount == 0)
            }
        }
    }

    @Test func aMethodAPathDoesNotTakeIs405WithAllow() async throws {
        let cases: [(uri: String, methods: [HTTPRequest.Method], allow: String)] = [
            ("/", [.put, .delete, .patch, .post, .options, .trace], "GET, HEAD"),
            ("/healthz", [.post, .delete], "GET, HEAD"),
            ("/static/app.js", [.put, .delete], "GET, HEAD"),
            ("/news/business/some-key", [.delete, .patch], "GET, HEAD"),
            ("/jokes/next", [.get, .head, .put], "POST"),
            ("/reader/read", [.get, .delete], "POST"),
            ("/reader/add", [.put, .delete], "GET, HEAD, POST"),
            ("/reader/feed/business/settings", [.patch], "GET, HEAD, POST"),
        ]
        try await withKioskApp { kiosk in
            try await kiosk.run { client, _ in
                for (uri, methods, allow) in cases {
                    for method in methods {
                        let response = try await client.execute(uri: uri, method: method)
                        #expect(response.status == .methodNotAllowed, "\(method) \(uri)")
                        #expect(response.headers[.allow] == allow, "\(method) \(uri)")
                        SecurityHeadersRouteTests.expectSecurityHeaders(response, "\(method) \(uri)")
                        Self.expectPermissionsPolicy(response.headers[.permissionsPolicy], "\(method) \(uri)")
                    }
                }
            }
        }
    }

    @Test func unknownPathsStayNotFoundAndUnknownMethodsAreNotImplemented() async throws {
        try await withKioskApp { kiosk in
            try await kiosk.run { client, _ in
                let missing = try await client.execute(uri: "/no/such/page", method: .put)
                #expect(missing.status == .notFound)
                #expect(missing.headers[.allow] == nil)
                for name in ["PROPFIND", "BREW"] {
                    let method = try #require(HTTPRequest.Method(name))
                    let response = try await client.execute(uri: "/", method: method)
                    #expect(response.status == .notImplemented, "\(name)")
                    SecurityHeadersRouteTests.expectSecurityHeaders(response, name)
                }
            }
        }
    }

    @Test func everyAnswerCarriesAPermissionsPolicy() async throws {
        try await withKioskApp { kiosk in
            try await kiosk.run { client, _ in
                for (uri, status, _) in SecurityHeadersRouteTests.routes {
                    let response = try await client.get(uri)
                    #expect(response.status == status, "\(uri)")
                    Self.expectPermissionsPolicy(response.headers[.permissionsPolicy], uri)
                }
            }
        }
    }

    // MARK: connections, on a real socket

    /// Over a real socket, where HTTP's parser (llhttp) refuses a method it does not know before
    /// any route: main answered `BREW` with 400 there, while docs/SECURITY.md says 501.
    @Test func aMethodTheParserDoesNotKnowIs501OverARealConnection() async throws {
        try await withKioskApp { kiosk in
            try await kiosk.run(.live) { client, _ in
                let port = try #require(client.port)
                for method in ["BREW", "PROPFIND", "COFFEE-POT"] {
                    let reply = try await RawHTTP.exchange("\(method) /reader HTTP/1.1\r\nHost: localhost\r\n\r\n", port: port)
                    #expect(reply.statusLine == "HTTP/1.1 501 Not Implemented", "\(method): \(reply.statusLine)")
                    Self.expectSecurityHeaders(reply, method)
                }
                // The connection after it is closed, and the server goes on serving.
                let reply = try await RawHTTP.exchange(
                    "BREW / HTTP/1.1\r\nHost: localhost\r\n\r\nGET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n", port: port)
                #expect(reply.closed)
                #expect(!reply.text.contains("\r\n\r\nok\n"), "a request after the unreadable one was run")
                let after = try await RawHTTP.exchange("GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n", port: port)
                #expect(after.statusLine == "HTTP/1.1 200 OK")
            }
        }
    }

    /// Every route answers and leaves a kept-alive connection open for the next request (main:
    /// after `GET /discover/results` the connection was closed with no `Connection: close`,
    /// and the request a browser sent next on it got no answer).
    @Test func everyRouteKeepsTheConnectionForTheNextRequest() async throws {
        try await withKioskApp { kiosk in
            try await kiosk.store.saveSourceState(SourceState(entries: [Entry(id: "1", title: "One")]), for: .business)
            let key = EntryIdentity.key(of: Entry(id: "1", title: "One"))
            try await kiosk.run(.live) { client, _ in
                let port = try #require(client.port)
                let uris = SecurityHeadersRouteTests.routes.map(\.uri) + [
                    "/discover/results?category=business", "/discover/results?q=the", "/discover/results?q=one&in=saved",
                    "/discover/articles/unknown", "/reader", "/reader/all", "/reader/starred", "/reader/folder/News",
                    "/reader/feed/business", "/reader/entry/business/\(key)", "/reader/counts", "/reader/add",
                    "/reader/opml", "/feeds.opml", "/reader/feed/business/settings", "/reader/offline.json", "/offline/reader",
                    "/settings", "/login", "/readyz", "/news/business/\(key)",
                ]
                for uri in uris {
                    let reply = try await RawHTTP.exchange(
                        "GET \(uri) HTTP/1.1\r\nHost: localhost\r\n\r\nGET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
                        port: port)
                    // The second answer is /healthz's "ok", after its head.
                    #expect(reply.text.hasSuffix("\r\n\r\nok\n"), "\(uri): the next request on the connection got no answer")
                    #expect(reply.header("Connection")?.lowercased() != "close", "\(uri) closes the connection")
                }
            }
        }
    }

    @Test func anHTTP10RequestIsAnsweredThenTheConnectionCloses() async throws {
        try await withKioskApp { kiosk in
            try await kiosk.run(.live) { client, _ in
                let port = try #require(client.port)
                let reply = try await RawHTTP.exchange("GET /healthz HTTP/1.0\r\n\r\n", port: port)
                #expect(reply.closed, "the connection stays open after an HTTP/1.0 answer")
                #expect(reply.statusLine == "HTTP/1.0 200 OK")
                #expect(reply.header("Connection") == "close")
                #expect(reply.text.hasSuffix("\r\n\r\nok\n"))
                Self.expectSecurityHeaders(reply, "HTTP/1.0")

                let closing = try await RawHTTP.exchange("GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n", port: port)
                #expect(closing.closed)
                #expect(closing.statusLine == "HTTP/1.1 200 OK")
                #expect(closing.header("Connection") == "close")

                for uri in ["/", "/no/such/page"] {
                    let head = try await RawHTTP.exchange("HEAD \(uri) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n", port: port)
                    #expect(head.closed)
                    #expect(head.header("Content-Length") != nil, "\(uri)")
                    #expect(head.text.hasSuffix("\r\n\r\n"), "HEAD \(uri) has a body: \(head.text)")
                }
            }
        }
    }

    @Test func anHTTP10ClientThatAsksKeepsItsConnection() async throws {
        try await withKioskApp { kiosk in
            try await kiosk.run(.live) { client, _ in
                let port = try #require(client.port)
                let reply = try await RawHTTP.exchange(
                    "GET /healthz HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET /healthz HTTP/1.0\r\n\r\nGET /healthz HTTP/1.0\r\n\r\n",
                    port: port)
                #expect(reply.closed)
                #expect(reply.header("Connection") == "keep-alive")
                // The second closes the connection: the third is never answered.
                #expect(HTMLInspection.count("HTTP/1.0 200 OK", in: reply.text) == 2, "\(reply.text)")
            }
        }
    }

    @Test func anHTTP10ClientNeverGetsChunks() async throws {
        try await withKioskApp { kiosk in
            try await kiosk.run(.live) { client, _ in
                let port = try #require(client.port)
                let reply = try await RawHTTP.exchange("GET /events HTTP/1.0\r\n\r\n", port: port, until: "retry: 2000\n\n")
                #expect(reply.statusLine == "HTTP/1.0 200 OK")
                #expect(reply.header("Transfer-Encoding") == nil)
                #expect(reply.header("Connection") == "close")
                #expect(reply.text.contains("\r\n\r\nretry: 2000\n\n"), "\(reply.text)")
            }
        }
    }

    @Test func malformedRequestsGetA400WithTheSecurityHeaders() async throws {
        try await withKioskApp { kiosk in
            try await kiosk.run(.live) { client, _ in
                let port = try #require(client.port)
                for request in [
                    "GARBAGE\r\n\r\n", "GET / HTTP/1.1 junk\r\nHost: localhost\r\n\r\n",
                    // HTTP/1.1 requires one Host, and no request may have two.
                    "GET /healthz HTTP/1.1\r\n\r\n", "GET /healthz HTTP/1.1\r\nHost: localhost\r\nHost: localhost\r\n\r\n",
                    "GET /healthz HTTP/1.0\r\nHost: localhost\r\nHost: localhost\r\n\r\n",
                ] {
                    let reply = try await RawHTTP.exchange(request, port: port)
                    #expect(reply.statusLine.hasSuffix(" 400 Bad Request"), "\(request.debugDescription): \(reply.text)")
                    #expect(reply.closed, "\(request.debugDescription)")
                    Self.expectSecurityHeaders(reply, request.debugDescription)
                }
            }
        }
    }
}
