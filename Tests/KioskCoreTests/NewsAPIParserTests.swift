import Foundation
import KioskTesting
import Testing
@testable import KioskCore

@Suite struct NewsAPIParserTests {
    @Test func topHeadlinesFixtureReads20Of34Articles() throws {
        let page = try NewsAPIParser.parse(Fixture.data("newsapi_top_headlines.json"))
        #expect(page.totalResults == 34)
        #expect(page.articles.count == 20)
    }

    @Test func firstArticleCarriesEveryField() throws {
        let first = try #require(try NewsAPIParser.parse(Fixture.data("newsapi_top_headlines.json")).articles.first)
        #expect(first.sourceID == nil)
        #expect(first.sourceName == "t-online.de")
        #expect(first.author == "dpa")
        #expect(first.title == "Bundesregierung stuft Polen ab Sonntag als Hochinzidenzgebiet ein - t-online.de")
        #expect(first.description?.hasPrefix("Die Bundesregierung hat wegen hoher Infektionszahlen") == true)
        #expect(
            first.url
                == "https://www.t-online.de/nachrichten/deutschland/id_89692490/ab-sonntag-bundesregierung-stuft-polen-als-hochinzidenzgebiet-ein.html"
        )
        #expect(first.urlToImage?.hasPrefix("https://bilder.t-online.de/b/89/69/25/26/id_89692526/") == true)
        #expect(first.publishedAt == Date(timeIntervalSince1970: 1_616_183_782))  // 2021-03-19T19:56:22Z
        // Content is kept as NewsAPI cut it: no-break space, CRLF and the marker included.
        #expect(first.content?.contains("Corona-Test erlaubt.\u{A0}\r\nWegen stark ste") == true)
        #expect(first.content?.hasSuffix("… [+3374 chars]") == true)
    }

    @Test func nullAndEmptyFieldsAreNil() throws {
        let articles = try NewsAPIParser.parse(Fixture.data("newsapi_top_headlines.json")).articles
        let zeit = try #require(articles.first { $0.sourceID == "die-zeit" })
        #expect(zeit.sourceName == "Die Zeit")
        #expect(zeit.author == nil)
        #expect(zeit.description == nil)  // given as ""
        #expect(zeit.urlToImage == nil)
        #expect(zeit.publishedAt == Date(timeIntervalSince1970: 1_616_177_327))  // 2021-03-19T18:08:47Z
    }

    @Test func lastArticleIsTheWeltOne() throws {
        let last = try #require(try NewsAPIParser.parse(Fixture.data("newsapi_top_headlines.json")).articles.last)
        #expect(last.sourceName == "DIE WELT")
        #expect(last.author == "WELT")
        #expect(last.title == "AstraZeneca: Mit Kretschmann ließ sich der erste Ministerpräsident impfen - WELT")
        #expect(last.publishedAt == Date(timeIntervalSince1970: 1_616_163_072))  // 2021-03-19T14:11:12Z
    }

    @Test func removedArticlesAreDropped() throws {
        // The fixture predates NewsAPI's "[Removed]" placeholders, so this one is synthetic.
        let json = #"""
            {"status": "ok", "totalResults": 3, "articles": [
                {"source": {"id": null, "name": "[Removed]"}, "author": null, "title": "[Removed]",
                 "description": "[Removed]", "url": "https://removed.com", "urlToImage": null,
                 "publishedAt": "1970-01-01T00:00:00Z", "content": "[Removed]"},
                {"source": {"id": "bbc-news", "name": "BBC News"}, "title": "Kept", "publishedAt": "2024-01-02T03:04:05Z"},
                {"title": "[Removed]"}
            ]}
            """#
        let page = try NewsAPIParser.parse(Data(json.utf8))
        #expect(page.totalResults == 3)
        #expect(page.articles == [
            Article(sourceID: "bbc-news", sourceName: "BBC News", title: "Kept", publishedAt: Date(timeIntervalSince1970: 1_704_164_645))
        ])
    }

    @Test func invalidKeyErrorSurfacesTheAPIMessageExactly() throws {
        let message = "Your API key is invalid or incorrect. Check your key, or go to https://newsapi.org to create a free API key."
        let error = Fixture.seedError { try NewsAPIParser.parse(try Fixture.data("newsapi_error.json")) }
        #expect(error == .newsAPI(NewsAPIError(code: "apiKeyInvalid", message: message)))
        #expect(error?.apiMessage == message)
        #expect(error?.description == message)
        #expect(error?.localizedDescription == message)
    }

    @Test func missingKeyErrorSurfacesTheAPIMessageExactly() throws {
        let message = "Your API key is missing. Append this to the URL with the apiKey param, or use the x-api-key HTTP header."
        let error = Fixture.seedError { try NewsAPIParser.parse(try Fixture.data("newsapi_error_apikey_missing.json")) }
        #expect(error == .newsAPI(NewsAPIError(code: "apiKeyMissing", message: message)))
        #expect(error?.description == message)
    }

    @Test func maximumResultsErrorSurfacesTheAPIMessageExactly() throws {
        let message =
            "You have requested too many results. Developer accounts are limited to a max of 100 results. You are trying to request results 100 to 120. Please upgrade to a paid plan if you need more results."
        let error = Fixture.seedError { try NewsAPIParser.parse(try Fixture.data("newsapi_error_max_results.json")) }
        #expect(error == .newsAPI(NewsAPIError(code: "maximumResultsReached", message: message)))
        #expect(NewsAPIError(code: "maximumResultsReached", message: message).description == message)
    }

    @Test func errorWithoutAMessageStillExplainsItself() {
        let error = Fixture.seedError { try NewsAPIParser.parse(Data(#"{"status": "error", "code": "rateLimited"}"#.utf8)) }
        #expect(error == .newsAPI(NewsAPIError(code: "rateLimited", message: "NewsAPI reported an error (rateLimited)")))
    }

    @Test func wrongTypesCostOnlyTheirField() throws {
        let json = #"""
            {"status": "ok", "totalResults": "7", "articles": [
                null, "x", 3,
                {"source": "BBC", "author": 12, "title": ["t"], "url": "https://e.com/a", "publishedAt": 0, "content": "  "},
            ]}
            """#
        let page = try NewsAPIParser.parse(Data(json.utf8))
        #expect(page.totalResults == 7)
        #expect(page.articles == [Article(url: "https://e.com/a")])
        let noTotal = try NewsAPIParser.parse(Data(#"{"articles": [{"title": "a"}, {"title": "b"}]}"#.utf8))
        #expect(noTotal.totalResults == 2)
    }

    @Test func badInputIsATypedError() throws {
        #expect(Fixture.seedError { try NewsAPIParser.parse(Data()) } == .notJSON("the response is empty"))
        let html = Data("<html><head><title>429 Too Many Requests</title></head></html>".utf8)
        #expect(Fixture.seedError { try NewsAPIParser.parse(html) } == .notJSON("it is an HTML or XML page"))
        let full = try Fixture.data("newsapi_top_headlines.json")
        #expect(Fixture.seedError { try NewsAPIParser.parse(full.prefix(500)) } == .notJSON("it is malformed or cut short"))
        #expect(
            Fixture.seedError { try NewsAPIParser.parse(Data(#"{"status": "ok"}"#.utf8)) }
                == .unexpectedShape("expected a NewsAPI response with an \"articles\" list")
        )
        #expect(
            Fixture.seedError { try NewsAPIParser.parse(Data(#"{"articles": {}}"#.utf8)) }
                == .unexpectedShape("expected a NewsAPI response with an \"articles\" list")
        )
        #expect(
            Fixture.seedError { try NewsAPIParser.parse(Data("[1, 2]".utf8)) }
                == .unexpectedShape("expected a NewsAPI response, an object with \"articles\"")
        )
    }
}
