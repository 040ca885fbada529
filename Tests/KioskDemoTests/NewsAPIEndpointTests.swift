import Foundation
import KioskCore
import KioskDemo
import Testing

@Suite struct NewsAPIEndpointTests {
    static let keyMissing =
        #"{"status":"error","code":"apiKeyMissing","message":"Your API key is missing. Append this to the URL with the apiKey param, or use the x-api-key HTTP header."}"#
    static let keyInvalid =
        #"{"status":"error","code":"apiKeyInvalid","message":"Your API key is invalid or incorrect. Check your key, or go to https://newsapi.org to create a free API key."}"#
    static let maximumResults =
        #"{"status":"error","code":"maximumResultsReached","message":"You have requested too many results. Developer accounts are limited to a max of 100 results. You are trying to request results 100 to 120. Please upgrade to a paid plan if you need more results."}"#

    @Test func missingKeyIs401WithNewsAPIsMessage() async throws {
        try await DemoHarness.run { demo async throws in
            let fetched = try await demo.get("/newsapi/v2/top-headlines?category=business")
            #expect(fetched.status == 401)
            #expect(fetched.header("content-type")?.hasPrefix("application/json") == true)
            #expect(fetched.text == Self.keyMissing)
            #expect(throws: SeedError.self) { try NewsAPIParser.parse(Data(fetched.body)) }
        }
    }

    @Test func wrongKeyIs401InQueryAndHeader() async throws {
        try await DemoHarness.run { demo async throws in
            let byQuery = try await demo.get("/newsapi/v2/top-headlines?apiKey=nope")
            #expect(byQuery.status == 401)
            #expect(byQuery.text == Self.keyInvalid)
            let byHeader = try await demo.get("/newsapi/v2/everything?q=corona", headers: [("X-Api-Key", "nope")])
            #expect(byHeader.status == 401)
            #expect(byHeader.text == Self.keyInvalid)
        }
    }

    @Test func keyInHeaderWorks() async throws {
        try await DemoHarness.run { demo async throws in
            let fetched = try await demo.get("/newsapi/v2/top-headlines?category=sports", headers: [("X-Api-Key", "demo")])
            #expect(fetched.status == 200)
            #expect(fetched.header("content-type")?.hasPrefix("application/json") == true)
        }
    }

    @Test func pastOneHundredResultsIs426() async throws {
        try await DemoHarness.run { demo async throws in
            let fetched = try await demo.get("/newsapi/v2/top-headlines?category=health&page=6&pageSize=20&apiKey=demo")
            #expect(fetched.status == 426)
            #expect(fetched.text == Self.maximumResults)
            let other = try await demo.get("/newsapi/v2/everything?q=a&page=2&pageSize=60&apiKey=demo")
            #expect(other.status == 426)
            #expect(other.text.contains("results 60 to 120."))
            let lastAllowed = try await demo.get("/newsapi/v2/top-headlines?category=health&page=5&pageSize=20&apiKey=demo")
            #expect(lastAllowed.status == 200)
        }
    }

    @Test func categoriesPageThroughThirtyFiveArticles() async throws {
        try await DemoHarness.run { demo async throws in
            let first = try NewsAPIParser.parse(
                Data(try await demo.get("/newsapi/v2/top-headlines?category=technology&apiKey=demo").body))
            #expect(first.totalResults == 35)
            #expect(first.articles.count == 20)
            let second = try NewsAPIParser.parse(
                Data(try await demo.get("/newsapi/v2/top-headlines?category=technology&page=2&apiKey=demo").body))
            #expect(second.articles.count == 15)
            let small = try NewsAPIParser.parse(
                Data(try await demo.get("/newsapi/v2/top-headlines?category=technology&page=4&pageSize=10&apiKey=demo").body))
            #expect(small.articles.count == 5)
            let titles = (first.articles + second.articles).compactMap(\.title)
            #expect(Set(titles).count == 35)
            let dates = (first.articles + second.articles).compactMap(\.publishedAt)
            #expect(dates == dates.sorted(by: >))
        }
    }

    @Test func everyCategoryHasItsOwnTitles() async throws {
        try await DemoHarness.run { demo async throws in
            var seen: [String: String] = [:]
            for category in ["business", "entertainment", "general", "health", "science", "sports", "technology"] {
                let fetched = try await demo.get("/newsapi/v2/top-headlines?category=\(category)&pageSize=100&apiKey=demo")
                #expect(fetched.status == 200)
                let page = try NewsAPIParser.parse(Data(fetched.body))
                #expect(page.totalResults == 35)
                for title in page.articles.compactMap(\.title) {
                    #expect(seen[title] == nil, "\(title) is in \(category) and \(seen[title] ?? "")")
                    seen[title] = category
                }
            }
            #expect(seen.count == 7 * 35)
        }
    }

    @Test func articlesKeepTheCapturedShapeWithImagesOnThisServer() async throws {
        try await DemoHarness.run { demo async throws in
            let fetched = try await demo.get("/newsapi/v2/top-headlines?category=general&pageSize=100&apiKey=demo")
            // Keys in NewsAPI's own order.
            #expect(fetched.text.hasPrefix(#"{"status":"ok","totalResults":35,"articles":[{"source":{"id":"#))
            let json = try #require(fetched.json)
            #expect(json["status"] as? String == "ok")
            let articles = try #require(json["articles"] as? [[String: Any]])
            let keys: Set = ["source", "author", "title", "description", "url", "urlToImage", "publishedAt", "content"]
            for article in articles {
                #expect(Set(article.keys) == keys)
                let source = try #require(article["source"] as? [String: Any])
                #expect(Set(source.keys) == ["id", "name"])
            }
            // Missing values are null, as NewsAPI sends them.
            #expect(articles.contains { $0["urlToImage"] is NSNull })
            #expect(articles.contains { $0["author"] is NSNull })
            let images = articles.compactMap { $0["urlToImage"] as? String }
            #expect(!images.isEmpty)
            for image in images { #expect(image.hasPrefix(demo.url("/images/news/"))) }
            let path = try #require(images.first?.dropFirst(demo.base.absoluteString.count))
            let png = try await demo.get(String(path))
            #expect(png.status == 200)
            #expect(try PNGCheck.size(png.body) == (600, 400))
        }
    }

    @Test func everythingSearchesTitlesAndDescriptionsIgnoringCase() async throws {
        try await DemoHarness.run { demo async throws in
            let fetched = try await demo.get("/newsapi/v2/everything?q=WIRECARD&pageSize=100&apiKey=demo")
            #expect(fetched.status == 200)
            let page = try NewsAPIParser.parse(Data(fetched.body))
            #expect(page.totalResults > 0)
            #expect(page.totalResults == page.articles.count)
            for article in page.articles {
                let text = ((article.title ?? "") + " " + (article.description ?? "")).lowercased()
                #expect(text.contains("wirecard"))
            }
            // Words match anywhere, all of them: "bund länder" finds "Einigung von Bund und Ländern".
            let words = try NewsAPIParser.parse(Data(try await demo.get("/newsapi/v2/everything?q=bund+l%C3%A4nder&apiKey=demo").body))
            #expect(words.totalResults > 0)
            let none = try NewsAPIParser.parse(Data(try await demo.get("/newsapi/v2/everything?q=zzqx&apiKey=demo").body))
            #expect(none.totalResults == 0)
            #expect(none.articles.isEmpty)
            let missing = try await demo.get("/newsapi/v2/everything?apiKey=demo")
            #expect(missing.status == 400)
            #expect(missing.json?["code"] as? String == "parametersMissing")
        }
    }
}
