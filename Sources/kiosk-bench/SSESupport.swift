import Foundation
import KioskWeb

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Process-level helpers of the SSE benchmark: the file-descriptor limit, resident memory and a
/// clock that two processes can compare.
enum SSEProcess {
    /// Raises the soft limit on open files to the hard limit (each client is one descriptor, and
    /// one more on the server side when both run in one process).
    /// - Returns: the soft and hard limits afterwards; nil where they cannot be read.
    static func raiseFileLimit() -> (soft: UInt64, hard: UInt64)? {
        OpenFileLimit.raise()
    }

    /// Descriptors open in this process now; nil off Linux.
    static func openDescriptors() -> Int? {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"))?.count
    }

    /// How many more streams fit under the soft open-file limit, keeping a margin for the files
    /// the process itself opens (running out makes libdispatch trap); nil when unknown.
    static func mostStreams(perStream: Int) -> Int? {
        guard let limit = raiseFileLimit(), let open = openDescriptors() else { return nil }
        return max(0, (Int(min(limit.soft, 1 << 30)) - open - 64) / max(1, perStream))
    }

    /// The 1-, 5- and 15-minute load averages (`/proc/loadavg`), as text; nil off Linux.
    static func loadAverage() -> String? {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return nil }
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }

    /// The process's resident set now (`VmRSS` in `/proc/self/status`), in KiB; nil off Linux.
    static func residentKiB() -> Int? {
        statusField("VmRSS:")
    }

    /// A `kB` field of `/proc/self/status`.
    private static func statusField(_ name: String) -> Int? {
        // /proc files report a size of 0, so read to the end rather than by size.
        guard let handle = FileHandle(forReadingAtPath: "/proc/self/status") else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.readToEnd(), let text = String(data: data, encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(name) {
            let digits = line.dropFirst(name.count).filter(\.isNumber)
            return Int(digits)
        }
        return nil
    }

    /// `CLOCK_MONOTONIC` in nanoseconds: one clock for the whole machine, so an instant taken by
    /// the server process compares with one taken by the clients' process.
    static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}

/// Arrival delays of one update, summarised.
struct SSEArrivalSummary: Sendable {
    var received: Int
    var missing: Int
    var p50: Double
    var p99: Double
    var max: Double

    /// Milliseconds from `published` to each client's arrival; 0 marks a client that never got it.
    /// `expected` is the number of subscribed clients (those that could have received it).
    init(published: UInt64, arrivals: [UInt64], expected: Int) {
        let delays = arrivals.filter { $0 != 0 }.map { Double($0 &- Swift.min($0, published)) / 1e6 }.sorted()
        received = delays.count
        missing = Swift.max(0, expected - delays.count)
        func percentile(_ fraction: Double) -> Double {
            guard !delays.isEmpty else { return .nan }
            let rank = Int((fraction * Double(delays.count)).rounded(.up)) - 1
            return delays[Swift.max(0, Swift.min(delays.count - 1, rank))]
        }
        p50 = percentile(0.50)
        p99 = percentile(0.99)
        max = delays.last ?? .nan
    }
}

/// The files the clients' process and the server's process exchange through a temporary
/// directory: the clients say when they are all subscribed, then when each update has reached them.
enum SSEHandshake {
    /// Written by the clients' process once every connection is subscribed (or connecting failed).
    struct Ready: Codable, Sendable {
        var requested: Int
        var subscribed: Int
        var residentBeforeKiB: Int
        var residentAfterKiB: Int
        var fileLimit: UInt64
        var connectSeconds: Double
        var error: String?
    }

    /// Written for each update: every client's arrival instant (`CLOCK_MONOTONIC` ns, 0 = never).
    struct Round: Codable, Sendable {
        var arrivals: [UInt64]
    }

    static func readyFile(in directory: URL) -> URL { directory.appendingPathComponent("ready.json") }
    static func roundFile(_ round: Int, in directory: URL) -> URL { directory.appendingPathComponent("round-\(round).json") }

    static func write<Value: Encodable>(_ value: Value, to file: URL) throws {
        try JSONEncoder().encode(value).write(to: file, options: [.atomic])
    }

    /// Waits for `file` to appear (written atomically) and decodes it; nil after `timeout`.
    static func await<Value: Decodable>(_ type: Value.Type, at file: URL, timeout: Duration) async throws -> Value? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let data = FileManager.default.contents(atPath: file.path) {
                return try JSONDecoder().decode(type, from: data)
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }
}

/// A benchmark failure, said plainly.
struct SSEBenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
