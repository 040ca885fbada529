import Foundation

/// Timing and memory helpers shared by the benchmarks.
enum Measure {
    /// The durations of repeated runs of one piece of work.
    struct Timing: Sendable {
        /// Every run's duration, in the order they ran.
        var samples: [Duration]

        /// The fastest run: the figure least disturbed by other processes on a shared machine.
        var best: Duration { samples.min() ?? .zero }

        /// The middle run (the mean of the two middle ones for an even count).
        var median: Duration {
            let sorted = samples.sorted()
            guard !sorted.isEmpty else { return .zero }
            let middle = sorted.count / 2
            return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
        }
    }

    /// Runs `body` `runs` times (at least once) and times each run with `ContinuousClock`.
    ///
    /// The first error stops the series: a parser that fails once would fail every time.
    /// - Returns: the timings and the value of the last run, which callers use as a sanity check
    ///   and which keeps the optimiser from discarding the work.
    static func repeated<Result, Failure: Error>(
        _ runs: Int, _ body: () throws(Failure) -> Result
    ) throws(Failure) -> (timing: Timing, result: Result) {
        let clock = ContinuousClock()
        var samples: [Duration] = []
        samples.reserveCapacity(max(runs, 1))
        var start = clock.now
        var result = try body()
        samples.append(clock.now - start)
        for _ in 1..<max(runs, 1) {
            start = clock.now
            result = try body()
            samples.append(clock.now - start)
        }
        return (Timing(samples: samples), result)
    }

    /// Times one run of `body`.
    static func once<Result>(_ body: () -> Result) -> (duration: Duration, result: Result) {
        let clock = ContinuousClock()
        let start = clock.now
        let result = body()
        return (clock.now - start, result)
    }

    /// The process's peak resident set size in bytes (`VmHWM` in `/proc/self/status`), or nil
    /// where that file does not exist.
    ///
    /// It is a high-water mark for the whole process, so each reading includes every earlier case.
    static func peakResidentBytes() -> Int? {
        #if os(Linux)
        // /proc files report a size of 0, so read until end of file rather than by size.
        guard let handle = FileHandle(forReadingAtPath: "/proc/self/status") else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.readToEnd() else { return nil }
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") where line.hasPrefix("VmHWM:") {
            // The line reads "VmHWM:     123456 kB".
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 2, let kilobytes = Int(fields[1]) else { return nil }
            return kilobytes * 1024
        }
        return nil
        #else
        return nil
        #endif
    }

    /// `duration` in seconds.
    static func seconds(_ duration: Duration) -> Double {
        duration / .seconds(1)
    }

    /// `duration` in milliseconds.
    static func milliseconds(_ duration: Duration) -> Double {
        seconds(duration) * 1000
    }

    /// `bytes` in megabytes of 1,000,000 bytes, the unit used throughout the benchmarks.
    static func megabytes(_ bytes: Int) -> Double {
        Double(bytes) / 1_000_000
    }

    /// Throughput in MB/s, or nil for a zero duration.
    static func throughput(bytes: Int, duration: Duration) -> Double? {
        let elapsed = seconds(duration)
        return elapsed > 0 ? megabytes(bytes) / elapsed : nil
    }
}
