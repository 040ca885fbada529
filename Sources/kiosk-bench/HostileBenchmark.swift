import ArgumentParser
import Foundation
import KioskCore
import KioskTesting

/// `kiosk-bench hostile`: times each hostile document of the KioskCore issue in release mode and
/// prints its outcome (a typed error or a right answer), time and peak memory.
struct HostileBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hostile",
        abstract: "Time the parser on hostile documents (billion laughs, XXE, deep nesting, entity floods, 100 MB)."
    )

    @Option(help: "Size of the large feed in MB.") var largeMB = 100

    func run() throws {
        let large = HostileFeeds.largeRSS(bytes: largeMB * 1_000_000)
        let nested = String(repeating: "[", count: 50_000) + String(repeating: "]", count: 50_000)
        // Smallest first: the peak-memory column is a process high-water mark.
        let cases: [(String, [UInt8], String)] = [
            ("billion laughs", Array(HostileFeeds.billionLaughs.utf8), "title stays &lol9;"),
            ("external entity (file:///etc/passwd)", Array(HostileFeeds.externalEntity(path: "/etc/passwd").utf8), "title stays &xxe;"),
            ("50,000-deep XML nesting", Array(HostileFeeds.deepNesting(50_000).utf8), "tooDeep"),
            ("50,000-deep JSON nesting", Array(nested.utf8), "tooDeep"),
            ("300 KB of entity references", Array(HostileFeeds.entityFlood(bytes: 300_000).utf8), "decoded"),
            ("\(largeMB) MB RSS feed", large.feed, "\(large.items) entries"),
        ]
        let limits = ParserLimits(maxBytes: 1 << 30, maxDepth: ParserLimits.default.maxDepth, maxEntries: 10_000_000)
        let table = TextTable(columns: [
            .init("case", width: 38, leftAligned: true), .init("bytes", width: 10), .init("ms", width: 8),
            .init("outcome", width: 52, leftAligned: true), .init("expected", width: 18, leftAligned: true),
            .init("peak RSS MB", width: 11),
        ])
        print(table.header)
        for (name, bytes, expected) in cases {
            let (duration, result) = Measure.once { Result { () throws(FeedError) -> Feed in try FeedParser.parse(bytes, limits: limits) } }
            let outcome: String
            switch result {
            case .success(let feed): outcome = "feed: \(feed.entries.count) entries, title \((feed.title ?? "").prefix(12))"
            case .failure(let error): outcome = "error: \(error)"
            }
            print(table.line([
                name, "\(bytes.count)", String(format: "%.1f", Measure.milliseconds(duration)), outcome, expected,
                Measure.peakResidentBytes().map { String(format: "%.0f", Measure.megabytes($0)) } ?? "n/a",
            ]))
        }
    }
}
