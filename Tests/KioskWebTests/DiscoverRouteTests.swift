import Foundation
import Hummingbird
import HummingbirdTesting
import KioskCore
import KioskModel
import KioskSources
@testable import KioskWeb
import Testing

/// Discover over the sample server's NewsAPI.
@Suite struct DiscoverRouteTests {
    @Test func aCategoryPageListsTenArticles() async throws {
        try await withKioskApp { kiosk in
            try await kiosk.run { client, _ in
                let response = try await client.get("/discover?category=business")
                #expect(response.status == .ok)
                let html = String(buffer: response.body)
                let list = try #require(HTMLInspection.element(id: "articles", in: html))
                #expect(HTMLInspection.count(#"<li class="article""#, in: list) == 10)
                #expect(list.contains(#"data-has-more="true""#))
                #expect(list.contains(#"data-query="category=business""#))
                #expect(html.contains(#"<a href="/discover?category=business" data-category="business" aria-current="page">"#))
                let banner = try #require(HTMLInspection.element(id: "api-error", in: html))
                #expect(banner.contains(" hidden"))
                // Thumbnails go through the signed proxy.
                let thumbs = HTMLInspection.attributeValues("data-src", in: list)
                #expect(!thumbs.isEmpty)
                #expect(thumbs.allSatisfy { $0.hasPrefix("/img?u=") })
            }
        }
    }

    @Test func moreResultsComeAsJSON() async throws {
        try await withKioskApp { kiosk in
            try await kiosk.run { client, _ in
                let response = try await client.get("/discover/results?category=business&page=2")
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                let results = try JSONDecoder().decode(DiscoverResults.self, from: response.data)
                #expect(results.page == 2)
                #expect(results.hasMore)
                #expect(results.error == nil)
                #expect(results.query == "category=business")
                #expect(HTMLInspection.count(#"<li class="article""#, in: results.html) == 10)

                // The sample catalogue has 35 articles a category: page 4 is the last, with 5.
                let last = try JSONDecoder().decode(
                    DiscoverResults.self, from: try await client.get("/discover/results?category=business&page=4").data)
                #expect(last.page == 4)
                #expect(!last.hasMore)
                #expect(HTMLInspection.count(#"<li class="article""#, in: last.html) == 5)
            }
        }
    }

    @Test func aSearchFindsArticles() async throws {
        try await withKioskApp { kiosk in
            try await kiosk.run { client, _ in
                let results = try JSONDecoder().decode(
                    DiscoverResults.self, from: try await client.get("/discover/results?q=the").data)
                #expect(results.error == nil)
                #expect(results.query.hasPrefix("q=the"))
                #expect(HTMLInspection.count(#"<li class="article""#, in: results.html) > 0)
            }
        }
    }

    @Test func anArticlesDetailPageOpensAndSetsHomesLastOpened() async throws {
        try await withKioskApp { kiosk in
            try await kiosk.run { client, _ in
                let html = try await client.text("/discover?category=science")
                let links = HTMLInspection.attributeValues("href", in: html).filter { $0.hasPrefix("/discover/articles/") }
                let link = try #require(links.first)
                let detail = try await client.get(link)
                #expect(detail.status == .ok)
                let page = String(buffer: detail.body)
                let title = HTMLInspection.inner(try #require(HTMLInspection.element(id: "article-title", in: page)))
                #expect(!title.isEmpty)
                SecurityHeadersRouteTests.expectNoInlineActiveContent(page, link)
                #expect(try await client.reportOpened(link).status == .noContent)
                let home = try await client.text("/")
                let lastOpened = try #require(HTMLInspection.element(id: "last-opened", in: home))
                #expect(HTMLInspection.inner(lastOpened) == title)
                #expect(lastOpened.contains(#"href="\#(link)""#))
            }
        }
    }

    @Test func withoutAnAPIKeyThePageShowsTheAPIsOwnMessage() async throws {
        try await withKioskApp(newsAPIKey: "") { kiosk in
            try await kiosk.run { client, _ in
                let response = try await client.get("/discover?category=business")
                #expect(response.status == .ok)
                let html = String(buffer: response.body)
                let banner = try #require(HTMLInspection.element(id: "api-error", in: html))
                #expect(!banner.contains(" hidden"))
                #expect(HTMLInspection.inner(banner).hasPrefix("Your API key is missing."))
                #expect(HTMLInspection.count(#"<li class="article""#, in: html) == 0)

                let results = try JSONDecoder().decode(
                    DiscoverResults.self, from: try await client.get("/discover/results?category=business").data)
                #expect(results.error?.hasPrefix("Your API key is missing.") == true)
                #expect(!results.hasMore)
            }
        }
    }

    @Test func aWrongAPIKeyShowsTheAPIsOwnMessage() async throws {
        try await withKioskApp(newsAPIKey: "not-the-key") { kiosk in
            try await kiosk.run { client, _ in
                let html = try await client.text("/discover")
                let banner = try #require(HTMLInspection.element(id: "api-error", in: html))
                #expect(!banner.contains(" hidden"))
                #expect(HTMLInspection.inner(banner).contains("API key"))
            }
        }
    }

    @Test func withoutAnAPIKeyTheSearchBoxSearchesSavedNews() async throws {
        try await withKioskApp(newsAPIKey: "") { kiosk in
            let stored = Entry(
                id: "saved-1", title: "Canal freight rebounds", link: "https://example.com/canal",
                summary: "<p>Shipping through the <b>isthmus</b> recovered in March.</p>")
            try await kiosk.store.saveSourceState(SourceState(entries: [stored]), for: .business)
            try await kiosk.run { client, _ in
                // A word of the summary (HTML stripped) finds it; the page offers no NewsAPI scope.
                let html = try await client.text("/discover?q=isthmus")
                #expect(HTMLInspection.count(#"<li class="article saved""#, in: html) == 1)
                #expect(html.contains("Canal freight rebounds"))
                #expect(!html.contains(#"value="web""#))
                let results = try JSONDecoder().decode(
                    DiscoverResults.self, from: try await client.get("/discover/results?q=isth").data)
                #expect(results.html.contains("/news/business/"))
                #expect(results.query == "q=isth&scope=saved")
                // The hit opens as a News detail, from the store.
                let detail = try await client.get("/news/business/\(StableHash.hex("saved-1"))")
                #expect(detail.status == .ok)
            }
        }
    }

    @Test func withAKeyTheSavedScopeSearchesStoredNews() async throws {
        try await withKioskApp { kiosk in
            let stored = Entry(id: "saved-2", title: "Glacier survey finished", summary: "Ice cores from the plateau.")
            try await kiosk.store.saveSourceState(SourceState(entries: [stored]), for: .environment)
            try await kiosk.run { client, _ in
                let html = try await client.text("/discover?q=plateau&scope=saved")
                #expect(html.contains("Glacier survey finished"))
                #expect(html.contains(#"value="saved" checked"#))
                let web = try await client.text("/discover?q=plateau")
                #expect(!web.contains("Glacier survey finished"))
            }
        }
    }

    /// The saved scope reads the query language of rules: fields, phrases, exclusions, states; a
    /// query that does not read says why (with where), under the box, instead of finding nothing.
    @Test func theSavedScopeReadsTheQueryLanguageAndSaysWhyAQueryDoesNotRead() async throws {
        try await withKioskApp(newsAPIKey: "") { kiosk in
            let entries = [
                Entry(id: "q-1", title: "Storm hits the coast", summary: "Winds of 120 km/h closed the port."),
                Entry(id: "q-2", title: "Port reopens after storm", summary: "Ferries sail again."),
                Entry(id: "q-3", title: "[Sponsored] Storm-proof windows", summary: "Buy now."),
            ]
            try await kiosk.store.saveSourceState(SourceState(entries: entries), for: .business)
            try await kiosk.run { client, _ in
                func titles(_ query: String) async throws -> [String] {
                    let encoded = query.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
                    let results = try JSONDecoder().decode(
                        DiscoverResults.self, from: try await client.get("/discover/results?q=\(encoded)&scope=saved").data)
                    #expect(results.error == nil, "\(query): \(results.error ?? "")")
                    return ["Storm hits the coast", "Port reopens after storm", "[Sponsored] Storm-proof windows"]
                        .filter { results.html.contains($0) }
                }
                #expect(try await titles("storm").count == 3)
                #expect(try await titles("intitle:storm -intitle:/^\\[Sponsored\\]/") == ["Storm hits the coast", "Port reopens after storm"])
                #expect(try await titles("\"closed the port\"") == ["Storm hits the coast"])
                #expect(try await titles("ferries OR winds") == ["Storm hits the coast", "Port reopens after storm"])
                #expect(try await titles("storm -ferries -buy") == ["Storm hits the coast"])
                #expect(try await titles("feed:business is:unread date:P30D").isEmpty == false)
                #expect(try await titles("is:starred").isEmpty)

                let broken = try JSONDecoder().decode(
                    DiscoverResults.self, from: try await client.get("/discover/results?q=%22storm&scope=saved").data)
                #expect(broken.queryError == "This search cannot be read: closing quote missing after position 1.")
                #expect(broken.error == nil)
                // Under the box, where it was typed, and the box says it is invalid.
                let page = try await client.text("/discover?q=%22storm&scope=saved")
                let under = try #require(HTMLInspection.element(id: "query-error", in: page))
                #expect(HTMLInspection.inner(under).contains("closing quote missing after position 1"))
                #expect(!under.contains(" hidden"))
                #expect(page.contains(#"aria-invalid="true""#))
                // The box's help names the language.
                #expect(page.contains("Search tips") && page.contains("date:P7D"))
            }
        }
    }
}
