import ArgumentParser
import Foundation
import KioskCore

/// `kiosk parse [--json] FILE...`: reads feed files and prints what Kiosk understands of them.
struct ParseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parse",
        abstract: "Parse feed files (RSS, RDF, Atom, JSON Feed) and print what was read.",
        discussion: "With --json, prints one JSON line per file, in the order given."
    )

    @Flag(name: .long, help: "Print one JSON line per file (the shape ../shared/tools/feedcompare.py reads).")
    var json = false

    @Argument(help: "Feed files to parse.")
    var files: [String]

    func run() throws {
        var failures = 0
        for path in files {
            let result: Result<Feed, FeedError>
            do {
                let data = try Data(contentsOf: URL(fileURLWithPath: path))
                result = Result { () throws(FeedError) -> Feed in try FeedParser.parse(data) }
            } catch {
                result = .failure(.notAFeed("cannot read the file: \(error.localizedDescription)"))
            }
            if case .failure = result { failures += 1 }
            if json {
                print(ParseReport(file: path, result: result).jsonLine())
            } else {
                print(ParseReport(file: path, result: result).summary())
            }
        }
        if failures > 0 { throw ExitCode(1) }
    }
}
