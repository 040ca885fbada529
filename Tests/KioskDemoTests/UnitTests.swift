import Foundation
import Testing
@testable import KioskDemo

/// The small pure pieces, checked against known values.
@Suite struct UnitTests {
    @Test func checksumsMatchKnownValues() {
        #expect(CRC32.checksum(Array("IEND".utf8)) == 0xAE42_6082)
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(Adler32.checksum(Array("Wikipedia".utf8)) == 0x11E6_0398)
    }

    @Test func storedZlibSplitsLargeDataIntoBlocks() {
        let data = [UInt8](repeating: 7, count: 70_000)
        let stream = PNGEncoder.zlibStored(data)
        #expect(stream.count == 2 + 2 * 5 + 70_000 + 4)
        #expect(stream[2] == 0)  // first block not final
        #expect(stream[2 + 5 + 65_535] == 1)  // second block final
    }

    @Test func timelineMergesTimedAndManualAdditionsInOrder() {
        let start = Date(timeIntervalSince1970: 1_000)
        let timeline = FeedTimeline(start: start, period: .seconds(10))
        let manual = [Date(timeIntervalSince1970: 1_015)]
        let (count, newest) = timeline.additions(manual: manual, now: Date(timeIntervalSince1970: 1_025), limit: 40)
        #expect(count == 3)
        #expect(newest.map(\.ordinal) == [1, 2, 3])
        #expect(newest.map(\.date.timeIntervalSince1970) == [1_010, 1_015, 1_020])
        let (later, tail) = timeline.additions(manual: manual, now: Date(timeIntervalSince1970: 1_000_000), limit: 2)
        #expect(later == 99_901)
        #expect(tail.map(\.ordinal) == [99_900, 99_901])
    }

    @Test func updatePrefixIsReplacedNotStacked() {
        #expect(RSSItemRewriter.withoutUpdatePrefix("UPDATE 2-Stocks rise") == "Stocks rise")
        #expect(RSSItemRewriter.withoutUpdatePrefix("UPDATED rules") == "UPDATED rules")
        #expect(RSSItemRewriter.withoutUpdatePrefix("Stocks rise") == "Stocks rise")
    }

    @Test func queryDecodesPlusAndPercent() {
        let query = QueryItems("q=bund+l%C3%A4nder&page=2&page=3&empty")
        #expect(query["q"] == "bund länder")
        #expect(query.integer("page") == 2)
        #expect(query["empty"] == "")
        #expect(query["missing"] == nil)
    }

    @Test func jokeBookHasEnoughDistinctJokes() async {
        #expect(JokeBook.jokes.count >= 30)
        #expect(Set(JokeBook.jokes).count == JokeBook.jokes.count)
        let teller = JokeTeller(jokes: ["a", "b", "c"])
        var told: [String] = []
        for _ in 0..<9 { told.append(await teller.nextJoke(for: "x") ?? "") }
        for round in 0..<3 { #expect(Set(told[(round * 3)..<(round * 3 + 3)]) == ["a", "b", "c"]) }
        for index in 1..<told.count { #expect(told[index] != told[index - 1]) }
    }
}
