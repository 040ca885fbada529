import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import KioskCore
import KioskModel
import KioskSources
import KioskStore
@testable import KioskWeb
import Testing

/// The reader's pages and actions, through the router, over the in-memory store.
@Suite struct ReaderRouteTests {
    private static let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded", .accept: "application/json"]

    private static func with(_ name: HTTPField.Name, _ value: String) -> HTTPFields {
        var headers = form
        headers[name] = value
        return headers
    }

    private func post(_ client: any TestClientProtocol, _ uri: String, _ body: String, headers: HTTPFields = form)
        async throws -> TestResponse
    {
        try await client.execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: body))
    }

    private func seeded(_ kiosk: KioskHarness) async throws -> StoredEntry {
        try await kiosk.store.saveSourceState(
            SourceState(entries: [SampleEntries.plain(1), SampleEntries.plain(2), SampleEntries.hostile]), for: .business)
        return try #require(try await kiosk.store.readingList(EntryFilter(sources: [.business]), user: .owner).first)
    }

    @Test func everyReaderPageAnswersAndItsLinksResolve() async throws {
        try await withKioskApp { kiosk in
            let entry = try await seeded(kiosk)
            try await kiosk.run { client, _ in
                let home = try await client.text("/reader")
                #expect(home.contains(#"<title>(3) Reader · Kiosk</title>"#))
                #expect(home.contains(#"href="/reader/feed/business""#))
                #expect(home.contains(#"data-folder="News""#))
                for path in [
                    "/reader/all", "/reader/starred", "/reader/folder/News", "/reader/feed/business",
                    "/reader/feed/business/settings", "/reader/add", "/reader/opml",
                    "/reader/entry/business/\(entry.key)", "/reader/counts", "/feeds.opml",
                ] {
                    #expect(try await client.get(path).status == .ok, "\(path)")
                }
                let list = try await client.text("/reader/feed/business")
                #expect(list.contains(#"href="/reader/entry/business/\#(entry.key)""#))
                for path in ["/reader/feed/nope", "/reader/folder/Nope", "/reader/entry/business/0000", "/reader/entry/nope/\(entry.key)"] {
                    #expect(try await client.get(path).status == .notFound, "\(path)")
                }
                // Built-in feeds cannot be unsubscribed: no confirmation page for them.
                #expect(try await client.get("/reader/feed/business/unsubscribe").status == .notFound)
            }
        }
    }

    /// main: the 207 feeds of an imported OPML that could not be fetched looked exactly like
    /// healthy empty feeds.
    @Test func eachFeedSaysWhenItWasNeverCheckedOrIsFailingAndWhy() async throws {
        try await withKioskApp { kiosk in
            let now = Date()
            // Business was checked and is fine; Entertainment's last check failed after a
            // success; Environment was never checked.
            try await kiosk.store.saveSourceState(
                SourceState(entries: [Entry(id: "1", title: "One")], lastSuccess: now), for: .business)
            try await kiosk.store.saveSourceState(
                SourceState(
                    entries: [], failures: 2, lastError: .unreadable("not a feed: the page is HTML"),
                    lastSuccess: now.addingTimeInterval(-600), lastFailure: now),
                for: .entertainment)
            try await kiosk.run { client, _ in
                let page = try await client.text("/reader")
                func row(_ id: String) throws -> String {
                    let start = try #require(page.range(of: #"data-feed-id="\#(id)""#))
                    let end = page[start.upperBound...].range(of: "</li>")?.lowerBound ?? page.endIndex
                    return String(page[start.upperBound..<end])
                }
                #expect(try !row("business").contains("feed-state"))
                #expect(try row("entertainment").contains(#"data-feed-state="failing""#))
                #expect(try row("entertainment").contains("Failing: unreadable answer: not a feed: the page is HTML"))
                #expect(try row("environment").contains(#"data-feed-state="unchecked""#))
                #expect(try row("environment").contains("Not checked yet"))
            }
        }
    }

    @Test func aHostileEntryIsEscapedAndSanitizedInTheReader() async throws {
        try await withKioskApp { kiosk in
            _ = try await seeded(kiosk)
            let hostile = try #require(try await kiosk.store.storedEntry(
                source: .business, key: EntryIdentity.key(of: SampleEntries.hostile), user: .owner))
            try await kiosk.run { client, _ in
                for path in ["/reader/feed/business", "/reader/entry/business/\(hostile.key)"] {
                    let html = try await client.text(path)
                    #expect(!html.contains("<script>alert"), "\(path)")
                    #expect(!html.contains("<img src=x"), "\(path)")
                    #expect(html.contains("&lt;script&gt;alert"), "\(path): the title is shown, escaped")
                }
            }
        }
    }

    @Test func readingAnEntryIsAPostNeverAGet() async throws {
        try await withKioskApp { kiosk in
            let entry = try await seeded(kiosk)
            try await kiosk.run { client, _ in
                _ = try await client.get("/reader/entry/business/\(entry.key)")
                #expect(try await kiosk.store.storedEntry(source: .business, key: entry.key, user: .owner)?.isRead == false)
                let marked = try await post(client, "/reader/read", "ids=\(entry.id)&read=true")
                #expect(marked.status == .ok)
                #expect(try await kiosk.store.storedEntry(source: .business, key: entry.key, user: .owner)?.isRead == true)
                let starred = try await post(client, "/reader/star", "ids=\(entry.id)&starred=true")
                #expect(starred.status == .ok)
                #expect(try await kiosk.store.starredCount(user: .owner) == 1)
                // A plain form (no JSON asked for) goes back to a reader page, never elsewhere.
                let plain = try await post(
                    client, "/reader/read", "ids=\(entry.id)&read=false&back=https://evil.example/",
                    headers: [.contentType: "application/x-www-form-urlencoded"])
                #expect(plain.status == .seeOther)
                #expect(plain.headers[.location] == "/reader")
            }
        }
    }

    @Test func crossSiteActionsAreRefused() async throws {
        try await withKioskApp { kiosk in
            let entry = try await seeded(kiosk)
            try await kiosk.run { client, _ in
                let evil = try await post(client, "/reader/read", "ids=\(entry.id)", headers: Self.with(.origin, "https://evil.example"))
                #expect(evil.status == .forbidden)
                let crossSite = Self.with(.secFetchSite, "cross-site")
                let star = try await post(client, "/reader/star", "ids=\(entry.id)", headers: crossSite)
                #expect(star.status == .forbidden)
                let markAll = try await post(client, "/reader/mark-all", "scope=all&upTo=999", headers: crossSite)
                #expect(markAll.status == .forbidden)
                #expect(try await kiosk.store.storedEntry(source: .business, key: entry.key, user: .owner)?.isRead == false)
                #expect(try await kiosk.store.starredCount(user: .owner) == 0)
                let same = try await post(client, "/reader/read", "ids=\(entry.id)", headers: Self.with(.secFetchSite, "same-origin"))
                #expect(same.status == .ok)
            }
        }
    }

    @Test func markAllReadReturnsAnUndoToken() async throws {
        try await withKioskApp { kiosk in
            _ = try await seeded(kiosk)
            try await kiosk.run { client, _ in
                let response = try await post(client, "/reader/mark-all", "scope=folder:News&upTo=\(Int64.max)")
                #expect(response.status == .ok)
                struct Result: Decodable { var count: Int; var undo: String }
                let result = try JSONDecoder().decode(Result.self, from: response.data)
                #expect(result.count == 3)
                #expect(try await kiosk.store.unreadCounts(user: .owner).isEmpty)
                #expect(try await post(client, "/reader/undo", "token=\(result.undo)").status == .ok)
                #expect(try await kiosk.store.unreadCounts(user: .owner) == [.business: 3])
                #expect(try await post(client, "/reader/undo", "token=\(result.undo)").status == .conflict)
                #expect(try await post(client, "/reader/mark-all", "scope=folder:Nope&upTo=1").status == .notFound)
            }
        }
    }

    @Test func opmlImportAcceptsAFileUploadAndExportListsIt() async throws {
        try await withKioskApp { kiosk in
            try await kiosk.run { client, _ in
                let opml = """
                    <opml version="2.0"><body><outline text="Tech">
                    <outline text="Example" xmlUrl="https://example.com/feed.xml"/></outline></body></opml>
                    """
                let boundary = "kioskboundary42"
                let body = "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.opml\"\r\n"
                    + "Content-Type: text/x-opml\r\n\r\n\(opml)\r\n--\(boundary)--\r\n"
                let response = try await post(
                    client, "/reader/import", body, headers: [.contentType: "multipart/form-data; boundary=\(boundary)"])
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains("1 added, 0 skipped, 0 failed."))
                let exported = try await client.get("/feeds.opml")
                #expect(exported.headers[.contentType]?.hasPrefix("text/x-opml") == true)
                let text = String(buffer: exported.body)
                #expect(text.contains(#"xmlUrl="https://example.com/feed.xml""#))
                #expect(text.contains(#"<outline text="Tech" title="Tech">"#))
                // Not OPML: a clear message, nothing added.
                let bad = try await post(client, "/reader/import", "<rss/>", headers: [.contentType: "text/xml"])
                #expect(String(buffer: bad.body).contains("not an OPML"))
            }
        }
    }

    @Test func addingAFeedFromAPrivateAddressIsRefusedWithAMessage() async throws {
        try await withKioskApp { kiosk in
            try await kiosk.run { client, _ in
                let response = try await post(
                    client, "/reader/add", "address=http%3A%2F%2F169.254.169.254%2Flatest",
                    headers: [.contentType: "application/x-www-form-urlencoded"])
                let html = String(buffer: response.body)
                #expect(html.contains("private or local address"))
                #expect(html.contains(#"id="add-error""#))
            }
        }
    }
}
