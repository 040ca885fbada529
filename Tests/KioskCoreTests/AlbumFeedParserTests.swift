import Foundation
import KioskTesting
import Testing
@testable import KioskCore

@Suite struct AlbumFeedParserTests {
    // MARK: - v1

    @Test func v1FixtureReadsAs38AlbumsWithTheFeedHeader() throws {
        let chart = try AlbumFeedParser.parse(Fixture.data("apple_v1_albums.json"))
        #expect(chart.version == .v1)
        #expect(chart.albums.count == 38)
        #expect(chart.title == "Top Albums")
        #expect(chart.copyright == "Copyright © 2018 Apple Inc. Все права защищены.")
        // 2018-09-09T02:00:15.000-07:00: fractional seconds and an offset.
        #expect(chart.updated == Date(timeIntervalSince1970: 1_536_483_615))
    }

    @Test func v1FirstAndLastAlbumsCarryEveryField() throws {
        let albums = try AlbumFeedParser.parse(Fixture.data("apple_v1_albums.json")).albums
        let first = try #require(albums.first)
        #expect(first.id == "1433976640")
        #expect(first.name == "Aura")
        #expect(first.artistName == "Ozuna")
        #expect(first.genres == ["Urbano latino", "Music", "Latino"])
        #expect(first.releaseDate == Date(timeIntervalSince1970: 1_535_068_800))  // 2018-08-24 UTC
        #expect(first.copyright == "℗ 2018 VP Records Corp./Dimelo Vi Dist. by Sony Music Entertainment U.S. Latin LLC")
        #expect(first.isExplicit == false)
        #expect(first.url == "https://itunes.apple.com/us/album/aura/1433976640?app=music")
        #expect(
            first.artworkURL
                == "https://is2-ssl.mzstatic.com/image/thumb/Music128/v4/d7/60/f7/d760f7bf-e2bc-e48e-afcd-b9b562ad4c2f/697691884080.jpg/200x200bb.png"
        )

        let last = try #require(albums.last)
        #expect(last.id == "1269285897")
        #expect(last.name == "Odisea")
        #expect(last.artistName == "Ozuna")
        #expect(last.releaseDate == Date(timeIntervalSince1970: 1_503_619_200))  // 2017-08-25 UTC
        #expect(last.copyright == "℗ 2017 VP Records Corp. Dist. by Sony Music Entertainment U.S. Latin LLC")
    }

    @Test func v1AlbumsKeepTheirOwnCopyrightNotTheFeeds() throws {
        let chart = try AlbumFeedParser.parse(Fixture.data("apple_v1_albums.json"))
        #expect(chart.albums.allSatisfy { $0.copyright != nil && $0.copyright != chart.copyright })
    }

    @Test func v1MinifiedComingSoonDecodesEscapedAmpersandsAndExplicitRatings() throws {
        let chart = try AlbumFeedParser.parse(Fixture.data("apple_v1_coming_soon_raw.json"))
        #expect(chart.version == .v1)
        #expect(chart.title == "Coming Soon")
        #expect(chart.albums.count == 10)
        #expect(chart.updated == Date(timeIntervalSince1970: 1_595_668_313))  // 2020-07-25T02:11:53.000-07:00
        let first = try #require(chart.albums.first)
        #expect(first.name == "B7")
        #expect(first.artistName == "Brandy")
        #expect(first.genres == ["R&B/Soul", "Music"])  // served as R\u0026B
        #expect(first.isExplicit)
        #expect(first.releaseDate == Date(timeIntervalSince1970: 1_596_153_600))  // 2020-07-31 UTC
        #expect(chart.albums.map(\.name).contains("S&M2 (Live)"))
        #expect(chart.albums.filter(\.isExplicit).map(\.name) == ["B7", "Jaguar", "A ROCK", "Normal"])
        let last = try #require(chart.albums.last)
        #expect(last.id == "1517262368")
        #expect(last.name == "Blue Note Re:imagined")
        #expect(last.artistName == "Various Artists")
        #expect(last.releaseDate == Date(timeIntervalSince1970: 1_600_992_000))  // 2020-09-25 UTC
    }

    // MARK: - v2

    @Test func v2FixtureReadsAs100AlbumsWithTheFeedHeader() throws {
        let chart = try AlbumFeedParser.parse(Fixture.data("apple_v2_albums.json"))
        #expect(chart.version == .v2)
        #expect(chart.albums.count == 100)
        #expect(chart.title == "Top Albums")
        #expect(chart.copyright == "Copyright © 2025 Apple Inc. All rights reserved.")
        #expect(chart.updated == Date(timeIntervalSince1970: 1_736_568_852))  // Sat, 11 Jan 2025 04:14:12 +0000
    }

    @Test func v2FirstAndLastAlbumsCarryEveryField() throws {
        let albums = try AlbumFeedParser.parse(Fixture.data("apple_v2_albums.json")).albums
        let first = try #require(albums.first)
        #expect(first.id == "1787022393")
        #expect(first.name == "DeBÍ TiRAR MáS FOToS")
        #expect(first.artistName == "Bad Bunny")
        #expect(first.genres == ["Latin", "Music"])
        #expect(first.releaseDate == Date(timeIntervalSince1970: 1_736_035_200))  // 2025-01-05 UTC
        #expect(first.isExplicit)  // rated "Explict"
        #expect(first.url == "https://music.apple.com/us/album/deb%C3%AD-tirar-m%C3%A1s-fotos/1787022393")
        #expect(
            first.artworkURL
                == "https://is1-ssl.mzstatic.com/image/thumb/Music221/v4/90/5e/7e/905e7ed5-a8fa-a8f3-cd06-0028fdf3afaa/199066342442.jpg/100x100bb.jpg"
        )

        let last = try #require(albums.last)
        #expect(last.id == "1787061597")
        #expect(last.name == "Bloody Bruddas")
        #expect(last.artistName == "Bloodhound Lil Jeff")
        #expect(last.genres == ["Hip-Hop/Rap", "Music", "Electronic"])
        #expect(last.releaseDate == Date(timeIntervalSince1970: 1_735_689_600))  // 2025-01-01 UTC
        #expect(last.url == "https://music.apple.com/us/album/bloody-bruddas/1787061597")
    }

    @Test func v2AlbumsFallBackToTheFeedCopyright() throws {
        let chart = try AlbumFeedParser.parse(Fixture.data("apple_v2_albums.json"))
        #expect(chart.albums.allSatisfy { $0.copyright == "Copyright © 2025 Apple Inc. All rights reserved." })
    }

    @Test func v2MisspeltExplictRatingCountsAsExplicit() throws {
        let albums = try AlbumFeedParser.parse(Fixture.data("apple_v2_albums.json")).albums
        // 78 rows say "Explict", 22 have no rating at all.
        #expect(albums.filter(\.isExplicit).count == 78)
    }

    @Test func v2CompactFixtureReadsBothAlbums() throws {
        let chart = try AlbumFeedParser.parse(Fixture.data("apple_v2_albums_compact.json"))
        #expect(chart.version == .v2)
        #expect(chart.updated == Date(timeIntervalSince1970: 1_730_089_798))  // Mon, 28 Oct 2024 04:29:58 +0000
        #expect(chart.albums.map(\.name) == ["Last Lap", "TAKE CARE"])
        #expect(chart.albums.map(\.artistName) == ["Rod Wave", "BigXthaPlug"])
        #expect(chart.albums.map(\.id) == ["1772368554", "1771890358"])
        #expect(chart.albums.allSatisfy { $0.isExplicit && $0.copyright == "Copyright © 2024 Apple Inc. All rights reserved." })
        #expect(chart.albums.allSatisfy { $0.releaseDate == Date(timeIntervalSince1970: 1_728_604_800) })  // 2024-10-11
    }

    // MARK: - Artwork

    @Test func artworkSizeSwapReplacesTheSizeSegment() throws {
        let v2 = try #require(try AlbumFeedParser.parse(Fixture.data("apple_v2_albums.json")).albums.first)
        #expect(
            v2.artworkURL(size: 600)
                == "https://is1-ssl.mzstatic.com/image/thumb/Music221/v4/90/5e/7e/905e7ed5-a8fa-a8f3-cd06-0028fdf3afaa/199066342442.jpg/600x600bb.jpg"
        )
        let v1 = try #require(try AlbumFeedParser.parse(Fixture.data("apple_v1_albums.json")).albums.first)
        #expect(
            v1.artworkURL(size: 1000)
                == "https://is2-ssl.mzstatic.com/image/thumb/Music128/v4/d7/60/f7/d760f7bf-e2bc-e48e-afcd-b9b562ad4c2f/697691884080.jpg/1000x1000bb.png"
        )
    }

    @Test func artworkSizeSwapHandlesTheNonSquareWickedCover() throws {
        // One v2 cover is served as 100x99bb.jpg.
        let albums = try AlbumFeedParser.parse(Fixture.data("apple_v2_albums.json")).albums
        let wicked = try #require(albums.first { $0.id == "1440802426" })
        #expect(wicked.artworkURL?.hasSuffix("/100x99bb.jpg") == true)
        #expect(wicked.artworkURL(size: 300)?.hasSuffix("/06UMGIM10671.rgb.jpg/300x300bb.jpg") == true)
    }

    @Test func artworkSizeSwapLeavesOtherURLsAlone() {
        let plain = Album(id: "1", name: "a", artworkURL: "https://example.com/cover.jpg")
        #expect(plain.artworkURL(size: 600) == "https://example.com/cover.jpg")
        let sized = Album(id: "1", name: "a", artworkURL: "https://example.com/x/100x100bb.jpg")
        #expect(sized.artworkURL(size: 0) == "https://example.com/x/100x100bb.jpg")
        #expect(Album(id: "1", name: "a").artworkURL(size: 600) == nil)
    }

    // MARK: - Detection and leniency

    @Test func versionIsDetectedFromKindWhenTheFeedHasNoID() throws {
        let v1 = try AlbumFeedParser.parse(Data(#"{"feed":{"copyright":"C","results":[{"id":"1","name":"A","kind":"album"}]}}"#.utf8))
        #expect(v1.version == .v1)
        #expect(v1.albums.first?.copyright == nil)  // v1 never borrows the feed's copyright
        let v2 = try AlbumFeedParser.parse(Data(#"{"feed":{"copyright":"C","results":[{"id":"1","name":"A","kind":"albums"}]}}"#.utf8))
        #expect(v2.version == .v2)
        #expect(v2.albums.first?.copyright == "C")
    }

    @Test func brokenRowsAndFieldsAreSkippedNotFatal() throws {
        let json = #"""
            {"feed": {"title": 7, "updated": "yesterday", "results": [
                null, 42, "album", {"name": "No id"}, {"id": "2"},
                {"id": 3, "name": "  Numeric id  ", "artistName": null, "releaseDate": 20240101,
                 "genres": [null, {"name": "Pop"}, "Rock", {"genreId": "1"}], "contentAdvisoryRating": "Clean",
                 "artworkUrl100": ["x"], "url": ""},
            ]}}
            """#
        let chart = try AlbumFeedParser.parse(Data(json.utf8))
        #expect(chart.title == nil)
        #expect(chart.updated == nil)
        #expect(chart.albums == [Album(id: "3", name: "Numeric id", genres: ["Pop", "Rock"], copyright: nil, isExplicit: false)])
    }

    // MARK: - Bad input

    @Test func nonJSONInputIsATypedNotJSONError() throws {
        #expect(Fixture.seedError { try AlbumFeedParser.parse(Data()) } == .notJSON("the response is empty"))
        #expect(Fixture.seedError { try AlbumFeedParser.parse(Data(" \n\t".utf8)) } == .notJSON("the response is empty"))
        let html = Data("<!DOCTYPE html><html><body>502 Bad Gateway</body></html>".utf8)
        #expect(Fixture.seedError { try AlbumFeedParser.parse(html) } == .notJSON("it is an HTML or XML page"))
        let full = try Fixture.data("apple_v2_albums.json")
        let truncated = full.prefix(full.count / 2)
        #expect(Fixture.seedError { try AlbumFeedParser.parse(truncated) } == .notJSON("it is malformed or cut short"))
    }

    @Test func wrongShapesAreATypedUnexpectedShapeError() throws {
        for json in ["[]", "42", #"{"feed": []}"#, #"{"feed": {"results": 3}}"#, #"{"results": []}"#] {
            let error = Fixture.seedError { try AlbumFeedParser.parse(Data(json.utf8)) }
            guard case .unexpectedShape = error else {
                Issue.record("\(json) gave \(String(describing: error))")
                continue
            }
        }
        let other = try Fixture.data("newsapi_top_headlines.json")
        #expect(
            Fixture.seedError { try AlbumFeedParser.parse(other) }
                == .unexpectedShape("expected an Apple albums feed, an object with a \"feed\"")
        )
    }
}
