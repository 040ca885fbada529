import Foundation
import Testing
@testable import KioskCore

/// What every seed parser shares: the lenient JSON reading and the typed errors' messages.
@Suite struct SeedFormatTests {
    @Test func trailingCommaRemovalLeavesValidJSONByteForByte() throws {
        for name in ["apple_v1_albums.json", "apple_v2_albums.json", "newsapi_top_headlines.json", "facts.json"] {
            let bytes = try [UInt8](Fixture.data(name))
            #expect(SeedJSON.removingTrailingCommas(bytes) == bytes, "\(name)")
        }
    }

    @Test func utf8ByteOrderMarkIsIgnored() throws {
        let data = Data([0xEF, 0xBB, 0xBF] + Array(#"{"content": "Ha"}"#.utf8))
        #expect(try JokeParser.parse(data) == Joke(content: "Ha"))
    }

    @Test func latin1FallbackAppliesToEverySource() throws {
        // A Latin-1 é (0xE9) in an otherwise ASCII body.
        let data = Data(Array(#"{"content": "caf"#.utf8) + [0xE9] + Array(#""}"#.utf8))
        #expect(try JokeParser.parse(data) == Joke(content: "café"))
    }

    @Test func hostileNestingIsAnErrorNotACrash() {
        let deep = Data((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8)
        #expect(Fixture.seedError { try CategoryListParser.parse(deep) } == .notJSON("it is malformed or cut short"))
    }

    @Test func numbersAndBooleansAreToldApart() throws {
        // JSONSerialization hands back both as NSNumber; 1 must not read as true, nor true as 1.
        #expect(try JokeParser.parse(Data(#"{"error": 1, "content": "Ha"}"#.utf8)) == Joke(content: "Ha"))
        let page = try NewsAPIParser.parse(Data(#"{"totalResults": true, "articles": [{"title": "a"}]}"#.utf8))
        #expect(page.totalResults == 1)  // the bool is ignored, the count stands in
        #expect(SeedJSON(foundation: NSNumber(value: 1)) == .number(1))
        #expect(SeedJSON(foundation: NSNumber(value: true)) == .bool(true))
    }

    @Test func anUnrepresentableNumberIsATypedError() {
        let data = Data(#"{"totalResults": 1e400, "articles": []}"#.utf8)
        #expect(Fixture.seedError { try NewsAPIParser.parse(data) } == .notJSON("it is malformed or cut short"))
    }

    @Test func errorsReadAsSentences() {
        #expect(SeedError.notJSON("the response is empty").description == "The response is not JSON: the response is empty.")
        #expect(
            SeedError.unexpectedShape("expected a list of categories").localizedDescription
                == "The response is not in the expected format: expected a list of categories."
        )
        #expect(SeedError.notJSON("x").apiMessage == nil)
        #expect(SeedError.newsAPI(NewsAPIError(code: nil, message: "Quota")).description == "Quota")
    }
}
