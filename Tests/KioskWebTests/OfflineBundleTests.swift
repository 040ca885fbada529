import Foundation
import Hummingbird
import HummingbirdTesting
import KioskCore
import KioskModel
import KioskSources
import KioskStore
@testable import KioskWeb
import Testing

/// What the installed app keeps for reading offline (`/reader/offline.json`), and the page that
/// shows it without a network (`/offline/reader`).
@Suite struct OfflineBundleTests {
    struct Bundle: Decodable {
        struct Item: Decodable {
            var id: Int64
            var feed: String
            var title: String
            var path: String
            var starred: Bool
            var html: String
            var full: Bool
            var images: [String]
        }

        var account: String
        var limit: Int
        var unread: Int
        var entries: [Item]
    }

    static func bundle(_ client: any TestClientProtocol, _ uri: String = "/reader/offline.json", headers: HTTPFields = [:])
        async throws -> Bundle
    {
        let response = try await client.get(uri, headers: headers)
        #expect(response.status == .ok)
        #expect(response.headers[.cacheControl] == "no-store")
        return try JSONDecoder().decode(Bundle.self, from: Data(buffer: response.body))
    }

    @Test func theNewestUnreadEntriesWithTheirKeptArticlesAndImages() async throws {
        try await withKioskApp { kiosk in
            let base = kiosk.sampleBase
            let story = ArticleRouteTests.entries(base: base)[0]
            let hostile = Entry(
                id: "h", title: "Hostile", link: "https://example.com/h",
                summary: #"<p onclick="x()">Hi <script>alert(1)</script><img src="https://example.com/a.png"></p>"#)
            let plain = (1...5).map { Entry(id: "p\($0)", title: "Plain \($0)", summary: "Summary \($0).") }
            try await kiosk.store.saveSourceState(SourceState(entries: [story, hostile] + plain), for: .business)
            let stored = try await kiosk.store.readingList(EntryFilter(sources: [.business]), user: .owner)
            let read = try #require(stored.first { $0.entry.id == "p5" })
            let starred = try #require(stored.first { $0.entry.id == "p4" })
            try await kiosk.run { client, _ in
                // The story's whole article is kept (as Full article does).
                _ = try await client.text("/reader/entry/business/\(EntryIdentity.key(of: story))/article")
                _ = try await client.execute(
                    uri: "/reader/read", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                    body: ByteBuffer(string: "ids=\(read.id)&read=true"))
                _ = try await client.execute(
                    uri: "/reader/star", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                    body: ByteBuffer(string: "ids=\(starred.id)&starred=true"))

                let bundle = try await Self.bundle(client)
                #expect(bundle.account == "1")
                #expect(bundle.limit == 200)
                // Unread only: the read entry is not kept.
                #expect(!bundle.entries.contains { $0.id == read.id })
                #expect(bundle.entries.count == 6)
                #expect(bundle.entries.first { $0.id == starred.id }?.starred == true)

                let article = try #require(bundle.entries.first { $0.title == story.title })
                #expect(article.full)
                #expect(article.html.contains("four thousand books"))
                #expect(article.path == "/reader/entry/business/\(EntryIdentity.key(of: story))")
                // Its images go through the proxy, and are listed for the device to keep.
                #expect(!article.images.isEmpty)
                #expect(article.images.allSatisfy { $0.hasPrefix("/img?") && !$0.contains("&amp;") })
                #expect(!article.html.contains(#"src="http"#))

                // A summary is sanitized like everywhere else.
                let summary = try #require(bundle.entries.first { $0.title == "Hostile" })
                #expect(!summary.full)
                #expect(!summary.html.contains("script") && !summary.html.contains("onclick"))
                #expect(summary.html.contains("Hi"))

                // The number kept is the device's choice, within bounds.
                #expect(try await Self.bundle(client, "/reader/offline.json?limit=3").entries.count == 6)
                #expect(try await Self.bundle(client, "/reader/offline.json?limit=3").limit == 50)
                #expect(try await Self.bundle(client, "/reader/offline.json?limit=100000").limit == 500)
            }
        }
    }

    @Test func eachAccountGetsItsOwnAndNobodyElseAny() async throws {
        try await withKioskApp { kiosk in
            try await kiosk.accounts.add(name: "ada", password: "a long sample password", isAdmin: false)
            try await kiosk.accounts.add(name: "bob", password: "a long sample password", isAdmin: false)
            try await kiosk.store.saveSourceState(SourceState(entries: [Entry(id: "1", title: "One")]), for: .business)
            try await kiosk.run { client, _ in
                // Signed out: the sign-in page, not a byte of anyone's reader.
                let anonymous = try await client.get("/reader/offline.json", headers: [.accept: "application/json"])
                #expect(anonymous.status != .ok)
                #expect(!String(buffer: anonymous.body).contains("One"))

                let ada = try await client.signIn(name: "ada", password: "a long sample password")
                let bob = try await client.signIn(name: "bob", password: "a long sample password")
                let adas = try await Self.bundle(client, headers: ada.pageHeaders)
                let bobs = try await Self.bundle(client, headers: bob.pageHeaders)
                #expect(adas.account != bobs.account)
            }
        }
    }

    @Test func theOfflineReaderPageHoldsNothingOfAnyoneAndIsOpenToAll() async throws {
        try await withKioskApp { kiosk in
            try await kiosk.accounts.add(name: "ada", password: "a long sample password", isAdmin: false)
            try await kiosk.run { client, _ in
                let response = try await client.get("/offline/reader")
                #expect(response.status == .ok)
                let page = String(buffer: response.body)
                #expect(page.contains(#"data-page="reader-offline""#))
                #expect(page.contains(#"id="offline-list""#))
                #expect(!page.contains("csrf-token"))
                #expect(!page.contains("ada"))
            }
        }
    }
}
