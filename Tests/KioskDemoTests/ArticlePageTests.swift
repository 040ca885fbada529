import Foundation
import KioskCore
import KioskDemo
import KioskHTML
import Testing

/// Behind every link of the sample feeds there is an article page on the demo server, so the
/// reader view, "Show full articles" and offline reading work with no network.
@Suite struct ArticlePageTests {
    @Test func everyItemOfEveryFeedLinksToAnArticlePageOnTheDemoServer() async throws {
        try await DemoHarness.run { demo async throws in
            await demo.control.addEntry(to: .business)
            for source in [DemoSource.business, .entertainment, .environment] {
                let feed = try FeedParser.parse(try await demo.get(source.path).body)
                #expect(feed.entries.count >= 20)
                var sites: Set<String> = []
                for entry in feed.entries {
                    let link = try #require(entry.link)
                    #expect(link.hasPrefix(demo.url("/sites/articles/\(source.rawValue)/")), "\(link)")
                    let path = String(link.dropFirst(demo.base.absoluteString.count))
                    let page = try await demo.get(path)
                    #expect(page.status == 200)
                    #expect(page.header("content-type") == "text/html; charset=utf-8")

                    let url = try #require(URL(string: link))
                    let article = try ArticleExtractor.extract(page.body, url: url.absoluteString)
                    let title = try #require(entry.title)
                    // The page's headline is the item's (less the demo's `UPDATE n-` prefix).
                    #expect(title.hasSuffix(try #require(article.title)), "\(title) / \(article.title ?? "")")
                    let summary = HTMLText.plainText(fromHTML: entry.summary ?? entry.content ?? "")
                    #expect(!summary.isEmpty)
                    // The article opens with the summary and holds several times its words: a
                    // feed of summaries, as "Show full articles" is meant for.
                    #expect(article.text.hasPrefix(String(summary.prefix(40))), "\(link)")
                    #expect(article.wordCount >= 5 * ArticleDocumentWords.count(summary), "\(link)")
                    // Nothing of the page around the story.
                    for chrome in ["Advertisement", "Sign in to comment", "Most read", "Accept all", "Subscribe", "Get the morning briefing"] {
                        #expect(!article.text.contains(chrome), "\(chrome) in \(link)")
                    }
                    sites.insert(article.siteName ?? "none")
                }
                // Pages come from more than one kind of site (JSON-LD, OpenGraph, none).
                #expect(sites.count >= 2)
            }
        }
    }

    @Test func aPageIsTheSameOnEveryRequestAndUnknownPagesAreNotFound() async throws {
        try await DemoHarness.run { demo async throws in
            let first = try await demo.get("/sites/articles/environment/c3")
            let again = try await demo.get("/sites/articles/environment/c3")
            #expect(first.status == 200)
            #expect(first.body == again.body)
            for path in [
                "/sites/articles/environment/c999", "/sites/articles/facts/c1", "/sites/articles/business/x",
                "/sites/articles/business/abc-0", "/sites/articles/business/c1/more", "/sites/articles/business/-3",
            ] {
                #expect(try await demo.get(path).status == 404, "\(path)")
            }
        }
    }

    @Test func anEntryOfAnEarlierRunStillHasItsPage() async throws {
        // The server started again: an entry stored from the run before keeps a working link.
        try await DemoHarness.run { demo async throws in
            #expect(try await demo.get("/sites/articles/business/zz123-7").status == 200)
        }
    }

    @Test func idsAndValidatorsDifferAcrossRestarts() async throws {
        func firstAdded() async throws -> (id: String?, etag: String?) {
            try await DemoHarness.run { demo async throws in
                await demo.control.addEntry(to: .business)
                let fetched = try await demo.get(DemoSource.business.path)
                let feed = try FeedParser.parse(fetched.body)
                return (feed.entries.first?.id, fetched.header("etag"))
            }
        }
        let before = try await firstAdded()
        try await Task.sleep(for: .milliseconds(5))
        let after = try await firstAdded()
        #expect(DemoHarness.isEntryID(before.id, of: .business, ordinal: 1))
        #expect(DemoHarness.isEntryID(after.id, of: .business, ordinal: 1))
        // A restarted server counts from 1 again, but never reuses an id or an ETag: a reader
        // holding the old ones would otherwise overwrite a stored entry or be told "unchanged".
        #expect(before.id != after.id)
        #expect(before.etag != after.etag)
    }
}

/// Words as the extractor counts them.
private enum ArticleDocumentWords {
    static func count(_ text: String) -> Int {
        text.split(whereSeparator: { $0.isWhitespace }).count
    }
}
