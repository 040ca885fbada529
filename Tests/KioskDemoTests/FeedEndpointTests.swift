import Foundation
import KioskCore
import KioskDemo
import Testing

@Suite struct FeedEndpointTests {
    @Test func eachFeedServesTheCapturedRSSWithValidators() async throws {
        try await DemoHarness.run { demo async throws in
            for source in [DemoSource.business, .entertainment, .environment] {
                let fetched = try await demo.get(source.path)
                #expect(fetched.status == 200)
                #expect(fetched.header("content-type") == "application/rss+xml; charset=utf-8")
                #expect(DemoHarness.isETag(fetched.header("etag"), of: source, version: 0))
                let lastModified = try #require(fetched.header("last-modified"))
                #expect(lastModified.hasSuffix(" GMT"))
                #expect(DateParser.parse(lastModified) != nil)
                let feed = try FeedParser.parse(fetched.body, charsetHint: "utf-8")
                #expect(feed.entries.count == 20)
                #expect(feed.title?.hasPrefix("Reuters") == true)
            }
        }
    }

    @Test func matchingETagGets304WithNoBody() async throws {
        try await DemoHarness.run { demo async throws in
            let first = try await demo.get("/reuters/business.xml")
            let etag = try #require(first.header("etag"))
            let again = try await demo.get("/reuters/business.xml", headers: [("If-None-Match", etag)])
            #expect(again.status == 304)
            #expect(again.body.isEmpty)
            #expect(again.header("etag") == etag)
            let other = try await demo.get("/reuters/business.xml", headers: [("If-None-Match", "\"business-99\"")])
            #expect(other.status == 200)
        }
    }

    @Test func lastModifiedGets304() async throws {
        try await DemoHarness.run { demo async throws in
            let first = try await demo.get("/reuters/environment.xml")
            let lastModified = try #require(first.header("last-modified"))
            let again = try await demo.get("/reuters/environment.xml", headers: [("If-Modified-Since", lastModified)])
            #expect(again.status == 304)
            #expect(again.body.isEmpty)
            let earlier = "Sat, 19 Jan 2019 08:47:23 GMT"
            let stale = try await demo.get("/reuters/environment.xml", headers: [("If-Modified-Since", earlier)])
            #expect(stale.status == 200)
        }
    }

    @Test func addEntryPutsANewFirstItemAndChangesTheVersion() async throws {
        try await DemoHarness.run { demo async throws in
            let before = try await demo.get("/reuters/business.xml")
            let oldETag = try #require(before.header("etag"))
            let oldLastModified = try #require(before.header("last-modified"))
            let oldFeed = try FeedParser.parse(before.body)

            await demo.control.addEntry(to: .business)
            let after = try await demo.get("/reuters/business.xml", headers: [("If-None-Match", oldETag)])
            #expect(after.status == 200)
            #expect(DemoHarness.isETag(after.header("etag"), of: .business, version: 1))
            let feed = try FeedParser.parse(after.body)
            #expect(feed.entries.count == 21)
            let newest = try #require(feed.entries.first)
            #expect(DemoHarness.isEntryID(newest.id, of: .business, ordinal: 1))
            #expect(newest.title?.hasPrefix("UPDATE 1-") == true)
            #expect(!oldFeed.entries.contains { $0.title == newest.title })
            // The new entry is dated now, not in 2019.
            let published = try #require(newest.published)
            #expect(abs(published.timeIntervalSinceNow) < 120)
            #expect(Array(feed.entries.dropFirst()) == oldFeed.entries)

            let byDate = try await demo.get("/reuters/business.xml", headers: [("If-Modified-Since", oldLastModified)])
            #expect(byDate.status == 200)
            // Other feeds did not change.
            let other = try await demo.get("/reuters/entertainment.xml")
            #expect(DemoHarness.isETag(other.header("etag"), of: .entertainment, version: 0))
        }
    }

    @Test func rapidAdditionsGetDistinctLastModifiedAndTitles() async throws {
        try await DemoHarness.run { demo async throws in
            var lastModified: [String] = []
            for _ in 0..<3 {
                await demo.control.addEntry(to: .environment)
                let fetched = try await demo.get("/reuters/environment.xml")
                lastModified.append(try #require(fetched.header("last-modified")))
            }
            // Three versions within one second still compare as three different dates.
            #expect(Set(lastModified).count == 3)
            let held = try #require(lastModified.first)
            let fetched = try await demo.get("/reuters/environment.xml", headers: [("If-Modified-Since", held)])
            #expect(fetched.status == 200)
        }
    }

    @Test func feedKeepsAtMostFortyItemsWithUniqueTitlesAndGuids() async throws {
        try await DemoHarness.run { demo async throws in
            for _ in 0..<70 { await demo.control.addEntry(to: .entertainment) }
            let fetched = try await demo.get("/reuters/entertainment.xml")
            #expect(DemoHarness.isETag(fetched.header("etag"), of: .entertainment, version: 70))
            let feed = try FeedParser.parse(fetched.body)
            #expect(feed.entries.count == 40)
            #expect(DemoHarness.isEntryID(feed.entries.first?.id, of: .entertainment, ordinal: 70))
            #expect(Set(feed.entries.compactMap(\.title)).count == 40)
            #expect(Set(feed.entries.compactMap(\.id)).count == 40)
        }
    }

    @Test func feedsEvolveByThemselvesOverTime() async throws {
        let configuration = DemoConfiguration(
            latencies: DemoConfiguration.uniform(.zero), evolveEvery: [.business: .milliseconds(200)])
        try await DemoHarness.run(configuration) { demo async throws in
            let first = try await demo.get("/reuters/business.xml")
            let etag = try #require(first.header("etag"))
            try await Task.sleep(for: .milliseconds(700))
            let later = try await demo.get("/reuters/business.xml", headers: [("If-None-Match", etag)])
            #expect(later.status == 200)
            #expect(later.header("etag") != etag)
            let feed = try FeedParser.parse(later.body)
            #expect(feed.entries.count > 21)
            #expect(feed.entries.first?.id?.hasPrefix("urn:kiosk-demo:business:") == true)
            // Entries keep their identity from one version to the next.
            let again = try FeedParser.parse(try await demo.get("/reuters/business.xml").body)
            let titles = Dictionary(again.entries.map { ($0.id, $0.title) }, uniquingKeysWith: { first, _ in first })
            // (It keeps evolving meanwhile: the oldest may have left the 40 kept; a busy machine
            // can take a while between the two requests.)
            let kept = feed.entries.filter { titles[$0.id] != nil }
            #expect(!kept.isEmpty)
            for entry in kept { #expect(titles[entry.id] == entry.title) }
        }
    }
}
