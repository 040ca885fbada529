import Foundation
import KioskTesting
import Testing
@testable import KioskCore

/// The OPML files under `Fixtures/opml/`, each imitating one reader's export.
enum OPMLFixture {
    /// Every fixture, for the tests that run over all of them.
    static let all = [
        "netnewswire", "feedly", "inoreader", "miniflux", "freshrss", "newsboat", "google_reader",
        "latin1", "utf16", "odd",
    ]

    /// The bytes of `Fixtures/opml/<name>.opml`, exactly as written.
    static func bytes(_ name: String) throws -> [UInt8] {
        try [UInt8](Fixture.data("\(name).opml", in: "opml"))
    }

    static func parse(_ name: String) throws -> OPMLDocument {
        try OPML.parse(bytes(name))
    }
}

/// A subscription written briefly: `subscription("https://a/feed", "A", site: "https://a/", in: "Tech")`.
func subscription(_ feedURL: String, _ title: String?, site: String? = nil, in folder: String? = nil) -> OPMLSubscription {
    OPMLSubscription(feedURL: feedURL, title: title, siteURL: site, folder: folder)
}

@Suite struct OPMLReaderTests {
    private func parse(_ xml: String, limits: OPMLLimits = .default) throws -> OPMLDocument {
        try OPML.parse(Array(xml.utf8), limits: limits)
    }

    /// `outlines` inside a minimal document.
    private func parseBody(_ outlines: String) throws -> OPMLDocument {
        try parse("<opml version=\"2.0\"><head><title>t</title></head><body>\(outlines)</body></opml>")
    }

    // MARK: - Real readers' exports

    @Test func netNewsWireTopLevelFeedsFoldersAndAnEmptyFolder() throws {
        let document = try OPMLFixture.parse("netnewswire")
        #expect(document.title == "Subscriptions-OnMyMac.opml")
        #expect(
            document.subscriptions == [
                subscription("https://daringfireball.net/feeds/main", "Daring Fireball", site: "https://daringfireball.net/"),
                subscription("https://inessential.com/xml/rss.xml", "inessential", site: "https://inessential.com/"),
                subscription(
                    "https://feeds.npr.org/1001/rss.xml", "NPR Topics: News",
                    site: "https://www.npr.org/templates/story/story.php?storyId=1001", in: "News"),
                subscription("https://feeds.arstechnica.com/arstechnica/index", "Ars Technica", site: "https://arstechnica.com/", in: "News"),
                subscription("https://www.swift.org/atom.xml", "Swift.org", site: "https://www.swift.org/", in: "Swift"),
                subscription("https://www.swiftbysundell.com/rss", "Swift by Sundell", site: "https://www.swiftbysundell.com/", in: "Swift"),
                subscription("https://useyourloaf.com/blog/rss.xml", "Use Your Loaf", site: "https://useyourloaf.com/", in: "Swift"),
                subscription("https://feeds.kottke.org/main", "kottke.org", site: "https://kottke.org/"),
                // Entities in titles and URLs are decoded once; the query keeps its real `&`.
                subscription(
                    "https://feedpress.me/sixcolors?type=xml&format=full", "Six Colors — Jason Snell & Dan Moren",
                    site: "https://sixcolors.com/"),
            ])
        #expect(document.duplicates.isEmpty)
    }

    @Test func feedlyCategoriesAndAFeedInTwoOfThem() throws {
        let document = try OPMLFixture.parse("feedly")
        #expect(document.title == "Alice subscriptions in feedly Cloud")
        #expect(document.subscriptions.count == 4)
        #expect(document.subscriptions.map(\.folder) == ["Tech", "Tech", "Design", "Cooking"])
        #expect(document.subscriptions.map(\.title) == ["The Verge", "Hacker News", "Smashing Magazine", "Smitten Kitchen"])
        #expect(document.subscriptions.last?.feedURL == "http://feeds.feedburner.com/smittenkitchen")
        // Feedly lets one feed sit in several categories: the first placement wins, the other is reported.
        #expect(
            document.duplicates == [
                subscription("https://www.theverge.com/rss/index.xml", "The Verge", site: "https://www.theverge.com/", in: "Design")
            ])
    }

    @Test func inoreaderFoldersWithEntitiesAndATopLevelFeed() throws {
        let document = try OPMLFixture.parse("inoreader")
        #expect(document.title == "Subscriptions of Alice from Inoreader [https://www.inoreader.com]")
        #expect(
            document.subscriptions == [
                subscription(
                    "https://www.nasa.gov/rss/dyn/breaking_news.rss", "NASA Breaking News", site: "https://www.nasa.gov/",
                    in: "Science & Space"),
                subscription(
                    "https://www.quantamagazine.org/feed/", "Quanta Magazine", site: "https://www.quantamagazine.org/",
                    in: "Science & Space"),
                subscription("https://xkcd.com/rss.xml", "xkcd.com", site: "https://xkcd.com/", in: "Comics"),
                subscription(
                    "https://www.inoreader.com/blog/feeds/posts/default", "Inoreader Blog",
                    site: "https://www.inoreader.com/blog/"),
            ])
    }

    @Test func minifluxOPML2WithExplicitEndTags() throws {
        let document = try OPMLFixture.parse("miniflux")
        #expect(document.title == "Miniflux")
        #expect(
            document.subscriptions == [
                subscription("https://miniflux.app/feed.xml", "Miniflux", site: "https://miniflux.app/", in: "All"),
                subscription("https://lwn.net/headlines/rss", "LWN.net", site: "https://lwn.net", in: "Linux"),
                subscription("https://www.phoronix.com/rss.php", "Phoronix", site: "https://www.phoronix.com/", in: "Linux"),
            ])
    }

    @Test func freshRSSTextWithoutTitleNamespacedAttributesAndAScrapedPage() throws {
        let document = try OPMLFixture.parse("freshrss")
        #expect(document.title == "FreshRSS")
        #expect(
            document.subscriptions == [
                subscription(
                    "https://github.com/FreshRSS/FreshRSS/releases.atom", "FreshRSS releases",
                    site: "https://github.com/FreshRSS/FreshRSS/", in: "Uncategorized"),
                subscription(
                    "https://www.lemonde.fr/rss/une.xml", "Le Monde.fr - Actualités et Infos en France et dans le monde",
                    site: "https://www.lemonde.fr/rss/une.xml", in: "Uncategorized"),
                // Any outline with an xmlUrl is a subscription, whatever its type: a page Kiosk cannot
                // read then fails visibly at its first check instead of vanishing from the import.
                subscription("https://example.net/news", "Example news (HTML+XPath)", site: "https://example.net/news", in: "Web scraping"),
            ])
        // The dynamic list ("Shared list", frss:opmlUrl) has no xmlUrl: an empty folder.
        #expect(!document.subscriptions.contains { $0.folder == "Shared list" })
    }

    @Test func newsboatTitleWithoutTextAndAFeedNeverFetched() throws {
        let document = try OPMLFixture.parse("newsboat")
        #expect(document.title == "newsboat - Exported Feeds")
        #expect(
            document.subscriptions == [
                subscription("https://lwn.net/headlines/rss", "LWN.net", site: "https://lwn.net"),
                subscription("https://blog.rust-lang.org/feed.xml", "Rust Blog", site: "https://blog.rust-lang.org/"),
                // newsboat exports an unfetched feed with empty title and htmlUrl: no name, no site.
                subscription("https://example.com/never-fetched.xml", nil),
                subscription("https://www.reddit.com/r/swift/.rss", "Swift & friends", site: "https://www.reddit.com/r/swift/"),
            ])
    }

    @Test func googleReaderMultiLineTagsAndAFeedAtTopAndInAFolder() throws {
        let document = try OPMLFixture.parse("google_reader")
        #expect(document.title == "Alice subscriptions in Google Reader")
        #expect(
            document.subscriptions == [
                subscription("http://xkcd.com/rss.xml", "xkcd.com", site: "http://xkcd.com/"),
                subscription(
                    "http://www.rsspect.com/rss/qwantz.xml", "Dinosaur Comics", site: "http://www.qwantz.com/index.php",
                    in: "comics"),
                subscription(
                    "http://googleblog.blogspot.com/atom.xml", "Official Google Blog",
                    site: "http://googleblog.blogspot.com/", in: "tech"),
                subscription("http://www.joelonsoftware.com/rss.xml", "Joel on Software", site: "http://www.joelonsoftware.com", in: "tech"),
            ])
        #expect(document.duplicates == [subscription("http://xkcd.com/rss.xml", "xkcd.com", site: "http://xkcd.com/", in: "comics")])
    }

    @Test func latin1DeclaredFileIsTranscoded() throws {
        let bytes = try OPMLFixture.bytes("latin1")
        #expect(!TextDecoding.isValidUTF8(bytes), "the fixture must really be Latin-1")
        let document = try OPML.parse(bytes)
        #expect(document.title == "Abonnements de Zoé")
        #expect(
            document.subscriptions == [
                subscription("https://exemple.fr/cafe/rss", "Le Café du Commerce", site: "https://exemple.fr/cafe/", in: "Actualités"),
                subscription("https://beispiel.de/mueller.xml", "« Über Müller »", site: "https://beispiel.de/", in: "Actualités"),
                subscription("https://ejemplo.es/senal/feed", "Señal Ñandú ©", site: "https://ejemplo.es/senal/"),
            ])
    }

    @Test func utf16WithByteOrderMarkAndCRLF() throws {
        let bytes = try OPMLFixture.bytes("utf16")
        #expect(bytes.starts(with: [0xFF, 0xFE]))
        let document = try OPML.parse(bytes)
        #expect(document.title == "購読リスト 📰")
        #expect(
            document.subscriptions == [
                subscription("https://www3.nhk.or.jp/rss/news/cat0.xml", "NHKニュース", site: "https://www3.nhk.or.jp/news/", in: "ニュース"),
                subscription("https://example.jp/launches.atom", "🚀 Launches", site: "https://example.jp/", in: "ニュース"),
                subscription("https://example.gr/rss", "Ελληνικά νέα", site: "https://example.gr/"),
            ])
    }

    @Test func oddAttributesAndShapesAllReadAsTheFileMeans() throws {
        let document = try OPMLFixture.parse("odd")
        #expect(document.title == nil)  // no <head>
        let expected = [
            subscription("https://upper.example/feed", "Upper case attributes", site: "https://upper.example/"),
            subscription("https://lower.example/feed", "Lower case, single quotes", site: "https://lower.example/"),
            subscription("https://text-only.example/rss", "Text only"),
            subscription("https://title-only.example/rss", "Title only"),
            subscription("https://empty-title.example/atom", "Empty title, so text"),
            subscription("https://nameless.example/feed", nil),
            subscription("https://named-by-url.example/feed", nil),
            subscription("https://padded.example/feed", "Padded"),
            subscription("https://double-escaped.example/feed", "Fish &amp; Chips"),
            subscription("https://markup.example/feed", "<b>Bold</b> news"),
            subscription("https://literal-newline.example/feed", "Broken     name"),
            subscription("https://entities.example/feed", "Café ☕"),
            subscription("https://vapor.example/feed", "Vapor", in: "Tech / Swift / Server"),
            subscription("https://unnamed-level.example/feed", "Unnamed level", in: "Tech / Swift / Server"),
            subscription("https://planet.example/swift.xml", "Planet Swift", site: "https://planet.example/", in: "Tech / Swift"),
            subscription("https://member.example/feed", "Member blog", in: "Tech / Swift / Planet Swift"),
            subscription("https://tech.example/feed", "Top of Tech", in: "Tech"),
            subscription("https://trailing.example/feed", "Trailing top level"),
        ]
        // Compared one by one so a failure names the outline.
        for (got, want) in zip(document.subscriptions, expected) { #expect(got == want) }
        #expect(document.subscriptions.count == expected.count)
        #expect(document.duplicates == [subscription("https://text-only.example/rss", "Text only")])
        let urls = Set(document.subscriptions.map(\.feedURL))
        for never in ["https://commented.example/feed", "https://cdata.example/feed", "https://after-root.example/feed"] {
            #expect(!urls.contains(never))
        }
        #expect(!urls.contains { $0.hasPrefix("https://example.com/") }, "link and include outlines are not feeds")
    }

    @Test(arguments: OPMLFixture.all)
    func everyFixtureKeepsTheSubscriptionInvariants(name: String) throws {
        let document = try OPMLFixture.parse(name)
        #expect(!document.subscriptions.isEmpty)
        for subscription in document.subscriptions + document.duplicates {
            #expect(!subscription.feedURL.isEmpty)
            #expect(subscription.feedURL == subscription.feedURL.trimmingCharacters(in: .whitespacesAndNewlines))
            #expect(subscription.title?.isEmpty != true)
            #expect(subscription.siteURL?.isEmpty != true)
            #expect(subscription.folder?.isEmpty != true)
        }
        let urls = document.subscriptions.map(\.feedURL)
        #expect(Set(urls).count == urls.count)
        #expect(document.duplicates.allSatisfy { urls.contains($0.feedURL) })
    }

    // MARK: - Shapes

    @Test(arguments: ["<opml version=\"1.0\">", "<opml version=\"1.1\">", "<opml version=\"2.0\">", "<opml>", "<OPML version='2.0'>"])
    func everyVersionReads(root: String) throws {
        let document = try parse(
            root + "<head><title>V</title></head><body><outline text=\"A\" xmlUrl=\"https://a.example/\"/></body></opml>")
        #expect(document.title == "V")
        #expect(document.subscriptions == [subscription("https://a.example/", "A")])
    }

    @Test(arguments: ["xmlUrl", "xmlurl", "XMLURL", "XmlUrl", "xmlURL"])
    func feedAddressAttributeInAnyCase(attribute: String) throws {
        let document = try parseBody("<outline text=\"A\" \(attribute)=\"https://a.example/feed\" HtmlUrl=\"https://a.example/\"/>")
        #expect(document.subscriptions == [subscription("https://a.example/feed", "A", site: "https://a.example/")])
    }

    @Test(arguments: [("rss", true), ("atom", true), ("", true), ("RSS", true), ("link", false), ("include", false)])
    func typeDoesNotDecideOnlyXmlUrlDoes(type: String, hasXmlUrl: Bool) throws {
        let address = hasXmlUrl ? "xmlUrl=\"https://a.example/feed\"" : "url=\"https://a.example/page\""
        let document = try parseBody("<outline text=\"A\" type=\"\(type)\" \(address)/>")
        #expect(document.subscriptions.count == (hasXmlUrl ? 1 : 0))
    }

    @Test func titleWinsOverTextAndEitherServesAlone() throws {
        let document = try parseBody(
            """
            <outline text="Text" title="Title" xmlUrl="https://1.example/"/>
            <outline text="Text" xmlUrl="https://2.example/"/>
            <outline title="Title" xmlUrl="https://3.example/"/>
            <outline title="  " text="Text" xmlUrl="https://4.example/"/>
            <outline title="" text="" xmlUrl="https://5.example/"/>
            """)
        #expect(document.subscriptions.map(\.title) == ["Title", "Text", "Title", "Text", nil])
    }

    @Test func foldersNestAndJoinWithSlashes() throws {
        let document = try parseBody(
            """
            <outline text="A"><outline title="B"><outline text="C">
              <outline text="Deep" xmlUrl="https://deep.example/"/>
            </outline><outline text="Mid" xmlUrl="https://mid.example/"/></outline></outline>
            <outline text="Top" xmlUrl="https://top.example/"/>
            """)
        #expect(
            document.subscriptions == [
                subscription("https://deep.example/", "Deep", in: "A / B / C"),
                subscription("https://mid.example/", "Mid", in: "A / B"),
                subscription("https://top.example/", "Top"),
            ])
    }

    @Test func aFeedOutlineWithChildrenIsAlsoTheirFolder() throws {
        let document = try parseBody(
            """
            <outline text="Parent" xmlUrl="https://parent.example/"><outline text="Child" xmlUrl="https://child.example/"/></outline>
            <outline text="After" xmlUrl="https://after.example/"/>
            """)
        #expect(
            document.subscriptions == [
                subscription("https://parent.example/", "Parent"),
                subscription("https://child.example/", "Child", in: "Parent"),
                subscription("https://after.example/", "After"),
            ])
    }

    @Test func emptyFoldersAndBlankAddressesGiveNothing() throws {
        let document = try parseBody(
            """
            <outline text="Empty"/><outline text="Also empty"></outline>
            <outline text="Blank" xmlUrl=""/><outline text="Spaces" xmlUrl=" \t "/>
            <outline text="Refs" xmlUrl="&#32;&#10;"/>
            """)
        #expect(document.subscriptions.isEmpty)
        #expect(document.duplicates.isEmpty)
    }

    @Test func missingHeadAndMissingBodyAreFine() throws {
        #expect(try parse("<opml><body><outline xmlUrl=\"https://a.example/\"/></body></opml>").subscriptions.count == 1)
        // Outlines straight under <opml> (no <body>) are read too.
        #expect(try parse("<opml><outline xmlUrl=\"https://a.example/\"/></opml>").subscriptions.count == 1)
        let empty = try parse("<?xml version=\"1.0\"?><opml version=\"2.0\"/>")
        #expect(empty == OPMLDocument())
    }

    @Test func headTitleWithCommentsCDATAAndEntitiesIsPlainText() throws {
        let document = try parse(
            """
            <opml><head><!-- exported --><title>  Mine &amp; <![CDATA[<yours>]]> &lt;i&gt;ok&lt;/i&gt; </title>
            <title>Second title is ignored</title></head><body/></opml>
            """)
        #expect(document.title == "Mine & <yours> <i>ok</i>")
    }

    @Test func outlinesInsideHeadAreNotSubscriptions() throws {
        let document = try parse(
            """
            <opml><head><title>t</title><outline text="Nope" xmlUrl="https://head.example/"/></head>
            <body><outline text="Yes" xmlUrl="https://body.example/"/></body></opml>
            """)
        #expect(document.subscriptions == [subscription("https://body.example/", "Yes")])
    }

    @Test func attributeLineBreaksAreSpacesButReferencedOnesStay() throws {
        let document = try parseBody(
            "<outline text=\"one\ntwo\r\nthree\tfour\" xmlUrl=\"https://a.example/\"/>"
                + "<outline text=\"one&#10;two&#13;three&#9;four\" xmlUrl=\"https://b.example/\"/>")
        #expect(document.subscriptions.map(\.title) == ["one two three four", "one\ntwo\rthree\tfour"])
    }

    @Test func entitiesAreDecodedExactlyOnce() throws {
        let document = try parseBody(
            """
            <outline text="A &amp;amp; B" xmlUrl="https://a.example/?x=1&amp;y=2"/>
            <outline text="&lt;script&gt;alert(1)&lt;/script&gt;" xmlUrl="https://b.example/"/>
            <outline text="&quot;Q&quot; &apos;A&apos; &#8217; &#x1F600; &hellip;" xmlUrl="https://c.example/"/>
            <outline text="AT&T &unknown; &#;" xmlUrl="https://d.example/"/>
            """)
        #expect(
            document.subscriptions.map(\.title) == [
                "A &amp; B", "<script>alert(1)</script>", "\"Q\" 'A' \u{2019} 😀 …", "AT&T &unknown; &#;",
            ])
        #expect(document.subscriptions.first?.feedURL == "https://a.example/?x=1&y=2")
    }

    @Test func duplicatesAreTheSameAddressAfterTrimmingAndNothingElse() throws {
        let document = try parseBody(
            """
            <outline text="1" xmlUrl="https://a.example/feed"/>
            <outline text="2" xmlUrl="  https://a.example/feed  "/>
            <outline text="3" xmlUrl="https://a.example/feed/"/>
            <outline text="4" xmlUrl="HTTPS://A.EXAMPLE/feed"/>
            <outline text="F"><outline text="5" xmlUrl="https://a.example/feed"/></outline>
            """)
        #expect(document.subscriptions.map(\.title) == ["1", "3", "4"])
        #expect(document.duplicates == [subscription("https://a.example/feed", "2"), subscription("https://a.example/feed", "5", in: "F")])
    }

    @Test func mismatchedAndUnclosedTagsCloseAsBrowsersWould() throws {
        // An unclosed folder is closed by its parent's end tag; a stray end tag is ignored.
        let document = try parseBody(
            """
            <outline text="F"><outline text="G"><outline text="In G" xmlUrl="https://1.example/"/></outline>
            </folder><outline text="In F" xmlUrl="https://2.example/"/>
            """)
        #expect(document.subscriptions == [subscription("https://1.example/", "In G", in: "F / G"), subscription("https://2.example/", "In F", in: "F")])
    }

    // MARK: - Limits at their edges

    @Test func limitsAreInclusive() throws {
        let three = "<opml><body><outline xmlUrl=\"https://1/\"/><outline xmlUrl=\"https://2/\"/><outline xmlUrl=\"https://3/\"/></body></opml>"
        #expect(try parse(three, limits: OPMLLimits(maxOutlines: 3)).subscriptions.count == 3)
        #expect(throws: OPMLError.tooManyOutlines(limit: 2)) { try parse(three, limits: OPMLLimits(maxOutlines: 2)) }

        let bytes = three.utf8.count
        #expect(try parse(three, limits: OPMLLimits(maxBytes: bytes)).subscriptions.count == 3)
        #expect(throws: OPMLError.tooLarge(limit: bytes - 1)) { try parse(three, limits: OPMLLimits(maxBytes: bytes - 1)) }

        // opml > body > outline > outline: four levels.
        let deep = "<opml><body><outline text=\"F\"><outline xmlUrl=\"https://1/\"/></outline></body></opml>"
        #expect(try parse(deep, limits: OPMLLimits(maxDepth: 4)).subscriptions == [subscription("https://1/", nil, in: "F")])
        #expect(throws: OPMLError.tooDeep(limit: 3)) { try parse(deep, limits: OPMLLimits(maxDepth: 3)) }
    }

    @Test func defaultLimits() {
        #expect(OPMLLimits.default == OPMLLimits(maxBytes: 4 * 1024 * 1024, maxOutlines: 10_000, maxDepth: 32))
    }

    // MARK: - Errors and values

    @Test func everyErrorHasAClearSentence() {
        #expect(OPMLError.notOPML.message.hasPrefix("This file is not an OPML subscription list"))
        #expect(OPMLError.tooLarge(limit: 4 * 1024 * 1024).message == "This file is larger than 4 MB, the most an OPML import accepts.")
        #expect(OPMLError.tooLarge(limit: 512 * 1024).message.contains("512 KB"))
        #expect(OPMLError.tooLarge(limit: 1_000).message.contains("1,000 bytes"))
        #expect(
            OPMLError.tooManyOutlines(limit: 10_000).message
                == "This file lists more than 10,000 feeds and folders, the most an OPML import accepts.")
        #expect(
            OPMLError.tooDeep(limit: 32).message
                == "This file nests its folders more than 32 levels deep, the most an OPML import accepts.")
        let errors: [OPMLError] = [.notOPML, .tooLarge(limit: 1), .tooManyOutlines(limit: 1_234_567), .tooDeep(limit: 0)]
        for error in errors {
            #expect(error.message.hasSuffix("."))
            #expect(error.description == error.message)
        }
        #expect(OPMLError.tooManyOutlines(limit: 1_234_567).message.contains("1,234,567"))
    }

    @Test func subscriptionsRoundTripThroughJSON() throws {
        let subscriptions = [subscription("https://a.example/", "A & B", site: "https://a.example/site", in: "X / Y"), subscription("https://b.example/", nil)]
        let data = try JSONEncoder().encode(subscriptions)
        #expect(try JSONDecoder().decode([OPMLSubscription].self, from: data) == subscriptions)
    }
}
