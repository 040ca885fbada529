import Foundation
import KioskCore
import KioskDemo
import Testing

@Suite struct PayloadEndpointTests {
    @Test func factsAreTheOriginalLatin1BytesWithImagesOnThisServer() async throws {
        try await DemoHarness.run { demo async throws in
            let fetched = try await demo.get("/facts.json")
            #expect(fetched.status == 200)
            #expect(fetched.header("content-type") == "application/json")
            #expect(fetched.body.contains(0xC9))  // Latin-1 É, not UTF-8
            #expect(String(validating: fetched.body, as: UTF8.self) == nil)
            let sheet = try FactsParser.parse(Data(fetched.body))
            #expect(sheet.rows.count == 13)
            let images = sheet.rows.compactMap(\.imageURL)
            #expect(images.count == 10)
            // Every image is served here; one stays broken on purpose, as in the real feed.
            #expect(images.allSatisfy { $0.hasPrefix(demo.url("/images/")) })
            var served = 0
            for image in images {
                let path = String(image.dropFirst(demo.url("").count))
                if try await demo.get(path).status == 200 { served += 1 }
            }
            #expect(served == 9)
        }
    }

    @Test func albumsPointEveryArtworkAtThisServer() async throws {
        try await DemoHarness.run { demo async throws in
            let fetched = try await demo.get(DemoSource.albums.path)
            #expect(fetched.status == 200)
            #expect(fetched.header("content-type")?.hasPrefix("application/json") == true)
            let chart = try AlbumFeedParser.parse(Data(fetched.body))
            #expect(chart.albums.count == 100)
            let prefix = demo.url("/images/artwork/")
            for album in chart.albums {
                #expect(album.artworkURL == "\(prefix)\(album.id)/100x100bb.png")
            }
            #expect(!fetched.text.contains("mzstatic.com"))
            // Swapping the size segment asks this server for a larger image.
            let first = try #require(chart.albums.first?.artworkURL)
            let large = first.replacingOccurrences(of: "100x100bb", with: "600x600bb").dropFirst(demo.base.absoluteString.count)
            let image = try await demo.get(String(large))
            #expect(image.status == 200)
            #expect(try PNGCheck.size(image.body) == (600, 600))
        }
    }

    @Test func imagesAreValidPNGsOfTheAskedSize() async throws {
        try await DemoHarness.run { demo async throws in
            let fetched = try await demo.get("/images/artwork/1787022393/120x80bb.png")
            #expect(fetched.status == 200)
            #expect(fetched.header("content-type") == "image/png")
            #expect(fetched.header("cache-control") == "public, max-age=86400")
            #expect(Array(fetched.body.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            #expect(try PNGCheck.size(fetched.body) == (120, 80))
            try PNGCheck.validate(fetched.body)

            let again = try await demo.get("/images/artwork/1787022393/120x80bb.png")
            #expect(again.body == fetched.body)
            let other = try await demo.get("/images/artwork/42/120x80bb.png")
            #expect(other.body != fetched.body)
        }
    }

    @Test func imageSidesAreCappedAndBadSizesAreNotFound() async throws {
        try await DemoHarness.run { demo async throws in
            let huge = try await demo.get("/images/news/3/5000x20bb.png")
            #expect(huge.status == 200)
            #expect(try PNGCheck.size(huge.body) == (1200, 20))
            try PNGCheck.validate(huge.body)
            for path in ["/images/news/3/0x20bb.png", "/images/news/3/axbbb.png", "/images/news/3/20x20.jpg", "/images/news/20x20bb.png"] {
                #expect(try await demo.get(path).status == 404, "\(path)")
            }
        }
    }

    @Test func unknownPathsAreNotFound() async throws {
        try await DemoHarness.run { demo async throws in
            #expect(try await demo.get("/").status == 404)
            #expect(try await demo.get("/reuters/sports.xml").status == 404)
        }
    }

    @Test func headAnswersHeadersWithoutABody() async throws {
        try await DemoHarness.run { demo async throws in
            let full = try await demo.get("/facts.json")
            let fetched = try await demo.get("/facts.json", method: .HEAD)
            #expect(fetched.status == 200)
            #expect(fetched.body.isEmpty)
            #expect(fetched.header("content-length") == String(full.body.count))
        }
    }
}
