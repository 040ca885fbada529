import Foundation
import KioskTesting
import Testing
@testable import KioskCore

@Suite struct CategoryListParserTests {
    @Test func fixtureHasExactlyOneTrailingComma() throws {
        // Strict JSON readers (Darwin's JSONSerialization) refuse it; the seed reader takes it.
        let text = String(decoding: try Fixture.data("toralarm_categories.json"), as: UTF8.self)
        #expect(text.matches(of: /,\s*[\]}]/).count == 1)
    }

    @Test func fixtureReadsAsTheSevenCategoriesInOrder() throws {
        let categories = try CategoryListParser.parse(Fixture.data("toralarm_categories.json"))
        #expect(categories == ["business", "entertainment", "general", "health", "science", "sports", "technology"])
    }

    @Test func trailingCommasAreToleratedInListsAndObjects() throws {
        let json = "[\n {\"id\": \"a\", \"name\": \"A\",\n },\n \"b\" ,\r\n\t]"
        #expect(try CategoryListParser.parse(Data(json.utf8)) == ["a", "b"])
    }

    @Test func commasInsideStringsAreLeftAlone() throws {
        let json = #"[{"id": "a,]"}, {"id": "b\",}"}, "c\\",]"#
        #expect(try CategoryListParser.parse(Data(json.utf8)) == ["a,]", "b\",}", "c\\"])
    }

    @Test func entriesWithoutAnIdAreSkipped() throws {
        let json = #"[{"name": "Nameless"}, {"id": null}, {"id": 3}, null, 7, {"id": " health "}]"#
        #expect(try CategoryListParser.parse(Data(json.utf8)) == ["health"])
    }

    @Test func badInputIsATypedError() throws {
        #expect(Fixture.seedError { try CategoryListParser.parse(Data()) } == .notJSON("the response is empty"))
        #expect(Fixture.seedError { try CategoryListParser.parse(Data("<html/>".utf8)) } == .notJSON("it is an HTML or XML page"))
        let full = try Fixture.data("toralarm_categories.json")
        #expect(Fixture.seedError { try CategoryListParser.parse(full.prefix(100)) } == .notJSON("it is malformed or cut short"))
        let missingComma = Data(#"[{"id": "a"} {"id": "b"}]"#.utf8)
        #expect(Fixture.seedError { try CategoryListParser.parse(missingComma) } == .notJSON("it is malformed or cut short"))
        #expect(Fixture.seedError { try CategoryListParser.parse(Data("[1,,2]".utf8)) } == .notJSON("it is malformed or cut short"))
        let notAList = SeedError.unexpectedShape("expected a list of categories")
        #expect(Fixture.seedError { try CategoryListParser.parse(Data(#"{"categories": []}"#.utf8)) } == notAList)
        #expect(Fixture.seedError { try CategoryListParser.parse(Data(#""business""#.utf8)) } == notAList)
    }
}
