import Foundation
import Testing
@testable import KioskCore
import KioskTesting

/// Files written to hurt a parser. Each must end with a typed error or a right answer, quickly
/// and in bounded memory. Time bounds here are generous (debug build, noisy machine); the
/// release-mode figures are in `kiosk-bench hostile` and docs/PERFORMANCE.md.
@Suite struct HostileInputTests {
    private func timed<T>(_ body: () throws -> T) rethrows -> (T, Duration) {
        let clock = ContinuousClock()
        let start = clock.now
        let result = try body()
        return (result, clock.now - start)
    }

    @Test func billionLaughsIsNeverExpanded() throws {
        let feed = try FeedParser.parse(Array(HostileFeeds.billionLaughs.utf8))
        // The declared entity stays a literal reference: nothing was expanded.
        #expect(feed.title == "&lol9;")
    }

    @Test func externalEntitiesNeverReadLocalFiles() throws {
        let feed = try FeedParser.parse(Array(HostileFeeds.externalEntity(path: "/etc/passwd").utf8))
        #expect(feed.title == "&xxe;")
        #expect((feed.entries.first?.summary ?? "").contains("root:") == false)
    }

    @Test func fiftyThousandDeepNestingIsATypedError() {
        let (result, _) = timed { Result { try FeedParser.parse(Array(HostileFeeds.deepNesting(50_000).utf8)) } }
        #expect(throws: FeedError.tooDeep(limit: ParserLimits.default.maxDepth)) { try result.get() }
        let json = String(repeating: "[", count: 50_000) + String(repeating: "]", count: 50_000)
        #expect(throws: FeedError.tooDeep(limit: ParserLimits.default.maxDepth)) { try FeedParser.parse(Array(json.utf8)) }
    }

    @Test func threeHundredKilobytesOfReferencesDecodeInLinearTime() throws {
        let feed = try FeedParser.parse(Array(HostileFeeds.entityFlood(bytes: 300_000).utf8))
        let title = try #require(feed.title)
        #expect(title.count == 300_000 / "&amp;&#169;&eacute;&lol;".utf8.count * 8)
        #expect(title.hasPrefix("&©é&lol;&©é"))
    }

    @Test func oversizedInputIsRefusedBeforeParsing() {
        let bytes = [UInt8](repeating: 0x20, count: 2_000)
        #expect(throws: FeedError.tooLarge(limit: 1_000)) { try FeedParser.parse(bytes, limits: ParserLimits(maxBytes: 1_000)) }
    }

    @Test func aHundredMegabyteFeedParsesCompletely() throws {
        let bytes = HostileFeeds.largeRSS(bytes: 100_000_000)
        let limits = ParserLimits(maxBytes: 200_000_000, maxEntries: 1_000_000)
        let (feed, elapsed) = try timed { try FeedParser.parse(bytes.feed, limits: limits) }
        #expect(feed.entries.count == bytes.items)
        #expect(feed.entries.last?.title == "Item \(bytes.items - 1)")
        #expect(elapsed < .seconds(300), "generous bound for a debug build; release figures in PERFORMANCE.md")
    }

    @Test func parseTimeGrowsLinearlyWithSize() throws {
        let small = HostileFeeds.largeRSS(bytes: 2_000_000).feed
        let large = HostileFeeds.largeRSS(bytes: 8_000_000).feed
        _ = try FeedParser.parse(small)  // warm up
        let (_, smallTime) = try timed { try FeedParser.parse(small) }
        let (_, largeTime) = try timed { try FeedParser.parse(large) }
        // 4x the input: a linear parser takes ~4x; allow for a noisy machine, not for n².
        #expect(largeTime < smallTime * 12)
    }

    @Test func truncatedAndGarbledDocumentsNeverCrash() throws {
        let reuters = try [UInt8](Fixture.data("reuters_business.xml"))
        var generator = SplitMix64(seed: 42)
        for cut in stride(from: 0, to: reuters.count, by: 997) {
            _ = try? FeedParser.parse(Array(reuters[..<cut]))
        }
        for _ in 0..<200 {
            var garbled = reuters
            for _ in 0..<50 {
                let index = Int.random(in: 0..<garbled.count, using: &generator)
                garbled[index] = UInt8.random(in: 0...255, using: &generator)
            }
            _ = try? FeedParser.parse(garbled)
        }
        let noise = (0..<100_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        _ = try? FeedParser.parse([0x3C] + noise)
    }

    // A reference past 32 bits once overflowed XMLEntities and trapped: the server died at the
    // first poll of such a feed, and again at every restart.
    @Test(arguments: ["&#x100000000;", "&#4294967295;", "&#x110000;", "&#99999999999999999999999;",
                      "&#x" + String(repeating: "F", count: 10_000) + ";"])
    func overlongNumericReferencesAreOneReplacementCharacter(reference: String) throws {
        let rss = """
            <rss version="2.0"><channel><title>t\(reference)</title><link>https://example.com/</link>
            <item><title>\(reference)</title><link>https://example.com/a?\(reference)</link>
            <description>a\(reference)b &lt;p title="\(reference.replacingOccurrences(of: "&", with: "&amp;"))"&gt;c&lt;/p&gt;</description>
            </item></channel></rss>
            """
        let feed = try FeedParser.parse(Array(rss.utf8))
        #expect(feed.title == "t\u{FFFD}")
        let entry = try #require(feed.entries.first)
        #expect(entry.title == "\u{FFFD}")
        #expect(entry.summary?.hasPrefix("a\u{FFFD}b") == true)
        let atom = """
            <feed xmlns="http://www.w3.org/2005/Atom"><title>\(reference)</title>
            <entry><id>x</id><title type="html">\(reference)</title><link href="https://example.com/\(reference)"/></entry></feed>
            """
        let atomFeed = try FeedParser.parse(Array(atom.utf8))
        #expect(atomFeed.title == "\u{FFFD}")
        #expect(atomFeed.entries.first?.title == "\u{FFFD}")
    }

    @Test func overlongReferencesInHTMLAreOneReplacementCharacter() {
        #expect(HTMLEntities.decode("a&#4294967295;b&#x100000000;c") == "a\u{FFFD}b\u{FFFD}c")
    }

    @Test func boundedNumbersSaturateInsteadOfOverflowing() {
        var number = BoundedNumber(radix: 16, ceiling: 0x11_0000)
        for _ in 0..<40 { number.append(15) }
        #expect(number.value == 0x11_0000)
        #expect(number.isSaturated)
        #expect(number.digitCount == 40)
        var unbounded = BoundedNumber()
        for _ in 0..<100 { unbounded.append(9) }
        #expect(unbounded.value == Int.max)
        var exact = BoundedNumber()
        for digit in [1, 2, 3] { exact.append(digit) }
        #expect(exact.value == 123 && !exact.isSaturated)
        #expect(BoundedNumber.digitValue(UInt8(ascii: "f"), radix: 16) == 15)
        #expect(BoundedNumber.digitValue(UInt8(ascii: "f")) == nil)
    }

    @Test func absurdNumbersInDatesAndDimensionsAreRefusedNotTrapped() {
        #expect(DateParser.parse("99999999999999999999999999-01-01") == nil)
        #expect(DateParser.parse("2024-01-01T10:00:00.99999999999999999999999999Z") != nil)
        #expect(DateParser.parse("Mon, 99999999999999999999 Jan 2024 10:00:00 GMT") == nil)
    }
}
