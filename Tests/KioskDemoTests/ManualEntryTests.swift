import Foundation
import KioskCore
import KioskDemo
import Testing

/// `POST /_demo/advance` with `title`, `description` and `link`: the browser tests' hostile entries.
@Suite struct ManualEntryTests {
    static let title = #"<img src=x onerror="window.__pwned=1">Hi & 'bye'<script>window.__pwned=2</script>"#
    static let description = #"<img src=x onerror="window.__pwned=3"><a href="javascript:window.__pwned=4">x</a>"#
    static let link = "javascript:window.__pwned=6&x=<y>"

    /// `text` percent-encoded for a query value (everything but letters and digits).
    static func encoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
    }

    @Test func customFieldsAreServedEscapedAndParseBackVerbatim() async throws {
        try await DemoHarness.run { demo async throws in
            let query = "source=business&title=\(Self.encoded(Self.title))"
                + "&description=\(Self.encoded(Self.description))&link=\(Self.encoded(Self.link))"
            #expect(try await demo.post("/_demo/advance?\(query)").status == 200)

            let fetched = try await demo.get("/reuters/business.xml")
            #expect(DemoHarness.isETag(fetched.header("etag"), of: .business, version: 1))
            let xml = fetched.text
            #expect(!xml.contains("<script>"))
            #expect(!xml.contains("<img src=x"))
            #expect(xml.contains("&lt;script&gt;window.__pwned=2&lt;/script&gt;"))
            #expect(xml.contains("Hi &amp; 'bye'"))
            #expect(xml.contains("<link>javascript:window.__pwned=6&amp;x=&lt;y&gt;</link>"))
            #expect(xml.contains("<feedburner:origLink>javascript:window.__pwned=6&amp;x=&lt;y&gt;</feedburner:origLink>"))

            let feed = try FeedParser.parse(fetched.body, charsetHint: "utf-8")
            #expect(feed.entries.count == 21)
            let entry = try #require(feed.entries.first)
            #expect(DemoHarness.isEntryID(entry.id, of: .business, ordinal: 1))
            #expect(entry.title?.contains("Hi & 'bye'") == true)
            #expect(entry.link == Self.link)
            #expect(entry.summary == Self.description)
            #expect(entry.published != nil)
        }
    }

    @Test func fieldsLeftOutComeFromTheCapturedItems() async throws {
        try await DemoHarness.run { demo async throws in
            #expect(try await demo.post("/_demo/advance?source=environment&title=Only+the+title").status == 200)
            #expect(try await demo.post("/_demo/advance?source=environment").status == 200)
            let feed = try FeedParser.parse(try await demo.get("/reuters/environment.xml").body)
            #expect(feed.entries.count == 22)
            let plain = feed.entries[0]
            let titled = feed.entries[1]
            #expect(plain.title?.hasPrefix("UPDATE 1-") == true)
            #expect(titled.title == "Only the title")
            #expect(titled.link?.hasPrefix("http") == true)
            #expect(titled.summary?.isEmpty == false)
        }
    }

    @Test func charactersXMLCannotCarryAreDroppedSoTheFeedStaysWellFormed() async throws {
        try await DemoHarness.run { demo async throws in
            await demo.control.addEntry(to: .entertainment, content: ManualEntry(title: "bell\u{7}\u{0}rings"))
            let feed = try FeedParser.parse(try await demo.get("/reuters/entertainment.xml").body)
            #expect(feed.entries.first?.title == "bellrings")
        }
    }
}
