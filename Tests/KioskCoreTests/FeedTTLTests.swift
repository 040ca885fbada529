import Foundation
import Testing
@testable import KioskCore

/// RSS `<ttl>`: the minutes a feed asks to be cached, which the engine honours when polling.
@Suite struct FeedTTLTests {
    private func parse(_ xml: String) throws -> Feed {
        try FeedParser.parse(Array(xml.utf8))
    }

    /// An RSS 2.0 channel as feeds write it, with `channelExtra` after the title.
    private func channel(_ channelExtra: String, item: String = "") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0"><channel>
        <title>Weekly</title><link>https://example.com/</link>
        \(channelExtra)
        <item><title>One</title><guid>1</guid>\(item)</item>
        </channel></rss>
        """
    }

    @Test func theChannelsTTLIsReadInMinutes() throws {
        #expect(try parse(channel("<ttl>60</ttl>")).ttl == 60)
        #expect(try parse(channel("<ttl>\n  1440 </ttl>")).ttl == 1440)
        #expect(try parse(channel("<ttl>0</ttl>")).ttl == 0)
    }

    @Test func aFeedWithoutOneHasNone() throws {
        #expect(try parse(channel("")).ttl == nil)
        #expect(try parse(#"<feed xmlns="http://www.w3.org/2005/Atom"><title>A</title></feed>"#).ttl == nil)
    }

    @Test func aTTLThatIsNoNumberIsIgnored() throws {
        #expect(try parse(channel("<ttl>an hour</ttl>")).ttl == nil)
        #expect(try parse(channel("<ttl>-5</ttl>")).ttl == nil)
        #expect(try parse(channel("<ttl>1.5</ttl>")).ttl == nil)
        #expect(try parse(channel("<ttl></ttl>")).ttl == nil)
    }

    @Test func aHugeTTLStopsAtAYearInsteadOfOverflowing() throws {
        #expect(try parse(channel("<ttl>99999999999999999999999999999</ttl>")).ttl == 366 * 24 * 60)
    }

    @Test func onlyTheChannelsTTLCounts() throws {
        #expect(try parse(channel("", item: "<ttl>5</ttl>")).ttl == nil)
        let foreign = channel(#"<x:ttl xmlns:x="urn:example">5</x:ttl>"#)
        #expect(try parse(foreign).ttl == nil)
    }
}
