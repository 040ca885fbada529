import Foundation
import Testing

@testable import KioskCore

/// The pull reader of JSON that the JSON Feed and seed parsers stand on: JSON's grammar, the
/// lenient corners feeds need, typed errors with where they happened, and a nesting limit that
/// skipping respects without recursing.
@Suite struct JSONReaderTests {
    private func reading<T>(_ text: String, maxDepth: Int = 64, _ body: (inout JSONReader) throws(JSONReaderError) -> T)
        throws(JSONReaderError) -> T
    {
        let bytes = Array(text.utf8)
        return try bytes.withUnsafeBufferPointer { (buffer) throws(JSONReaderError) -> T in
            var reader = JSONReader(buffer, maxDepth: maxDepth)
            let value = try body(&reader)
            try reader.finish()
            return value
        }
    }

    private func failure(_ text: String, maxDepth: Int = 64) -> JSONReaderError? {
        do {
            try reading(text, maxDepth: maxDepth) { (reader) throws(JSONReaderError) in try reader.skipValue() }
            return nil
        } catch {
            return error
        }
    }

    @Test func membersAreReadInOrderAndTheRestSkipped() throws {
        let json = #"{"a": 1, "skip": {"deep": [1, 2, {"x": null}], "s": "}]\""}, "b": "two", "c": [true, false, null]}"#
        var seen: [String] = []
        var b: String?
        var c: [Bool?] = []
        try reading(json) { (reader) throws(JSONReaderError) in
            try reader.readObject { (reader, name) throws(JSONReaderError) in
                seen.append(name)
                switch name {
                case "b": b = try reader.readString()
                case "c":
                    try reader.readArray { (reader) throws(JSONReaderError) in
                        if try reader.nextKind() == .null {
                            try reader.readNull()
                            c.append(nil)
                        } else {
                            c.append(try reader.readBool())
                        }
                    }
                default: try reader.skipValue()
                }
            }
        }
        #expect(seen == ["a", "skip", "b", "c"])
        #expect(b == "two")
        #expect(c == [true, false, nil])
    }

    @Test(arguments: [
        (#""plain""#, "plain"),
        (#""a\"b\\c\/d\b\f\n\r\t""#, "a\"b\\c/d\u{8}\u{C}\n\r\t"),
        (#""\u00e9\u20AC""#, "é€"),
        (#""\ud83d\ude00""#, "😀"),
        (#""lone \ud83d here""#, "lone \u{FFFD} here"),
        (#""low \ude00 first""#, "low \u{FFFD} first"),
        (#""pair broken \ud83d\u0041""#, "pair broken \u{FFFD}A"),
        ("\"caf\u{E9} raw\"", "café raw"),
    ])
    func stringsAreDecoded(_ json: String, _ expected: String) throws {
        #expect(try reading(json) { (reader) throws(JSONReaderError) in try reader.readString() } == expected)
    }

    @Test func numbersKeepTheirTextAndTellWholeFromNot() throws {
        let numbers = try reading("[0, -12, 3.5, 1e3, -2.5E-2, 12345678901234]") { (reader) throws(JSONReaderError) in
            var list: [JSONReader.Number] = []
            try reader.readArray { (reader) throws(JSONReaderError) in list.append(try reader.readNumber()) }
            return list
        }
        #expect(numbers.map(\.text) == ["0", "-12", "3.5", "1e3", "-2.5E-2", "12345678901234"])
        #expect(numbers.map(\.isWhole) == [true, true, false, false, false, true])
        #expect(numbers.map(\.value) == [0, -12, 3.5, 1000, -0.025, 12_345_678_901_234])
    }

    @Test func trailingCommasAreTolerated() throws {
        #expect(failure(#"[1, 2, ]"#) == nil)
        #expect(failure(#"{"a": 1,}"#) == nil)
        #expect(failure(#"[{"a": [1,],},]"#) == nil)
    }

    @Test(arguments: [
        (#"{"a" 1}"#, 5), (#"[1 2]"#, 3), (#"{"a": 1"#, 7), (#""open"#, 5), ("[01x]", 3), ("[tru]", 1),
        (#"{"a": 1} x"#, 9), ("[1e400]", 1), (#"["\q"]"#, 3), ("[-]", 2), ("", 0), ("{,}", 1),
    ])
    func malformedInputSaysWhere(_ json: String, _ offset: Int) {
        guard case .malformed(let why, let at) = failure(json) else {
            Issue.record("\(json): no error")
            return
        }
        #expect(at == offset, "\(json): \(why)")
        #expect(why.hasPrefix("expected "))
    }

    /// 100,000 levels are refused at the limit, by reading and by skipping alike, without
    /// recursing into them (a recursive skip would overflow the stack long before).
    @Test func nestingPastTheLimitIsRefusedWithoutRecursion() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(failure(deep, maxDepth: 256) == .tooDeep(limit: 256))
        let objects = String(repeating: #"{"a":"#, count: 300) + "1" + String(repeating: "}", count: 300)
        #expect(failure(objects, maxDepth: 256) == .tooDeep(limit: 256))
        #expect(failure(String(repeating: "[", count: 256) + String(repeating: "]", count: 256), maxDepth: 256) == nil)
    }

    @Test func positionsCountLinesAndCharacters() {
        let bytes = Array("{\n  \"é\": x".utf8)
        let offset = bytes.count - 1
        #expect(JSONReader.position(of: offset, in: bytes) == (line: 2, column: 8))
    }

    // MARK: - JSON Feed over the reader

    /// Everything past the first `maxEntries` items is skipped where it lies, and a feed whose
    /// home page comes after its items still resolves their links against it.
    @Test func aFeedIsReadInOnePassWhateverTheOrderOfItsMembers() throws {
        let items = (1...5).map { #"{"id": \#($0), "url": "/\#($0)", "title": " T\#($0) ", "extra": {"x": [1, {}]}}"# }
        let json = #"{"items": [\#(items.joined(separator: ","))], "version": "https://jsonfeed.org/version/1.1", "home_page_url": "https://example.org/"}"#
        let feed = try FeedParser.parse(Array(json.utf8), limits: ParserLimits(maxEntries: 3))
        #expect(feed.format == .jsonFeed11)
        #expect(feed.entries.map(\.id) == ["1", "2", "3"])
        #expect(feed.entries.map(\.link) == ["https://example.org/1", "https://example.org/2", "https://example.org/3"])
        #expect(feed.entries.first?.title == "T1")
    }

    @Test func jsonFeedErrorsStayTyped() {
        #expect(throws: FeedError.notAFeed("JSON that is not an object")) { try FeedParser.parse(Array("[1, 2]".utf8)) }
        #expect(throws: FeedError.notAFeed("JSON that is not a JSON Feed")) { try FeedParser.parse(Array(#"{"a": 1}"#.utf8)) }
        #expect(throws: FeedError.tooDeep(limit: 256)) {
            try FeedParser.parse(Array((#"{"items": "# + String(repeating: "[", count: 5_000)).utf8))
        }
        do {
            _ = try FeedParser.parse(Array("{\"items\": [\n  {\"id\": 1,,}]}".utf8))
            Issue.record("a double comma was read")
        } catch {
            guard case .malformed(_, let line, let column) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(line == 2 && column == 12)
        }
    }

    /// A document of nothing but empty objects (main's worst case: 65 times its size in memory)
    /// reads as a feed of that many empty entries, capped, without building the rest.
    @Test func millionsOfEmptyObjectsCostOnlyTheEntriesKept() throws {
        let json = #"{"version": "https://jsonfeed.org/version/1", "items": [{}"# + String(repeating: ",{}", count: 999_999) + "]}"
        let feed = try FeedParser.parse(Array(json.utf8), limits: .polled)
        #expect(feed.entries.count == 1_000)
    }
}
