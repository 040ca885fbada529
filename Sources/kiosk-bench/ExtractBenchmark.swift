import ArgumentParser
import Foundation
import KioskCore
import KioskHTML

/// `kiosk-bench extract`: the reader view's extractor over saved pages, in-process.
///
/// Reads every `*/source.html` of a corpus folder (by default the 130 pages of
/// `../shared/corpus/readability`) into memory, extracts them all once to warm up, then times
/// `--rounds` rounds over all of them and reports pages/s and MB/s for the best and the median
/// round. `scripts/bench-extract-reference.sh` runs it next to trafilatura 2.0.0 over the same
/// files and prints the ratio.
struct ExtractBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extract",
        abstract: "Time the article extractor (kiosk extract) over a folder of saved pages.",
        discussion: """
            Reads DIR/*/source.html (default ../shared/corpus/readability), extracts every page once to \
            warm up, then times --rounds rounds over all pages in this process. Prints pages/s and MB/s \
            (1 MB = 1,000,000 bytes) for the best and median round, the pages that gave no article, and \
            the process's peak memory. Build with -c release: debug figures mean nothing. \
            scripts/bench-extract-reference.sh compares it with trafilatura 2.0.0 over the same files.
            """
    )

    @Option(help: ArgumentHelp("Folder of page folders, each with a source.html.", valueName: "dir"))
    var corpus = "../shared/corpus/readability"

    @Option(help: ArgumentHelp("Timed rounds over all pages.", valueName: "n"))
    var rounds = 5

    mutating func validate() throws {
        if rounds < 1 { throw ValidationError("--rounds must be at least 1.") }
    }

    func run() throws {
        let pages = try Self.load(corpus)
        guard !pages.isEmpty else { throw ValidationError("no */source.html under \(corpus)") }
        let bytes = pages.reduce(0) { $0 + $1.count }
        print("kiosk-bench extract: \(pages.count) pages, \(String(format: "%.2f", Measure.megabytes(bytes))) MB, \(rounds) rounds (+1 warm-up)")
        let url = "http://fakehost/test/page.html"
        let extractAll = { () -> (words: Int, failures: Int) in
            var words = 0
            var failures = 0
            for page in pages {
                do throws(ArticleError) {
                    words += try ArticleExtractor.extract(page, url: url).wordCount
                } catch {
                    failures += 1
                }
            }
            return (words, failures)
        }
        let warmUp = extractAll()
        let (timing, result) = Measure.repeated(rounds) { extractAll() }
        if result != warmUp { throw ValidationError("the extractor gave different answers for the same pages") }
        for (label, duration) in [("best", timing.best), ("median", timing.median)] {
            let seconds = Measure.seconds(duration)
            let pagesPerSecond = seconds > 0 ? Double(pages.count) / seconds : 0
            let megabytesPerSecond = Measure.throughput(bytes: bytes, duration: duration) ?? 0
            print(
                "\(label) round: \(String(format: "%.1f", Measure.milliseconds(duration))) ms, "
                    + "\(String(format: "%.1f", pagesPerSecond)) pages/s, \(String(format: "%.2f", megabytesPerSecond)) MB/s")
        }
        print("words extracted per round: \(result.words), pages without an article: \(result.failures)")
        let peak = Measure.peakResidentBytes().map { String(format: "%.1f MB", Measure.megabytes($0)) } ?? "n/a"
        print("peak resident memory (whole process, corpus held in memory): \(peak)")
    }

    /// The bytes of every `*/source.html` under `folder`, in name order.
    static func load(_ folder: String) throws -> [[UInt8]] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        return names.compactMap { name in
            FileManager.default.contents(atPath: folder + "/" + name + "/source.html").map { [UInt8]($0) }
        }
    }
}
