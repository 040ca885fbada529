import Foundation
import KioskTesting
import Testing
@testable import KioskCore

@Suite struct FactsParserTests {
    @Test func fixtureIsNotValidUTF8SoAStrictDecodeFails() throws {
        let data = try Fixture.data("facts.json")
        #expect(!TextDecoding.isValidUTF8([UInt8](data)))
        #expect(data.contains(0xC9))
        #expect(throws: (any Error).self) { try JSONSerialization.jsonObject(with: data) }
    }

    @Test func fixtureReadsAs13RowsWithTheAllNullRowSkipped() throws {
        let sheet = try FactsParser.parse(Fixture.data("facts.json"))
        #expect(sheet.title == "About Canada")
        #expect(sheet.rows.count == 13)
        #expect(!sheet.rows.contains(Fact()))
        #expect(
            sheet.rows.map(\.title) == [
                "Beavers", "Flag", "Transportation", "Hockey Night in Canada", "Eh", "Housing", "Public Shame",
                "Space Program", "Meese", "Geography", "Kittens...", "Mounties", "Language",
            ]
        )
    }

    @Test func firstAndLastRowsCarryTheirFields() throws {
        let rows = try FactsParser.parse(Fixture.data("facts.json")).rows
        let first = try #require(rows.first)
        #expect(first.title == "Beavers")
        #expect(first.description?.hasPrefix("Beavers are second only to humans") == true)
        #expect(first.description?.hasSuffix("A group of beavers is called a colony") == true)
        #expect(
            first.imageURL
                == "http://upload.wikimedia.org/wikipedia/commons/thumb/6/6b/American_Beaver.jpg/220px-American_Beaver.jpg"
        )
        #expect(rows.last == Fact(title: "Language", description: "Nous parlons tous les langues importants.", imageURL: nil))
    }

    @Test func missingFieldsStayNil() throws {
        let rows = try FactsParser.parse(Fixture.data("facts.json")).rows
        let flag = try #require(rows.first { $0.title == "Flag" })
        #expect(flag.description == nil)
        #expect(flag.imageURL == "http://images.findicons.com/files/icons/662/world_flag/128/flag_of_canada.png")
        #expect(rows.filter { $0.imageURL == nil }.compactMap(\.title) == ["Eh", "Geography", "Language"])
    }

    @Test func latin1ByteInTheKittensRowReadsAsEAcute() throws {
        let rows = try FactsParser.parse(Fixture.data("facts.json")).rows
        let kittens = try #require(rows.first { $0.title == "Kittens..." })
        #expect(kittens.description == "Éare illegal. Cats are fine.")
        #expect(kittens.imageURL == "http://www.donegalhimalayans.com/images/That%20fish%20was%20this%20big.jpg")
    }

    @Test func leadingSpaceInADescriptionIsTrimmed() throws {
        let rows = try FactsParser.parse(Fixture.data("facts.json")).rows
        let shame = try #require(rows.first { $0.title == "Public Shame" })
        #expect(shame.description == "Sadly it's true.")
    }

    @Test func emptyStringsCountAsMissingAndBlankRowsAreSkipped() throws {
        let json = #"""
            {"title": " Facts ", "rows": [
                {"title": "", "description": "  ", "imageHref": ""},
                {"title": null},
                {},
                "not a row", 12, null,
                {"title": 5, "description": ["x"], "imageHref": "http://e.com/a.png"},
                {"title": "Kept", "description": "", "imageHref": null}
            ]}
            """#
        let sheet = try FactsParser.parse(Data(json.utf8))
        #expect(sheet.title == "Facts")
        #expect(sheet.rows == [Fact(imageURL: "http://e.com/a.png"), Fact(title: "Kept")])
    }

    @Test func badInputIsATypedError() throws {
        #expect(Fixture.seedError { try FactsParser.parse(Data()) } == .notJSON("the response is empty"))
        #expect(Fixture.seedError { try FactsParser.parse(Data("<html></html>".utf8)) } == .notJSON("it is an HTML or XML page"))
        let full = try Fixture.data("facts.json")
        #expect(Fixture.seedError { try FactsParser.parse(full.dropLast(40)) } == .notJSON("it is malformed or cut short"))
        let noRows = SeedError.unexpectedShape("expected a facts feed, an object with a \"rows\" list")
        #expect(Fixture.seedError { try FactsParser.parse(Data(#"{"title": "About Canada"}"#.utf8)) } == noRows)
        #expect(Fixture.seedError { try FactsParser.parse(Data(#"{"rows": {"title": "x"}}"#.utf8)) } == noRows)
        #expect(Fixture.seedError { try FactsParser.parse(Data("[]".utf8)) } == noRows)
    }
}
