import Foundation
import KioskTesting
import Testing
@testable import KioskCore

/// What every seed parser shares: the lenient JSON reading and the typed errors' messages.
@Suite struct SeedFormatTests {
    /// The reader of our own reads every fixture exactly as Foundation's JSONSerialization does.
    @Test func theReaderAgreesWithJSONSerializationOnEveryFixture() throws {
        for name in ["apple_v1_albums.json", "apple_v2_albums.json", "newsapi_top_headlines.json", "facts.json",
            "switter_joke.json", "newsapi_error.json"]
        {
            let data = try Fixture.data(name)
            // Both from the same text: the seed reader decodes stray Latin-1 first (facts.json has some).
            let text = Data(TextDecoding.utf8Bytes([UInt8](data)))
            let foundation = try JSONSerialization.jsonObject(with: text, options: [.fragmentsAllowed])
            #expect(try SeedJSON.parse(data) == SeedJSON(foundation: foundation), "\(name)")
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
        #expect(try SeedJSON.parse(Data("1".utf8)) == .number(1))
        #expect(try SeedJSON.parse(Data("true".utf8)) == .bool(true))
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

extension SeedJSON {
    /// What JSONSerialization's tree reads as: the reference the reader is compared with.
    init(foundation value: Any) {
        switch value {
        case let string as String:
            self = .string(string)
        case let object as [String: Any]:
            self = .object(object.mapValues(SeedJSON.init(foundation:)))
        case let array as [Any]:
            self = .array(array.map(SeedJSON.init(foundation:)))
        case let number as NSNumber:
            // JSON true/false come back as NSNumber too, flagged by the C type `c` (char).
            self = number.objCType.pointee == CChar(UInt8(ascii: "c")) ? .bool(number.boolValue) : .number(number.doubleValue)
        default:
            self = .null
        }
    }
}
