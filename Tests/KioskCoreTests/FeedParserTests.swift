import Foundation
import KioskTesting
import Testing
@testable import KioskCore

@Suite struct FeedParserTests {
    private func parse(_ xml: String) throws -> Feed {
        try FeedParser.parse(Array(xml.utf8))
    }

    // MARK: - The seed feeds

    @Test func reutersBusinessReadsEveryItemWithItsRealLink() throws {
        let feed = try FeedParser.parse(Fixture.data("reuters_business.xml"))
        #expect(feed.format == .rss20)
        #expect(feed.title == "Reuters: Business News")
        #expect(feed.link == "https://www.reuters.com")
        #expect(feed.language == "en-us")
        #expect(feed.entries.count == 20)
        let first = try #require(feed.entries.first)
        #expect(first.title == "Supermarket retailer Casino to sell six stores to rival Leclerc")
        // feedburner:origLink is the article, not the tracking redirect in <link>.
        #expect(
            first.link
                == "https://www.reuters.com/article/us-casino-m-a-leclerc/supermarket-retailer-casino-to-sell-six-stores-to-rival-leclerc-idUSKCN1PD07P?feedType=RSS&feedName=businessNews"
        )
        #expect(first.id == first.link)
        #expect(first.published == Date(timeIntervalSince1970: 1_547_887_643))  // Sat, 19 Jan 2019 03:47:23 -0500
        #expect(first.categories == ["businessNews"])
        #expect(feed.entries.allSatisfy { $0.link?.hasPrefix("https://www.reuters.com/article/") ?? false })
        #expect(feed.entries.allSatisfy { $0.published != nil })
    }

    @Test func reutersSummaryBecomesOneSentenceOfPlainText() throws {
        let feed = try FeedParser.parse(Fixture.data("reuters_business.xml"))
        let summary = try #require(feed.entries.first?.summary)
        #expect(summary.contains("feedflare"))  // the HTML is kept for the detail view...
        let text = HTMLText.plainText(fromHTML: summary)  // ...and stripped for list rows
        #expect(
            text
                == "French supermarket retailer Casino , in the process of divesting assets to cut debts, has agreed to sell six of its 'Geant' hypermarket stores to domestic rival Leclerc for 100.5 million euros (114 million)."
        )
    }

    @Test func reutersEntertainmentAndEnvironmentParse() throws {
        let entertainment = try FeedParser.parse(Fixture.data("reuters_entertainment.xml"))
        #expect(entertainment.title == "Reuters: Entertainment News")
        #expect(entertainment.entries.count == 20)
        #expect(entertainment.entries.first?.title == "British actor Albert Finney dies aged 82 after short illness: BBC")
        #expect(entertainment.entries.first?.published == Date(timeIntervalSince1970: 1_549_635_809))
        let environment = try FeedParser.parse(Fixture.data("reuters_environment.xml"))
        #expect(environment.title == "Reuters: Environment")
        #expect(environment.entries.count == 20)
    }

    // MARK: - Format detection

    @Test func formatComesFromContentWhateverPrecedesTheRoot() throws {
        let body = "<rss version=\"2.0\"><channel><title>T</title></channel></rss>"
        let variants = [
            body,
            "\u{FEFF}" + body,
            "<?xml version=\"1.0\"?>\n<!-- a comment -->\n<?xml-stylesheet href=\"x.xsl\"?>\n" + body,
            "\n\n  <!DOCTYPE rss PUBLIC \"-//Netscape Communications//DTD RSS 0.91//EN\" \"http://x/rss.dtd\">" + body,
        ]
        for xml in variants {
            let feed = try parse(xml)
            #expect(feed.format == .rss20)
            #expect(feed.title == "T")
        }
    }

    @Test func everyFormatIsRecognised() throws {
        #expect(try parse("<rss version=\"0.91\"><channel/></rss>").format == .rss091)
        #expect(try parse("<rss><channel/></rss>").format == .rss)
        #expect(
            try parse("<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\" xmlns=\"http://purl.org/rss/1.0/\"/>")
                .format == .rss10)
        #expect(
            try parse("<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\" xmlns=\"http://my.netscape.com/rdf/simple/0.9/\"/>")
                .format == .rss090)
        #expect(try parse("<feed xmlns=\"http://www.w3.org/2005/Atom\"/>").format == .atom10)
        #expect(try parse("<feed version=\"0.3\" xmlns=\"http://purl.org/atom/ns#\"/>").format == .atom03)
        #expect(try FeedParser.parse(Array(#"{"version":"https://jsonfeed.org/version/1.1","items":[]}"#.utf8)).format == .jsonFeed11)
        #expect(try FeedParser.parse(Array(#"{"version":"https://jsonfeed.org/version/1","items":[]}"#.utf8)).format == .jsonFeed10)
    }

    @Test func anHTMLPageIsNotAFeed() {
        #expect(throws: FeedError.notAFeed("an HTML page")) {
            try parse("<!DOCTYPE html><html><head><title>x</title></head></html>")
        }
        #expect(throws: FeedError.empty) { try parse("  \n ") }
        #expect(throws: FeedError.self) { try FeedParser.parse(Array("just text".utf8)) }
        #expect(throws: FeedError.self) { try FeedParser.parse(Array(#"{"hello": 1}"#.utf8)) }
    }

    // MARK: - Liberal reading

    @Test func cdataAndHTMLNamedEntitiesAreText() throws {
        let feed = try parse(
            "<rss version=\"2.0\"><channel><title>Caf&eacute; &amp; Bar&nbsp;&#8217;s &#x263A;</title>"
                + "<item><title><![CDATA[Fish & <Chips>]]></title></item></channel></rss>")
        #expect(feed.title == "Café & Bar\u{A0}’s ☺")
        #expect(feed.entries.first?.title == "Fish & <Chips>")
    }

    @Test func titlesThatLookLikeHTMLKeepTheirWords() throws {
        let rss = try parse(
            """
            <rss version="2.0"><channel><title>Feed</title>
            <item><title>Hello &lt;svg onload=x&gt; world &amp;amp; more</title></item>
            <item><title>Hello &lt;math&gt;x&lt;/math&gt; &lt;script&gt;alert(1)&lt;/script&gt;world</title></item>
            <item><title>Fish &amp;amp; chips &lt;b</title></item>
            <item><title>Hello &lt;svg onload=x&gt; world</title></item>
            </channel></rss>
            """)
        #expect(rss.entries.map(\.title) == [
            "Hello world & more", "Hello x world", "Fish & chips <b",
            // No end tag and no reference: plain text, as written.
            "Hello <svg onload=x> world",
        ])
        let atom = try parse(
            """
            <feed xmlns="http://www.w3.org/2005/Atom">
              <entry><title type="html">Hello &lt;svg onload=x&gt; world</title></entry>
              <entry><title type="html">a &amp;lt; b &lt;i&gt;c</title></entry>
              <entry><title type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">Hi <svg/> there</div></title></entry>
              <entry><title type="text">Hello &lt;svg onload=x&gt; world</title></entry>
              <entry><title type="text/html" mode="base64">SGVsbG8gPHN2ZyBvbmxvYWQ9eD4gd29ybGQgJmFtcDtsdDs=</title></entry>
            </feed>
            """)
        #expect(atom.entries.map(\.title) == [
            "Hello world", "a < b c", "Hi there", "Hello <svg onload=x> world",
            // The decoded bytes are "Hello <svg onload=x> world &amp;lt;": decoded once, not twice.
            "Hello world &lt;",
        ])
    }

    @Test func jsonFeedTitlesAreTextAsWritten() throws {
        let json = #"{"version": "https://jsonfeed.org/version/1.1", "items": [{"id": "1", "title": "Hello <svg onload=x> world"}]}"#
        #expect(try FeedParser.parse(Array(json.utf8)).entries.first?.title == "Hello <svg onload=x> world")
    }

    @Test func xmlBaseResolvesRelativeLinks() throws {
        let feed = try parse(
            """
            <feed xmlns="http://www.w3.org/2005/Atom" xml:base="http://example.org/blog/">
              <link href="index.html"/>
              <entry xml:base="posts/"><id>1</id><link rel="alternate" href="first.html"/></entry>
            </feed>
            """)
        #expect(feed.link == "http://example.org/blog/index.html")
        #expect(feed.entries.first?.link == "http://example.org/blog/posts/first.html")
    }

    @Test func namespacedElementsNeverClobberCoreFields() throws {
        let feed = try parse(
            """
            <rss version="2.0" xmlns:s="http://example.com/shop/" xmlns:dc="http://purl.org/dc/elements/1.1/">
            <channel><title>Shop</title><s:title>Wrong</s:title>
            <item><s:title>Wrong</s:title><title>Right</title><s:link>http://wrong/</s:link>
            <link>http://right/</link><dc:creator>Ann Author</dc:creator></item></channel></rss>
            """)
        #expect(feed.title == "Shop")
        #expect(feed.entries.first?.title == "Right")
        #expect(feed.entries.first?.link == "http://right/")
        #expect(feed.entries.first?.authors == [Author(name: "Ann Author")])
    }

    @Test func aBadDateDropsOnlyThatDate() throws {
        let feed = try parse(
            "<rss version=\"2.0\"><channel><item><title>A</title><pubDate>the day after tomorrow</pubDate></item>"
                + "<item><title>B</title><pubDate>Sat, 19 Jan 2019 03:47:23 -0500</pubDate></item></channel></rss>")
        #expect(feed.entries.map(\.title) == ["A", "B"])
        #expect(feed.entries[0].published == nil)
        #expect(feed.entries[1].published == Date(timeIntervalSince1970: 1_547_887_643))
    }

    @Test func atomEntryCarriesEveryField() throws {
        let feed = try parse(
            """
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/" xml:lang="en">
              <title type="html">A &lt;b&gt;bold&lt;/b&gt; feed</title>
              <updated>2024-05-01T10:00:00Z</updated><logo>http://example.org/logo.png</logo>
              <entry>
                <id>tag:example.org,2024:1</id><title>First</title>
                <link rel="alternate" type="text/html" href="http://example.org/1"/>
                <link rel="enclosure" type="audio/mpeg" length="1234" href="http://example.org/1.mp3"/>
                <published>2024-05-01T09:00:00+02:00</published><updated>2024-05-01T10:30:00.5Z</updated>
                <author><name>Ann</name><email>ann@example.org</email></author>
                <summary>Short &lt;b&gt;text&lt;/b&gt;</summary>
                <content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>Full <b>text</b></p></div></content>
                <category term="news"/><media:thumbnail url="http://example.org/1.jpg"/>
              </entry>
            </feed>
            """)
        #expect(feed.title == "A bold feed")
        #expect(feed.language == "en")
        #expect(feed.updated == Date(timeIntervalSince1970: 1_714_557_600))
        #expect(feed.image == "http://example.org/logo.png")
        let entry = try #require(feed.entries.first)
        #expect(entry.id == "tag:example.org,2024:1")
        #expect(entry.link == "http://example.org/1")
        #expect(entry.published == Date(timeIntervalSince1970: 1_714_546_800))
        #expect(entry.updated == Date(timeIntervalSince1970: 1_714_559_400.5))
        #expect(entry.authors == [Author(name: "Ann", email: "ann@example.org")])
        #expect(entry.summary == "Short &lt;b&gt;text&lt;/b&gt;")  // type="text", escaped into HTML
        #expect(entry.content == "<p>Full <b>text</b></p>")
        #expect(entry.categories == ["news"])
        #expect(entry.enclosures == [Enclosure(url: "http://example.org/1.mp3", type: "audio/mpeg", length: 1234)])
        #expect(entry.image == "http://example.org/1.jpg")
    }

    @Test func rssExtensionsFillContentImageAndAuthor() throws {
        let feed = try parse(
            """
            <rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"
                 xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">
            <channel><itunes:image href="http://example.org/show.png"/>
            <item><guid>http://example.org/a</guid><author>ann@example.org (Ann)</author>
            <description>Sum</description><content:encoded><![CDATA[<p>Body</p>]]></content:encoded>
            <enclosure url="http://example.org/a.jpg" type="image/jpeg" length="10"/></item></channel></rss>
            """)
        #expect(feed.image == "http://example.org/show.png")
        let entry = try #require(feed.entries.first)
        #expect(entry.link == "http://example.org/a")  // a permalink guid stands in for <link>
        #expect(entry.authors == [Author(name: "Ann", email: "ann@example.org")])
        #expect(entry.summary == "Sum")
        #expect(entry.content == "<p>Body</p>")
        #expect(entry.image == "http://example.org/a.jpg")
    }

    @Test func jsonFeedItemsAreRead() throws {
        let json = """
            {"version": "https://jsonfeed.org/version/1.1", "title": "J", "home_page_url": "https://example.org/",
             "language": "en", "items": [
               {"id": 1, "url": "posts/1", "title": "One", "content_html": "<p>Hi</p>",
                "date_published": "2024-05-01T10:00:00Z", "authors": [{"name": "Ann"}], "tags": ["a"],
                "attachments": [{"url": "https://example.org/1.mp3", "mime_type": "audio/mpeg", "size_in_bytes": 5}]},
               {"id": "2", "content_text": "a < b", "date_published": "not a date", "title": 7},
               "not an item"
             ]}
            """
        let feed = try FeedParser.parse(Array(json.utf8))
        #expect(feed.title == "J")
        #expect(feed.link == "https://example.org/")
        #expect(feed.entries.count == 2)
        #expect(feed.entries[0].id == "1")
        #expect(feed.entries[0].link == "https://example.org/posts/1")
        #expect(feed.entries[0].published == Date(timeIntervalSince1970: 1_714_557_600))
        #expect(feed.entries[0].authors == [Author(name: "Ann")])
        #expect(feed.entries[0].enclosures.first?.length == 5)
        #expect(feed.entries[1].content == "a &lt; b")
        #expect(feed.entries[1].title == nil)  // a number is no title: dropped, not fatal
        #expect(feed.entries[1].published == nil)
    }

    @Test func encodingComesFromBOMDeclarationOrHint() throws {
        let latin1 = Array("<?xml version=\"1.0\" encoding=\"iso-8859-1\"?><rss><channel><title>".utf8) + [0xC9, 0x74]
            + Array("</title></channel></rss>".utf8)
        #expect(try FeedParser.parse(latin1).title == "Ét")
        let undeclared = Array("<rss><channel><title>".utf8) + [0xE9] + Array("</title></channel></rss>".utf8)
        #expect(try FeedParser.parse(undeclared).title == "é")  // not UTF-8: read as Windows-1252
        let units = Array("<rss><channel><title>ü</title></channel></rss>".utf16)
        let utf16: [UInt8] = [0xFF, 0xFE] + units.flatMap { unit -> [UInt8] in [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        #expect(try FeedParser.parse(utf16).title == "ü")
        let hinted = Array("<rss><channel><title>".utf8) + [0xE9] + Array("</title></channel></rss>".utf8)
        #expect(try FeedParser.parse(hinted, charsetHint: "iso-8859-1").title == "é")
    }

    @Test func brokenJSONIsMalformedWithItsPosition() {
        // Where, and what was expected there.
        #expect(throws: FeedError.malformed("invalid JSON: expected a value", line: 3, column: 4)) {
            try FeedParser.parse(Array("{\n \"items\": [1,\n 2,, 3]}".utf8))
        }
    }

    @Test func maxEntriesCapsTheEntries() throws {
        let items = String(repeating: "<item><title>x</title></item>", count: 50)
        let feed = try FeedParser.parse(
            Array("<rss><channel>\(items)</channel></rss>".utf8), limits: ParserLimits(maxEntries: 10))
        #expect(feed.entries.count == 10)
    }
}
