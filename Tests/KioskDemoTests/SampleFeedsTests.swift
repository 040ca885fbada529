import Foundation
import Testing

@testable import KioskDemo

/// `/samples/N.xml`: many small feeds for clusters and benchmarks, stable, with validators.
@Suite struct SampleFeedsTests {
    @Test func everyNumberHasItsOwnStableFeedAndA304ForItsETag() throws {
        let first = SampleFeeds.reply(path: "/samples/42.xml", headers: [:], conditional: true)
        #expect(first.status == .ok)
        let text = String(decoding: first.body, as: UTF8.self)
        #expect(text.contains("<title>Sample feed 42</title>"))
        #expect(text.components(separatedBy: "<item>").count == 4)
        #expect(SampleFeeds.reply(path: "/samples/42.xml", headers: [:], conditional: true).body == first.body)
        let etag = try #require(first.headers[.eTag])
        let again = SampleFeeds.reply(path: "/samples/42.xml", headers: [.ifNoneMatch: etag], conditional: true)
        #expect(again.status == .notModified)
        #expect(again.body.isEmpty)
    }

    @Test func otherPathsAreNotFound() {
        for path in ["/samples/", "/samples/x.xml", "/samples/-1.xml", "/samples/1000000.xml", "/samples/7.rss"] {
            #expect(SampleFeeds.reply(path: path, headers: [:], conditional: true).status == .notFound, "\(path)")
        }
        #expect(DemoSource(path: "/samples/3.xml") == .samples)
    }
}
