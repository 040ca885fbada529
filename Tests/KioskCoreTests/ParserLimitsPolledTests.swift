import Foundation
import KioskCore
import Testing

/// A polled feed keeps its first 1,000 entries, however many it lists.
@Suite struct ParserLimitsPolledTests {
    @Test func aPolledFeedKeepsItsFirstThousandEntries() throws {
        let items = (1...5_000).map { "<item><title>t\($0)</title><guid>g\($0)</guid></item>" }.joined()
        let bytes = Array("<rss version=\"2.0\"><channel><title>big</title>\(items)</channel></rss>".utf8)
        let feed = try FeedParser.parse(bytes, limits: .polled)
        #expect(feed.entries.count == 1_000)
        #expect(feed.entries.first?.title == "t1" && feed.entries.last?.title == "t1000")
        #expect(try FeedParser.parse(bytes).entries.count == 5_000, "reading a file once keeps them all")
    }
}
