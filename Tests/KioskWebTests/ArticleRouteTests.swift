import Foundation
import Hummingbird
import HummingbirdTesting
import KioskCore
import KioskModel
import KioskSources
import KioskStore
@testable import KioskWeb
import Testing

/// "Full article" on entry pages: the entry's page fetched from the sample server, read by the
/// real extractor, shown in place and kept with the entry; a failure says why and keeps the summary.
@Suite struct ArticleRouteTests {
    static func entries(base url: URL) -> [Entry] {
        var base = url.absoluteString
        if base.hasSuffix("/") { base.removeLast() }
        return [
            Entry(
                id: "story", title: "Ferry becomes a library", link: base + "/sites/story/",
                summary: "Two sentences of summary."),
            Entry(id: "gone", title: "A page that is gone", link: base + "/sites/gone/", summary: "Only this summary."),
        ]
    }

    @Test func theReaderShowsTheWholeArticleInPlaceAndKeepsIt() async throws {
        try await withKioskApp { kiosk in
            let base = kiosk.sampleBase
            try await kiosk.store.saveSourceState(SourceState(entries: Self.entries(base: base)), for: .business)
            let story = try #require(try await kiosk.store.storedEntry(
                source: .business, key: EntryIdentity.key(of: Self.entries(base: base)[0]), user: .owner))
            try await kiosk.run { client, _ in
                let summary = try await client.text("/reader/entry/business/\(story.key)")
                #expect(summary.contains(#"href="/reader/entry/business/\#(story.key)/article""#))
                #expect(summary.contains("Full article"))
                #expect(!summary.contains("floating library"))

                let response = try await client.get("/reader/entry/business/\(story.key)/article")
                #expect(response.status == .ok)
                let page = String(buffer: response.body)
                #expect(page.contains(#"id="entry-article""#))
                #expect(page.contains("the town council expected to sell it for scrap"))
                #expect(page.contains("A library that moves twice a year"))
                #expect(page.contains("Mara Quinn"))
                // The site's furniture is left out; images go through the proxy.
                #expect(!page.contains("Lifeboat crew rescues kayakers"))
                #expect(!page.contains("Privacy</a>"))
                #expect(page.contains(#"src="/img?"#))
                #expect(!page.contains(#"src="http"#))
                #expect(page.contains(#">Summary</a>"#))

                let kept = try #require(try await kiosk.store.article(entry: story.id))
                #expect(kept.article?.text.contains("four thousand books") == true)
                // Found by search now, by a word only the article holds.
                #expect(try await kiosk.store.search("dehumidifiers", limit: 5, user: .owner).map(\.entry.id) == ["story"])
                // And again from the store, the same.
                #expect(String(buffer: try await client.get("/reader/entry/business/\(story.key)/article").body)
                    .contains("four thousand books"))

                // News' detail page offers and shows the same article.
                let news = try await client.text("/news/business/\(story.key)/article")
                #expect(news.contains("four thousand books"))
            }
        }
    }

    @Test func theSiteRulesFileDecidesWhatIsKeptOnItsSite() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-site-rules-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: file) }
        // The sample server is on 127.0.0.1: keep the story's body alone, and drop its subheading.
        try Data(#"{"127.0.0.1": {"keep": ["article .story-body"], "drop": ["h2"]}}"#.utf8).write(to: file)
        let rules = try WebDependencies.Parts.loadSiteRules(file.path)
        try await withKioskApp(siteRules: rules) { kiosk in
            let story = Self.entries(base: kiosk.sampleBase)[0]
            try await kiosk.store.saveSourceState(SourceState(entries: [story]), for: .business)
            let key = EntryIdentity.key(of: story)
            try await kiosk.run { client, _ in
                let page = try await client.text("/reader/entry/business/\(key)/article")
                #expect(page.contains("the town council expected to sell it for scrap"))
                #expect(!page.contains("A library that moves twice a year"))
                // The figure outside the kept body is not in the article (the lead image still is,
                // from the page's metadata, above it).
                #expect(!page.contains("The ferry at its new mooring."))
            }
        }
    }

    @Test func siteRulesThatCannotBeUsedStopKioskWithTheReason() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-site-rules-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(#"{"example.com": {"drop": ["ul > li"]}}"#.utf8).write(to: file)
        #expect {
            try WebDependencies.Parts.loadSiteRules(file.path)
        } throws: { error in
            "\(error)".contains("for example.com, the selector “ul > li” cannot be used")
        }
        #expect {
            try WebDependencies.Parts.loadSiteRules(file.path + ".missing")
        } throws: { error in
            "\(error)".contains("cannot read the site rules")
        }
    }

    @Test func aPageThatCannotBeReadSaysWhyAndKeepsTheSummary() async throws {
        try await withKioskApp { kiosk in
            let base = kiosk.sampleBase
            let gone = Self.entries(base: base)[1]
            try await kiosk.store.saveSourceState(SourceState(entries: [gone]), for: .business)
            let key = EntryIdentity.key(of: gone)
            try await kiosk.run { client, _ in
                let page = try await client.text("/reader/entry/business/\(key)/article")
                #expect(page.contains("Kiosk could not show the full article: the page is gone (HTTP 404)."))
                #expect(page.contains("Only this summary."))
                #expect(try await client.get("/reader/entry/business/nope/article").status == .notFound)
            }
        }
    }

    @Test func showFullArticlesIsAFeedSettingAndIsSuggestedForSummaries() async throws {
        try await withKioskApp { kiosk in
            let base = kiosk.sampleBase
            let story = Self.entries(base: base)[0]
            try await kiosk.store.saveSourceState(SourceState(entries: [story]), for: .business)
            try await kiosk.run { client, _ in
                let before = try await client.text("/reader/feed/business/settings")
                #expect(before.contains(#"name="fullArticles""#))
                #expect(!before.contains(#"id="feed-full-articles" name="fullArticles" checked"#))
                #expect(!before.contains("full-articles-suggestion"))

                // Too few articles kept to judge; three entries whose summaries are a sliver are enough.
                var more: [Entry] = [story]
                for index in 1...3 {
                    more.append(Entry(id: "s\(index)", title: "S\(index)", link: story.link, summary: "Two words."))
                }
                try await kiosk.store.saveSourceState(SourceState(entries: more), for: .business)
                for entry in more.dropFirst() {
                    let page = try await client.text("/reader/entry/business/\(EntryIdentity.key(of: entry))/article")
                    #expect(page.contains("four thousand books"))
                }
                let suggested = try await client.text("/reader/feed/business/settings")
                #expect(suggested.contains(#"id="full-articles-suggestion""#))
                #expect(suggested.contains("about 1% of their articles&#39; words"))

                let saved = try await client.execute(
                    uri: "/reader/feed/business/settings", method: .post,
                    headers: [.contentType: "application/x-www-form-urlencoded"],
                    body: ByteBuffer(string: "title=&folder=News&fullArticles=on"))
                #expect(saved.status == .seeOther)
                #expect(try await kiosk.store.subscriptions(user: .owner).first { $0.id == .business }?.fullArticles == true)
                #expect(try await kiosk.store.fullArticleFeeds().map(\.id) == [.business])
                let after = try await client.text("/reader/feed/business/settings")
                #expect(after.contains(#"name="fullArticles" checked"#))
                #expect(!after.contains("full-articles-suggestion"))

                // Its entries now open on their kept article; "Summary" shows the summary.
                let key = EntryIdentity.key(of: more[1])
                let entry = try await client.text("/reader/entry/business/\(key)")
                #expect(entry.contains("four thousand books"))
                #expect(entry.contains(#"href="/reader/entry/business/\#(key)?summary=1">Summary</a>"#))
                let summary = try await client.text("/reader/entry/business/\(key)?summary=1")
                #expect(!summary.contains("four thousand books"))
                #expect(summary.contains("Two words."))
                #expect(summary.contains(">Full article</a>"))
                // An entry whose article is still due (no pass has read it yet) is read when
                // opened, as "Full article" does, and kept; before, it showed its summary.
                try await kiosk.store.saveSourceState(
                    SourceState(entries: more + [Entry(id: "new", title: "New", link: story.link, summary: "Fresh.")]),
                    for: .business)
                let freshKey = EntryIdentity.key(of: Entry(id: "new", title: "New"))
                let due = try #require(try await kiosk.store.storedEntry(source: .business, key: freshKey, user: .owner))
                #expect(try await kiosk.store.article(entry: due.id) == nil)
                let fresh = try await client.text("/reader/entry/business/\(freshKey)")
                #expect(fresh.contains("four thousand books"))
                #expect(fresh.contains(#"href="/reader/entry/business/\#(freshKey)?summary=1">Summary</a>"#))
                #expect(try await kiosk.store.article(entry: due.id)?.article?.text.contains("four thousand books") == true)
            }
        }
    }
}
