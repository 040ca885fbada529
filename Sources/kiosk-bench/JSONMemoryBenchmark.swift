import ArgumentParser
import Foundation
import KioskCore

/// `kiosk-bench json-once`: one parse of one JSON file, by Kiosk's reader or by
/// `JSONSerialization`, in a process of its own, so that `scripts/bench-json.py` can read that
/// process's peak memory (the whole point: JSONSerialization's tree cost about 65 times its input).
struct JSONOnceBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "json-once",
        abstract: "Parse one JSON file once (Kiosk or JSONSerialization) and print the time; run by scripts/bench-json.py.",
        discussion: "Prints one line: parser, bytes, milliseconds, entries. Peak memory is the caller's to read (wait4).")

    enum Parser: String, ExpressibleByArgument, CaseIterable {
        case kiosk, foundation
    }

    @Option(help: "kiosk (FeedParser, as `kiosk parse` reads) or foundation (JSONSerialization.jsonObject).")
    var parser: Parser = .kiosk

    @Option(help: "Entries kept (Kiosk): 100000 as `kiosk parse` keeps, 1000 as a polled or added feed keeps.")
    var entries: Int = ParserLimits.default.maxEntries

    @Argument(help: "A JSON file.")
    var file: String

    func run() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        let clock = ContinuousClock()
        let start = clock.now
        let kept: Int
        switch parser {
        case .kiosk:
            kept = try FeedParser.parse(data, limits: ParserLimits(maxBytes: 1 << 30, maxEntries: entries)).entries.count
        case .foundation:
            kept = try FoundationJSONBaseline.run(data)
        }
        let elapsed = clock.now - start
        let milliseconds = elapsed / .milliseconds(1)
        print("\(parser.rawValue) \(data.count) \(String(format: "%.1f", milliseconds)) \(kept)")
    }
}
