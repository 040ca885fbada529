import Foundation
import Hummingbird
import HummingbirdTesting
import KioskCore
import KioskDemo
import KioskModel
import KioskSources
import KioskStore
import KioskTesting
@testable import KioskWeb
import Testing

/// `/news` and its detail pages, drawn from the live hub (fed by hand here).
@Suite struct NewsRouteTests {
    @Test func aHugeFeedShowsAPageAndOlderOnesOnDemandAndEveryChangeStaysSmall() async throws {
        try await withKioskApp { kiosk in
            let entries = (1...250).reversed().map(SampleEntries.plain)
            try await kiosk.run { client, live in
                try await waitUntilListening(live)
                let (_, frames) = await live.subscribe(after: nil)
                let (log, reader) = FrameLog.collecting(frames)
                defer { reader.cancel() }
                await kiosk.hub.publish(.changed(.business, entries))
                let changed = try await eventually { await log.events.contains { $0.event == "changed" } }
                try #require(changed)
                let event = try #require(await log.events.first { $0.event == "changed" })
                #expect(HTMLInspection.count("entry-link", in: event.text) == NewsList.shown, "a page of rows, whatever the feed holds")
                #expect(event.text.contains("more-entries") && event.text.utf8.count < 100_000)
                let html = try await client.text("/news")
                let list = try #require(HTMLInspection.element(id: "news-list", in: html))
                #expect(HTMLInspection.count(#"<li class="entry""#, in: list) == NewsList.shown)
                #expect(list.contains("Plain headline 250") && !list.contains("Plain headline 150<"))
                #expect(list.contains(#"href="/news/older?feed=business&amp;from=100""#))
                let older = try await client.text("/news/older?feed=business&from=100")
                let rows = try #require(HTMLInspection.element(id: "older-list", in: older))
                #expect(HTMLInspection.count(#"<li class="entry""#, in: rows) == 100)
                #expect(rows.contains("Plain headline 150<") && older.contains(#"id="older-next""#))
                let last = try await client.text("/news/older?feed=business&from=200")
                #expect(HTMLInspection.count(#"<li class="entry""#, in: last) == 50 && !last.contains(#"id="older-next""#))
            }
        }
    }

    /// A change is sent as the rows that differ: one new entry on a 250-entry feed is that row,
    /// the "older" link's new count and the row that fell off the page, not the list again.
    @Test func aChangeSendsOnlyTheRowsThatDiffer() async throws {
        try await withKioskApp { kiosk in
            try await kiosk.run { _, live in
                try await waitUntilListening(live)
                let (_, frames) = await live.subscribe(after: nil)
                let (log, reader) = FrameLog.collecting(frames)
                defer { reader.cancel() }
                await kiosk.hub.publish(.changed(.business, (1...250).reversed().map(SampleEntries.plain)))
                await kiosk.hub.publish(.changed(.business, (1...251).reversed().map(SampleEntries.plain)))
                let both = try await eventually { await log.events.filter { $0.event == "changed" }.count == 2 }
                try #require(both)
                let second = try #require(await log.events.filter { $0.event == "changed" }.last)
                let diff = try #require(second.json["diff"] as? [String: Any])
                let order = try #require(diff["order"] as? [String])
                let rows = try #require(diff["rows"] as? [String: String])
                let newKey = EntryIdentity.key(of: SampleEntries.plain(251))
                #expect(order.count == NewsList.shown + 1 && order.first == newKey && order.last == "more")
                #expect(Set(rows.keys) == [newKey, "more"], "only the new row and the older link's count")
                #expect(rows[newKey]?.contains("Plain headline 251") == true)
                #expect(rows["more"]?.contains("151 more") == true)
                #expect(diff["removed"] as? [String] == [EntryIdentity.key(of: SampleEntries.plain(151))])
                #expect(second.text.utf8.count < 8_000, "a one-row change is small: \(second.text.utf8.count) bytes")
                // Pages drawn now show the same list the diffs lead to.
                let page = await live.snapshot().lists[.business]
                #expect(page?.rows.map(\.key) == order)
            }
        }
    }

    @Test func aListDiffIsExactAndKeysAreUnique() {
        let a = RenderedList([("1", el("li") { "one" }), ("2", el("li") { "two" }), ("3", el("li") { "three" })])
        let b = RenderedList([("4", el("li") { "four" }), ("1", el("li") { "one" }), ("3", el("li") { "three!" })])
        #expect(b.diff(from: a) == ListDiff(order: ["4", "1", "3"], rows: ["4": "<li>four</li>", "3": "<li>three!</li>"], removed: ["2"]))
        #expect(a.diff(from: a) == ListDiff(order: ["1", "2", "3"], rows: [:], removed: []))
        #expect(a.diff(from: nil).rows.count == 3)
        #expect(RenderedList([("1", el("li") { "one" }), ("1", el("li") { "again" })]).rows.count == 1)
    }

    @Test func entriesPublishedBeforeAndAfterStartShowOnNews() async throws {
        try await withKioskApp { kiosk in
            await kiosk.hub.publish(.changed(.business, [SampleEntries.plain(1)]))
            try await kiosk.run { client, live in
                let before = try await eventually { try await client.text("/news").contains("Plain headline 1") }
                #expect(before, "an entry published before start shows")
                try await waitUntilListening(live)
                await kiosk.hub.publish(.changed(.business, [SampleEntries.plain(2), SampleEntries.plain(1)]))
                let after = try await eventually { try await client.text("/news").contains("Plain headline 2") }
                #expect(after, "an entry published after start shows")
                let html = try await client.text("/news")
                let list = try #require(HTMLInspection.element(id: "news-list", in: html))
                #expect(HTMLInspection.count(#"<li class="entry""#, in: list) == 2)
                let second = try #require(list.range(of: "Plain headline 2"))
                let first = try #require(list.range(of: "Plain headline 1"))
                #expect(second.lowerBound < first.lowerBound, "in the hub's order")
                #expect(list.contains(#"href="/news/business/\#(EntryIdentity.key(of: SampleEntries.plain(2)))""#))
                #expect(html.contains(#"data-seq="\#(await live.snapshot().sequence)""#))
                // Business entries are not on the other feed.
                let other = try await client.text("/news?feed=entertainment-environment")
                #expect(!other.contains("Plain headline"))
            }
        }
    }

    @Test func theMergedFeedListsItsPartsEntries() async throws {
        try await withKioskApp { kiosk in
            let entry = SampleEntries.plain(7)
            await kiosk.hub.publish(.changed(.entertainment, [entry]))
            await kiosk.hub.publish(.changed(.entertainmentAndEnvironment, [entry], origins: [.entertainment]))
            try await kiosk.run { client, _ in
                let uri = "/news?feed=entertainment-environment"
                let shown = try await eventually { try await client.text(uri).contains("Plain headline 7") }
                try #require(shown)
                let html = try await client.text(uri)
                let key = EntryIdentity.key(of: entry)
                #expect(html.contains(#"href="/news/entertainment/\#(key)""#))
                #expect(html.contains(#"<span class="entry-part">Entertainment</span>"#))
                let detail = try await client.get("/news/entertainment/\(key)")
                #expect(detail.status == .ok)
                #expect(String(buffer: detail.body).contains(#"<h1 id="entry-title">Plain headline 7</h1>"#))
            }
        }
    }

    @Test func eachMergedRowIsLabelledByTheFeedItsEventSaysEvenWhenBothCarryIt() async throws {
        // The same story in both feeds: the merged list has it twice, once per feed.
        let story = SampleEntries.plain(3)
        let parts: [SourceID: [Entry]] = [.entertainment: [story], .environment: [SampleEntries.plain(4), story]]
        var sources = HubSnapshot()
        sources.apply(EngineEvent(sequence: 1, kind: SourceCatalogue.entertainmentAndEnvironment.changed(parts)))
        let catalogue = SourceCatalogue.demo(base: try #require(URL(string: "http://127.0.0.1:1")))
        let names: [SourceID: String] = [.entertainment: "Showbiz", .environment: "Planet"]
        let news = NewsSections(catalogue: catalogue, names: names)
        let section = try #require(news.section(slug: "entertainment-environment"))
        let list = NewsList(feed: section, sections: news, sources: sources)
        #expect(list.rows.map(\.part) == [.entertainment, .environment, .environment])
        let html = RenderedHTML(list.items).markup
        #expect(HTMLInspection.count(#"<span class="entry-part">Showbiz</span>"#, in: html) == 1)
        #expect(HTMLInspection.count(#"<span class="entry-part">Planet</span>"#, in: html) == 2)
    }

    @Test func newsSectionsComeFromTheCatalogueNotTheCode() throws {
        var catalogue = SourceCatalogue.demo(base: try #require(URL(string: "http://127.0.0.1:1")))
        catalogue.feeds.append(PolledSource(id: "world", name: "World", url: try #require(URL(string: "http://127.0.0.1:1/w.xml"))))
        catalogue.news = ["world", .business]
        #expect(catalogue.newsFeeds == ["world", .business])
        let news = NewsSections(catalogue: catalogue, names: ["world": "World news", .business: "Money"])
        #expect(news.sections.map(\.label) == ["World news", "Money"])
        #expect(news.section(slug: nil)?.source == "world")
        #expect(news.shows(.business) && !news.shows(.entertainment))
        let page = NewsPage(feed: try #require(news.section(slug: "business")), sections: news, state: LiveState()).page
        let html = page.render()
        #expect(html.contains(#"href="/news?feed=world""#) && html.contains(">World news<"))
        #expect(html.contains(">Money<") && !html.contains("Entertainment"))
    }

    @Test func aHostileEntryRendersEscapedInTheList() async throws {
        try await withKioskApp { kiosk in
            await kiosk.hub.publish(.changed(.business, [SampleEntries.hostile, SampleEntries.plain(1)]))
            try await kiosk.run { client, _ in
                let shown = try await eventually { try await client.text("/news").contains("Plain headline 1") }
                try #require(shown)
                let html = try await client.text("/news")
                #expect(html.contains(SampleEntries.hostileTitleEscaped))
                #expect(!html.contains(SampleEntries.hostileTitle))
                #expect(HTMLInspection.startTags("script", in: html).count == 1, "only app.js")
                #expect(HTMLInspection.startTags("img", in: html).isEmpty)
                #expect(!HTMLInspection.hasEventHandlerAttribute(html))
                #expect(!html.lowercased().contains("javascript:"))
            }
        }
    }

    @Test func aHostileEntrysDetailPageHasNoActiveContent() async throws {
        try await withKioskApp { kiosk in
            await kiosk.hub.publish(.changed(.business, [SampleEntries.hostile]))
            try await kiosk.run { client, _ in
                let shown = try await eventually {
                    try await client.text("/news").contains(SampleEntries.hostileTitleEscaped)
                }
                try #require(shown)
                let response = try await client.get("/news/business/\(EntryIdentity.key(of: SampleEntries.hostile))")
                #expect(response.status == .ok)
                let html = String(buffer: response.body)
                let description = try #require(HTMLInspection.element(id: "entry-description", in: html))
                #expect(!description.lowercased().contains("<script"))
                #expect(!description.lowercased().contains("onerror"))
                #expect(!description.lowercased().contains("onclick"))
                #expect(!description.lowercased().contains("javascript:"))
                #expect(!description.lowercased().contains("<iframe"))
                #expect(!description.lowercased().contains("<object"))
                #expect(description.contains("Before"))
                #expect(description.contains("After"))
                // The feed's image goes through the signed proxy, never straight to its host.
                let images = HTMLInspection.attributeValues("src", in: description)
                #expect(images.allSatisfy { $0.hasPrefix("/img?u=") }, "\(images)")
                // The title is text; the javascript: link is no link at all.
                #expect(html.contains(#"<h1 id="entry-title">\#(SampleEntries.hostileTitleEscaped)</h1>"#))
                #expect(!html.contains(#"id="entry-link-out""#))
                SecurityHeadersRouteTests.expectNoInlineActiveContent(html, "hostile detail")
            }
        }
    }

    @Test func openingADetailPageSetsHomesLastOpened() async throws {
        try await withKioskApp { kiosk in
            let entry = SampleEntries.plain(3)
            await kiosk.hub.publish(.changed(.business, [entry]))
            try await kiosk.run { client, live in
                let shown = try await eventually { try await client.text("/news").contains("Plain headline 3") }
                try #require(shown)
                let homeBefore = try await client.text("/")
                let before = try #require(HTMLInspection.element(id: "last-opened", in: homeBefore))
                #expect(HTMLInspection.inner(before).isEmpty)

                let path = "/news/business/\(EntryIdentity.key(of: entry))"
                let detail = try await client.get(path)
                #expect(detail.status == .ok)
                let page = String(buffer: detail.body)
                #expect(page.contains(#"<h1 id="entry-title">Plain headline 3</h1>"#))
                #expect(page.contains(#"href="https://news.example.org/story/3""#))
                // The GET changed nothing: opening is recorded by the page's POST.
                #expect(try await kiosk.store.lastOpened(user: .owner) == nil)
                #expect(try await client.reportOpened(path).status == .noContent)

                let home = try await client.text("/")
                let lastOpened = try #require(HTMLInspection.element(id: "last-opened", in: home))
                #expect(HTMLInspection.inner(lastOpened) == "Plain headline 3")
                #expect(lastOpened.contains(#"href="\#(path)""#))
                #expect(try await kiosk.store.lastOpened(user: .owner)?.title == "Plain headline 3")
                #expect(try await kiosk.store.lastOpened(user: .owner)?.path == path)
                #expect(await live.lastOpened(for: .owner)?.path == path)
            }
        }
    }

    @Test func aHostileLastOpenedTitleIsEscapedOnHome() async throws {
        try await withKioskApp { kiosk in
            await kiosk.hub.publish(.changed(.business, [SampleEntries.hostile]))
            try await kiosk.run { client, _ in
                let shown = try await eventually {
                    try await client.text("/news").contains(SampleEntries.hostileTitleEscaped)
                }
                try #require(shown)
                _ = try await client.reportOpened("/news/business/\(EntryIdentity.key(of: SampleEntries.hostile))")
                let home = try await client.text("/")
                let lastOpened = try #require(HTMLInspection.element(id: "last-opened", in: home))
                #expect(HTMLInspection.inner(lastOpened) == SampleEntries.hostileTitleEscaped)
                SecurityHeadersRouteTests.expectNoInlineActiveContent(home, "home")
            }
        }
    }

    @Test func onlyRealHeadlinesCanBeReportedOpenedAndAFloodIsThrottled() async throws {
        try await withKioskApp { kiosk in
            let entries = [SampleEntries.plain(4), SampleEntries.plain(5)]
            await kiosk.hub.publish(.changed(.business, entries))
            try await kiosk.run { client, live in
                let shown = try await eventually { try await client.text("/news").contains("Plain headline 5") }
                try #require(shown)
                for path in ["/news/business/0000", "/news/facts/\(EntryIdentity.key(of: entries[0]))", "/elsewhere", "//x"] {
                    #expect(try await client.reportOpened(path).status == .notFound, "\(path)")
                }
                let first = "/news/business/\(EntryIdentity.key(of: entries[0]))"
                #expect(try await client.reportOpened(first).status == .noContent)
                #expect(await live.lastOpened(for: .owner)?.path == first)
            }
        }
    }

    @Test func theOpenedLimiterHearsAClientAtMostEveryHalfSecondAndEveryoneTwentyTimesASecond() async {
        let limiter = OpenedLimiter()
        let start = ContinuousClock.now
        #expect(await limiter.admit("a", now: start))
        #expect(await !limiter.admit("a", now: start + .milliseconds(100)))
        #expect(await limiter.admit("a", now: start + .milliseconds(600)))
        // Many clients at once: twenty in the same second, then none until it is over.
        var admitted = 0
        for client in 0..<50 where await limiter.admit("c\(client)", now: start + .milliseconds(700)) { admitted += 1 }
        #expect(admitted == 18)  // "a" took two of this second's twenty
        #expect(await limiter.admit("late", now: start + .milliseconds(1_700)))
    }

    @Test func anEntryThatLeftTheFeedIsStillFoundInTheStore() async throws {
        try await withKioskApp { kiosk in
            let gone = SampleEntries.plain(9)
            try await kiosk.store.saveSourceState(SourceState(entries: [gone]), for: .business)
            try await kiosk.run { client, _ in
                let response = try await client.get("/news/business/\(EntryIdentity.key(of: gone))")
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains("Plain headline 9"))
            }
        }
    }

    @Test func unknownEntriesAndSourcesAnswerANotFoundPage() async throws {
        try await withKioskApp { kiosk in
            await kiosk.hub.publish(.changed(.business, [SampleEntries.plain(1)]))
            try await kiosk.run { client, _ in
                for uri in [
                    "/news/business/unknown", "/news/facts/\(EntryIdentity.key(of: SampleEntries.plain(1)))",
                    "/news/nowhere/abc", "/discover/articles/unknown",
                ] {
                    let response = try await client.get(uri)
                    #expect(response.status == .notFound, "\(uri)")
                    #expect(response.headers[.contentType] == "text/html; charset=utf-8", "\(uri)")
                    let html = String(buffer: response.body)
                    #expect(html.hasPrefix("<!DOCTYPE html>"), "\(uri)")
                    #expect(html.contains(#"data-page="not-found""#), "\(uri)")
                    SecurityHeadersRouteTests.expectSecurityHeaders(response, uri)
                }
            }
        }
    }
}
