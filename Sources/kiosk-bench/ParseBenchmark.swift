import ArgumentParser
import Foundation
import KioskCore

/// `kiosk-bench parse`: times Kiosk's full feed parse against Foundation's parsers over the same bytes.
///
/// For each format and size it generates a feed in memory (`FeedGenerator`), then times
/// `FeedParser.parse` and a Foundation baseline: a bare `XMLParser` SAX pass for RSS and Atom
/// (`FoundationXMLBaseline`), `JSONSerialization` for JSON Feed (`FoundationJSONBaseline`).
/// The acceptance figure is `kiosk-bench parse --sizes 8 --formats rss`: K/F at least 0.50.
struct ParseBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parse",
        abstract: "Time Kiosk's feed parser against Foundation's XML and JSON parsers.",
        discussion: """
            Generates deterministic RSS 2.0, Atom 1.0 and JSON Feed 1.1 feeds in memory (or reads --file), \
            then times FeedParser.parse and, over the same bytes, a bare FoundationXML SAX pass (RSS, Atom) \
            or JSONSerialization (JSON Feed). Build with -c release: debug figures mean nothing.

            Acceptance figure: kiosk-bench parse --sizes 8 --formats rss (K/F >= 0.50, i.e. Kiosk at least \
            half as fast as the Foundation pass).

            Exits with status 1 if Kiosk failed on a case or read the wrong number of entries.
            """
    )

    @Option(help: ArgumentHelp("Sizes of the generated feeds in MB (1 MB = 1,000,000 bytes), comma-separated.", valueName: "mb,..."))
    var sizes: [String] = ["1,10,100"]

    @Option(help: ArgumentHelp("Formats to generate: rss, atom, json (comma-separated), or all.", valueName: "format,..."))
    var formats: [String] = ["rss,atom,json"]

    @Option(
        name: .customLong("repeat"),
        help: ArgumentHelp("Runs per parser and case; best and median are reported. (default: 5 below 5 MB, 3 below 50 MB, 1 above)", valueName: "n")
    )
    var runs: Int?

    @Option(
        name: .customLong("file"), parsing: .upToNextOption,
        help: ArgumentHelp("Benchmark these feed files instead of generated feeds.", valueName: "path")
    )
    var files: [String] = []

    @Option(help: ArgumentHelp("Skip the Foundation XML pass above this size in MB (on Linux XMLParser(data:) fails above 10,000,000 bytes).", valueName: "mb"))
    var foundationMax: Double = 16

    @Option(help: ArgumentHelp("Write the generated feeds to this directory and exit without timing anything.", valueName: "dir", visibility: .hidden))
    var dump: String?

    /// Limits big enough for the 100 MB feeds; the defaults would reject them as too large.
    static let benchLimits = ParserLimits(maxBytes: 1 << 30, maxDepth: 256, maxEntries: 10_000_000)

    /// The ratio Kiosk must reach: at least half the Foundation pass's throughput.
    static let targetRatio = 0.5

    mutating func validate() throws {
        _ = try sizeList()
        _ = try formatList()
        if let runs, runs < 1 { throw ValidationError("--repeat must be at least 1.") }
        if foundationMax < 0 { throw ValidationError("--foundation-max must not be negative.") }
    }

    mutating func run() throws {
        let sizes = try sizeList()
        let formats = try formatList()
        if let dump {
            try writeFeeds(to: dump, formats: formats, sizes: sizes)
            return
        }
        printPreamble()
        let table = Self.table(labelWidth: files.isEmpty ? 6 : min(28, files.map { Self.fileLabel($0).count }.max() ?? 6))
        Self.emit(table.header)
        var outcomes: [Outcome] = []
        if files.isEmpty {
            for format in formats {
                for size in sizes {
                    let target = Int((size * 1_000_000).rounded())
                    let (duration, output) = Measure.once { FeedGenerator.generate(format, targetBytes: target) }
                    let input = Input(
                        group: format.rawValue, nominalSize: Self.sizeLabel(size), bytes: output.bytes,
                        generatedEntries: output.entries, baseline: format == .json ? .json : .xml
                    )
                    Self.emit(table.line([
                        input.group, Self.megabytesLabel(input.bytes.count), "generator", "1",
                        Self.millisecondsLabel(duration), "",
                        Measure.throughput(bytes: input.bytes.count, duration: duration).map { Self.decimal($0, 1) } ?? "-",
                        String(output.entries), "", Self.peakLabel(), "deterministic, seed 0x\(String(FeedGenerator.defaultSeed, radix: 16))",
                    ]))
                    outcomes.append(runCase(input, table: table))
                }
            }
        } else {
            for path in files {
                guard let data = FileManager.default.contents(atPath: path) else {
                    Self.emit(table.line([Self.fileLabel(path), "", "Kiosk", "", "", "", "", "", "", "", "error: cannot read \(path)"]))
                    outcomes.append(Outcome(group: Self.fileLabel(path), nominalSize: "0", bytes: 0, baselineName: "Foundation",
                                            kiosk: .failed("cannot read file"), baseline: .skipped("no input"), expected: nil))
                    continue
                }
                let bytes = [UInt8](data)
                let input = Input(
                    group: Self.fileLabel(path), nominalSize: Self.megabytesLabel(bytes.count), bytes: bytes,
                    generatedEntries: nil, baseline: Self.sniffBaseline(bytes)
                )
                outcomes.append(runCase(input, table: table))
            }
        }
        Self.emit("")
        printSummary(outcomes)
        if outcomes.contains(where: \.kioskFailedOrMismatched) { throw ExitCode(1) }
    }

    // MARK: - One case

    /// Which Foundation parser serves as the baseline for a document.
    private enum BaselineKind {
        case xml, json

        var name: String { self == .xml ? "FoundationXML" : "JSONSerialization" }
    }

    /// A document to benchmark.
    private struct Input {
        /// The summary group: the format for generated feeds, the file name otherwise.
        var group: String
        /// The size as asked for ("8") for generated feeds, the measured size for files.
        var nominalSize: String
        var bytes: [UInt8]
        /// Entries the generator wrote; nil for files, whose count comes from the baseline.
        var generatedEntries: Int?
        var baseline: BaselineKind
    }

    /// How one parser fared on one document.
    private enum Run {
        case measured(Measure.Timing, entries: Int)
        case failed(String)
        case skipped(String)

        var timing: Measure.Timing? {
            if case .measured(let timing, _) = self { timing } else { nil }
        }

        var entries: Int? {
            if case .measured(_, let entries) = self { entries } else { nil }
        }
    }

    /// The results of one case, kept for the summary.
    private struct Outcome {
        var group: String
        var nominalSize: String
        /// The document's size in bytes.
        var bytes: Int
        var baselineName: String
        var kiosk: Run
        var baseline: Run
        /// The entry count Kiosk must match: the generator's, or for files the baseline's.
        var expected: Int?
        /// Kiosk's throughput over the baseline's, when both were measured.
        var ratio: Double? {
            guard let kioskBest = kiosk.timing?.best, let baselineBest = baseline.timing?.best, kioskBest > .zero else { return nil }
            return Measure.seconds(baselineBest) / Measure.seconds(kioskBest)
        }
        var mismatch: Bool {
            guard let expected, let entries = kiosk.entries else { return false }
            return entries != expected
        }
        var kioskFailedOrMismatched: Bool {
            if case .measured = kiosk { mismatch } else { true }
        }
    }

    /// Times Kiosk then the baseline over `input.bytes` and prints their rows.
    ///
    /// Kiosk runs first so that the peak memory after its row is not inflated by the baseline.
    private func runCase(_ input: Input, table: TextTable) -> Outcome {
        let bytes = input.bytes
        let runCount = runs ?? Self.defaultRuns(bytes: bytes.count)
        let kiosk: Run
        do {
            let (timing, entries) = try Measure.repeated(runCount) { () throws(FeedError) -> Int in
                try FeedParser.parse(bytes, limits: Self.benchLimits).entries.count
            }
            kiosk = .measured(timing, entries: entries)
        } catch {
            kiosk = .failed("\(error)")
        }
        let kioskPeak = Self.peakLabel()

        let baseline: Run
        let megabytes = Measure.megabytes(bytes.count)
        switch input.baseline {
        case .xml where megabytes > foundationMax:
            baseline = .skipped("skipped: above --foundation-max \(Self.sizeLabel(foundationMax)) MB (on Linux XMLParser(data:) fails above 10,000,000 bytes)")
        case .xml:
            let data = Data(bytes)
            do {
                let (timing, summary) = try Measure.repeated(runCount) { () throws(FoundationXMLBaseline.Failure) -> FoundationXMLBaseline.Summary in
                    try FoundationXMLBaseline.run(data)
                }
                baseline = .measured(timing, entries: summary.entries)
            } catch {
                // libxml2 refuses more than 10,000,000 pending bytes without XML_PARSE_HUGE, and
                // XMLParser(data:) hands it the whole document at once.
                let hint = bytes.count > 10_000_000 ? " (libxml2's 10,000,000-byte limit on XMLParser(data:))" : ""
                baseline = .failed("failed: \(error)\(hint)")
            }
        case .json:
            let data = Data(bytes)
            do {
                let (timing, items) = try Measure.repeated(runCount) { () throws(FoundationJSONBaseline.Failure) -> Int in
                    try FoundationJSONBaseline.run(data)
                }
                baseline = .measured(timing, entries: items)
            } catch {
                baseline = .failed("failed: \(error)")
            }
        }
        let baselinePeak = Self.peakLabel()

        let outcome = Outcome(
            group: input.group, nominalSize: input.nominalSize, bytes: bytes.count, baselineName: input.baseline.name,
            kiosk: kiosk, baseline: baseline, expected: input.generatedEntries ?? baseline.entries
        )
        let size = Self.megabytesLabel(bytes.count)
        let ratio = outcome.ratio.map { Self.decimal($0, 2) } ?? "-"
        let kioskNote: String
        switch kiosk {
        case .measured(_, let entries):
            if let expected = outcome.expected {
                kioskNote = entries == expected ? "ok" : "*** MISMATCH: Kiosk read \(entries) entries, expected \(expected) ***"
            } else {
                kioskNote = "entries not checked (baseline gave no count)"
            }
        case .failed(let why): kioskNote = "error: \(why)"
        case .skipped(let why): kioskNote = why
        }
        Self.emit(table.line(Self.cells(input.group, size, "Kiosk", kiosk, bytes: bytes.count) + [ratio, kioskPeak, kioskNote]))

        var baselineNote: String
        switch baseline {
        case .measured(_, let entries):
            if let generated = input.generatedEntries, entries != generated {
                // The generator and Foundation disagree: the generated document itself is suspect.
                baselineNote = "*** MISMATCH: Foundation saw \(entries) entries, generator wrote \(generated) ***"
            } else {
                baselineNote = input.baseline == .xml ? "SAX, text only" : "object tree"
            }
        case .failed(let why), .skipped(let why):
            baselineNote = why
        }
        Self.emit(table.line(Self.cells(input.group, size, input.baseline.name, baseline, bytes: bytes.count) + ["", baselinePeak, baselineNote]))
        return outcome
    }

    // MARK: - Report

    private static func table(labelWidth: Int) -> TextTable {
        TextTable(columns: [
            .init("format", width: labelWidth, leftAligned: true),
            .init("MB", width: 7),
            .init("parser", width: 17, leftAligned: true),
            .init("runs", width: 4),
            .init("best ms", width: 9),
            .init("median ms", width: 9),
            .init("MB/s", width: 7),
            .init("entries", width: 7),
            .init("K/F", width: 5),
            .init("peak MB", width: 7),
            .init("check", width: 0, leftAligned: true),
        ])
    }

    /// The cells from "format" to "entries" for one parser's run.
    private static func cells(_ group: String, _ size: String, _ parser: String, _ run: Run, bytes: Int) -> [String] {
        guard case .measured(let timing, let entries) = run else {
            return [group, size, parser, "", "-", "-", "-", "-"]
        }
        return [
            group, size, parser, String(timing.samples.count),
            millisecondsLabel(timing.best), millisecondsLabel(timing.median),
            Measure.throughput(bytes: bytes, duration: timing.best).map { decimal($0, 1) } ?? "-",
            String(entries),
        ]
    }

    private func printPreamble() {
        #if DEBUG
        Self.emit("WARNING: debug build; the figures mean nothing. Use `swift run -c release kiosk-bench parse`.")
        #endif
        Self.emit("""
            kiosk-bench parse: Kiosk FeedParser.parse vs Foundation over the same bytes
              baselines: FoundationXML = XMLParser SAX pass collecting element text, no model; JSONSerialization = jsonObject(with:)
              MB = 1,000,000 bytes; best and median of the runs (ContinuousClock); MB/s = size / best
              K/F = Kiosk MB/s / Foundation MB/s (target >= \(Self.decimal(Self.targetRatio, 2)))
              peak MB = VmHWM after the row: the process's high-water mark, so it includes generation and earlier cases

            """)
    }

    /// One line per group (format, or file): throughput per size, ratio, entry check and target.
    private func printSummary(_ outcomes: [Outcome]) {
        Self.emit("Summary (best MB/s per size):")
        var groups: [String] = []
        for outcome in outcomes where !groups.contains(outcome.group) { groups.append(outcome.group) }
        let width = groups.map(\.count).max() ?? 0
        for group in groups {
            let cases = outcomes.filter { $0.group == group }
            func perSize(_ describe: (Outcome) -> String) -> String {
                cases.map { "\(describe($0)) @\($0.nominalSize) MB" }.joined(separator: ", ")
            }
            let kiosk = perSize { Self.throughputLabel($0.kiosk, bytes: $0.bytes) }
            let baseline = perSize { Self.throughputLabel($0.baseline, bytes: $0.bytes) }
            let ratios = perSize { $0.ratio.map { Self.decimal($0, 2) } ?? "-" }
            let entries: String
            if cases.contains(where: \.mismatch) {
                entries = "MISMATCH at " + cases.filter(\.mismatch).map { "\($0.nominalSize) MB" }.joined(separator: ", ")
            } else if cases.allSatisfy({ $0.kiosk.entries != nil && $0.expected != nil }) {
                entries = "ok"
            } else if cases.contains(where: { $0.kiosk.entries == nil }) {
                entries = "unchecked: Kiosk failed"
            } else {
                entries = "unchecked: no reference count"
            }
            let measuredRatios = cases.compactMap(\.ratio)
            let target: String
            if measuredRatios.isEmpty {
                target = "no ratio"
            } else {
                let met = measuredRatios.filter { $0 >= Self.targetRatio }.count
                target = met == measuredRatios.count ? "met" : "NOT met (\(met)/\(measuredRatios.count))"
            }
            let name = cases.first?.baselineName ?? "Foundation"
            let label = group + String(repeating: " ", count: max(0, width - group.count))
            Self.emit("  \(label)  Kiosk \(kiosk) | \(name) \(baseline) | K/F \(ratios) | entries \(entries) | K/F >= \(Self.decimal(Self.targetRatio, 2)) \(target)")
        }
    }

    private static func throughputLabel(_ run: Run, bytes: Int) -> String {
        switch run {
        case .measured(let timing, _):
            Measure.throughput(bytes: bytes, duration: timing.best).map { decimal($0, 1) } ?? "-"
        case .failed: "failed"
        case .skipped: "skipped"
        }
    }

    // MARK: - Dump

    /// Writes each generated feed to `directory` as `<format>-<size>MB.<ext>`.
    private func writeFeeds(to directory: String, formats: [FeedGenerator.Format], sizes: [Double]) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for format in formats {
            for size in sizes {
                let (duration, output) = Measure.once { FeedGenerator.generate(format, targetBytes: Int((size * 1_000_000).rounded())) }
                let path = URL(fileURLWithPath: directory).appendingPathComponent("\(format.rawValue)-\(Self.sizeLabel(size))MB.\(format.fileExtension)")
                try Data(output.bytes).write(to: path)
                Self.emit("\(path.path): \(output.bytes.count) bytes, \(output.entries) entries, generated in \(Self.decimal(Measure.milliseconds(duration), 1)) ms")
            }
        }
    }

    // MARK: - Helpers

    private func sizeList() throws -> [Double] {
        var list: [Double] = []
        for item in sizes.flatMap({ $0.split(separator: ",") }) {
            let text = item.trimmingCharacters(in: .whitespaces)
            // 1 GB is the parser limit used here; bigger would only be rejected.
            guard let size = Double(text), size > 0, size <= 1000 else {
                throw ValidationError("Bad size '\(text)': give MB between 0 and 1000, e.g. --sizes 1,8,100.")
            }
            if !list.contains(size) { list.append(size) }
        }
        guard !list.isEmpty else { throw ValidationError("--sizes needs at least one size.") }
        return list
    }

    private func formatList() throws -> [FeedGenerator.Format] {
        var list: [FeedGenerator.Format] = []
        for item in formats.flatMap({ $0.split(separator: ",") }) {
            let name = item.trimmingCharacters(in: .whitespaces).lowercased()
            let chosen: [FeedGenerator.Format]
            if name == "all" {
                chosen = FeedGenerator.Format.allCases
            } else if let format = FeedGenerator.Format(rawValue: name) {
                chosen = [format]
            } else {
                throw ValidationError("Unknown format '\(name)': use rss, atom, json or all.")
            }
            for format in chosen where !list.contains(format) { list.append(format) }
        }
        guard !list.isEmpty else { throw ValidationError("--formats needs at least one format.") }
        return list
    }

    /// Fewer runs for bigger inputs keeps the whole benchmark to a few minutes on a shared machine.
    private static func defaultRuns(bytes: Int) -> Int {
        let megabytes = Measure.megabytes(bytes)
        return megabytes < 5 ? 5 : megabytes < 50 ? 3 : 1
    }

    /// JSON if the first byte after a BOM and white space is `{`, XML otherwise.
    private static func sniffBaseline(_ bytes: [UInt8]) -> BaselineKind {
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        return index < bytes.count && bytes[index] == UInt8(ascii: "{") ? .json : .xml
    }

    private static func fileLabel(_ path: String) -> String {
        URL(fileURLWithPath: path).lastPathComponent
    }

    /// "8" for 8.0, "0.5" for 0.5.
    private static func sizeLabel(_ megabytes: Double) -> String {
        megabytes == megabytes.rounded() ? String(Int(megabytes)) : String(megabytes)
    }

    /// Megabytes with enough places that small files do not show as 0.00.
    private static func megabytesLabel(_ bytes: Int) -> String {
        let megabytes = Measure.megabytes(bytes)
        return decimal(megabytes, megabytes < 0.1 ? 4 : 2)
    }

    /// Milliseconds with enough places that fast runs do not show as 0.0.
    private static func millisecondsLabel(_ duration: Duration) -> String {
        let milliseconds = Measure.milliseconds(duration)
        return decimal(milliseconds, milliseconds < 1 ? 3 : milliseconds < 100 ? 2 : 1)
    }

    private static func decimal(_ value: Double, _ places: Int) -> String {
        String(format: "%.\(places)f", value)
    }

    private static func peakLabel() -> String {
        Measure.peakResidentBytes().map { decimal(Measure.megabytes($0), 1) } ?? "n/a"
    }

    /// Writes a line to standard output at once: `print` buffers when piped, which would hide
    /// progress during the long cases.
    private static func emit(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
