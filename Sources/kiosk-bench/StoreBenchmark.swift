import ArgumentParser
import Foundation
import KioskCore
import KioskModel
import KioskSQLite
import KioskSources
import KioskStore

/// `kiosk-bench store`: how fast the SQLite store takes the engine's writes, in a temporary file.
///
/// Each case saves every source's list once per round, as the engine would after a check that
/// changed something: the first save of a list (all rows new), the common change (one new entry
/// on top, the oldest gone: one insert, one delete, every position moved), every entry edited
/// (each row rewritten and re-indexed), and an unchanged list (the diff alone). Then the warm-start
/// read of everything and a few searches. Entries come from the generated RSS of `parse`
/// (realistic HTML summaries), renamed per source.
struct StoreBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store",
        abstract: "SQLite store writes/s: entries per second saved, replaced and read back."
    )

    @Option(help: "Sources saved per round.") var sources = 100
    @Option(help: "Entries per source list.") var entries = 100
    @Option(help: "Rounds per case (every source saved once per round).") var rounds = 3

    func run() async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("kiosk-bench-store-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("kiosk.sqlite")
        let store = try SQLiteStore(path: file)
        defer { try? store.close() }

        let templates = try Self.templates()
        print("kiosk-bench store: \(sources) sources × \(entries) entries, \(rounds) rounds per case, SQLite (WAL) in \(file.path)")
        print("  entries/s counts every entry of every list saved; rows written are fewer when little changed")
        print("")
        let table = TextTable(columns: [
            .init("case", width: 22, leftAligned: true), .init("saves", width: 6), .init("entries", width: 8),
            .init("seconds", width: 8), .init("saves/s", width: 8), .init("entries/s", width: 10),
            .init("ms/save", width: 8),
        ])
        print(table.header)

        var lists = (0..<sources).map { source in
            (0..<entries).map { index in Self.entry(templates, source: source, number: index) }
        }
        var next = entries  // the number of the next new entry, per source

        // First save: every row is new.
        print(table.line(try await measure("first save", rounds: 1, lists: { _ in lists }, into: store)))

        // One new entry on top, the oldest gone: what a news feed does between two checks.
        print(table.line(try await measure("one new on top", rounds: rounds, lists: { _ in
            for source in lists.indices {
                lists[source].insert(Self.entry(templates, source: source, number: next), at: 0)
                lists[source].removeLast()
            }
            next += 1
            return lists
        }, into: store)))

        // Every entry edited: the worst case, each row rewritten and re-indexed.
        print(table.line(try await measure("every entry edited", rounds: rounds, lists: { round in
            for source in lists.indices {
                for index in lists[source].indices {
                    lists[source][index].title = "Edited \(round): " + (lists[source][index].title ?? "")
                }
            }
            return lists
        }, into: store)))

        // Unchanged: the engine does not save these, but it is the floor of a save's cost.
        print(table.line(try await measure("unchanged", rounds: rounds, lists: { _ in lists }, into: store)))

        let clock = ContinuousClock()
        let loadStart = clock.now
        let loaded = try await store.loadSourceStates()
        let load = clock.now - loadStart
        let loadedEntries = loaded.values.reduce(0) { $0 + ($1.entries?.count ?? 0) }
        print("")
        print(String(format: "warm start: loadSourceStates read %d entries of %d sources in %.0f ms (%.0f entries/s)",
                     loadedEntries, loaded.count, Measure.milliseconds(load),
                     Double(loadedEntries) / max(Measure.seconds(load), 1e-9)))

        var searchTimes: [String] = []
        for query in ["the", "market rep", "zzzz"] {
            let start = clock.now
            let hits = try await store.search(query, limit: 50, user: nil)
            searchTimes.append(String(format: "\"%@\" %d hits %.1f ms", query, hits.count, Measure.milliseconds(clock.now - start)))
        }
        print("search (limit 50): " + searchTimes.joined(separator: ", "))
        print(String(format: "file: %.1f MB (+ %.1f MB WAL)",
                     Measure.megabytes(Self.size(of: file.path)), Measure.megabytes(Self.size(of: file.path + "-wal"))))
    }

    /// Saves every source's list `rounds` times (lists from `lists(round)`), one save at a time
    /// as one engine's writes are serialised anyway, and returns the table row.
    private func measure(
        _ name: String, rounds: Int, lists: (Int) -> [[Entry]], into store: SQLiteStore
    ) async throws -> [String] {
        let clock = ContinuousClock()
        var elapsed = Duration.zero
        var saves = 0
        var written = 0
        for round in 0..<max(rounds, 1) {
            let round = lists(round)  // built outside the timed part
            let start = clock.now
            for (index, list) in round.enumerated() {
                let state = SourceState(
                    entries: list, validators: Validators(etag: "\"\(index)-\(list.first?.id ?? "")\""),
                    lastSuccess: Date())
                try await store.saveSourceState(state, for: SourceID("bench-\(index)"))
                saves += 1
                written += list.count
            }
            elapsed += clock.now - start
        }
        let seconds = max(Measure.seconds(elapsed), 1e-9)
        return [
            name, "\(saves)", "\(written)", String(format: "%.2f", seconds), String(format: "%.0f", Double(saves) / seconds),
            String(format: "%.0f", Double(written) / seconds), String(format: "%.2f", seconds * 1000 / Double(saves)),
        ]
    }

    /// The size of the file at `path` in bytes; 0 when there is none.
    private static func size(of path: String) -> Int {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        return (attributes?[.size] as? NSNumber)?.intValue ?? 0
    }

    /// Realistic entries (HTML summaries, authors, dates) from the generated RSS feed.
    private static func templates() throws -> [Entry] {
        let generated = FeedGenerator.generate(.rss, targetBytes: 512 * 1024)
        let feed = try FeedParser.parse(generated.bytes)
        guard !feed.entries.isEmpty else { throw ValidationError("the generated feed has no entries") }
        return feed.entries
    }

    /// Entry `number` of source `source`: a template with its own id and link.
    private static func entry(_ templates: [Entry], source: Int, number: Int) -> Entry {
        var entry = templates[(source * 7 + number) % templates.count]
        entry.id = "bench-\(source)-\(number)"
        entry.link = "https://bench.example/\(source)/\(number)"
        return entry
    }
}
