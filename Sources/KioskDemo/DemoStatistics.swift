/// A snapshot of the demo server's counters, as `GET /_demo/stats` serves it.
public struct DemoStatistics: Sendable, Codable, Equatable {
    /// Requests per source, keyed by ``DemoSource`` raw value.
    public var sources: [String: Int]
    /// Requests per path (query excluded).
    public var paths: [String: Int]
    /// Faults switched on, keyed by source raw value.
    public var faults: [String: String]

    /// A snapshot.
    public init(sources: [String: Int], paths: [String: Int], faults: [String: String]) {
        self.sources = sources
        self.paths = paths
        self.faults = faults
    }
}
