import Foundation
import Testing
@testable import KioskSources

@Suite struct SourceCatalogueTests {
    @Test func liveDefaultsAreTheSeedSources() {
        let live = SourceCatalogue.live(newsAPIKey: "k")
        #expect(live.feeds.map(\.id) == [.business, .entertainment, .environment])
        #expect(live.feeds.allSatisfy { $0.interval == .seconds(5) })
        #expect(live.feeds.first?.url.absoluteString == "http://feeds.reuters.com/reuters/businessNews")
        #expect(live.albumsURL?.absoluteString.contains("/api/v2/") == true)  // Apple's feed moved to v2
        #expect(live.newsAPI.apiKey == "k")
        #expect(live.newsAPI.pageSize == 10)
        #expect(live.merged == [SourceCatalogue.entertainmentAndEnvironment])
        #expect(SourceCatalogue.entertainmentAndEnvironment.parts == [.entertainment, .environment])
    }

    @Test func theConfigFileOverridesAnyURLAndAddsFeeds() throws {
        let json = """
            {"feeds": [{"id": "business", "url": "https://example.org/business.rss", "intervalSeconds": 30},
                       {"id": "my-blog", "name": "My blog", "url": "https://blog.example/feed.json",
                        "headers": {"Authorization": "Bearer x"}}],
             "factsURL": "https://example.org/facts.json", "albumsURL": "https://example.org/albums.json",
             "newsAPIBaseURL": "https://news.example/v2", "newsAPIPageSize": 500,
             "jokesURL": "https://jokes.example/api/joke"}
            """
        let overrides = try JSONDecoder().decode(SourceOverrides.self, from: Data(json.utf8))
        let catalogue = overrides.apply(to: .live(newsAPIKey: nil))
        #expect(catalogue.feeds.map(\.id) == [.business, .entertainment, .environment, "my-blog"])
        #expect(catalogue.feeds[0].url.absoluteString == "https://example.org/business.rss")
        #expect(catalogue.feeds[0].name == "Business")  // what the override does not set stays
        #expect(catalogue.feeds[0].interval == .seconds(30))
        #expect(catalogue.feeds[3].name == "My blog")
        #expect(catalogue.feeds[3].interval == .seconds(5))
        #expect(catalogue.feeds[3].headers == ["Authorization": "Bearer x"])
        #expect(catalogue.factsURL?.host == "example.org")
        #expect(catalogue.albumsURL?.path == "/albums.json")
        #expect(catalogue.newsAPI.baseURL?.host == "news.example")
        #expect(catalogue.newsAPI.pageSize == 100)  // NewsAPI's own maximum
        #expect(catalogue.jokesURL?.host == "jokes.example")
    }

    @Test func aSourceOfAKindKioskDoesNotReadIsNamedAtStart() throws {
        let catalogue = SourceCatalogue.live(newsAPIKey: nil)
        #expect(catalogue.unknownKind() == nil)
        let json = #"{"feeds": [{"id": "notes", "url": "https://notes.example/a.txt", "kind": "lnes"}]}"#
        let overrides = try JSONDecoder().decode(SourceOverrides.self, from: Data(json.utf8))
        let configured = overrides.apply(to: catalogue)
        #expect(configured.feeds.last?.kind == "lnes")
        #expect(
            configured.unknownKind()
                == #"the source "notes" is of kind "lnes", which is none of the kinds Kiosk reads ("feed")"#)
    }

    @Test func anEmptyOverrideChangesNothing() throws {
        let overrides = try JSONDecoder().decode(SourceOverrides.self, from: Data("{}".utf8))
        #expect(overrides.apply(to: .live(newsAPIKey: nil)) == .live(newsAPIKey: nil))
    }
}
