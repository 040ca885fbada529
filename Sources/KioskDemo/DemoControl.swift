import Foundation

/// The knobs of a running demo server, shared by the server and whoever drives it (tests, the app,
/// the `/_demo/` HTTP endpoints): faults, latency overrides, manual feed entries and request counts.
public actor DemoControl {
    /// Image URLs carry arbitrary ids and sizes; cap the per-path table so a crawler cannot grow it forever.
    private static let maximumTrackedPaths = 10_000

    private var faults: [DemoSource: DemoFault] = [:]
    private var latencyOverrides: [DemoSource: Duration] = [:]
    private var manualEntries: [DemoSource: [ManualAddition]] = [:]
    private var sourceCounts: [DemoSource: Int] = [:]
    private var pathCounts: [String: Int] = [:]

    /// A control with no faults, no overrides and zero counts.
    public init() {}

    /// Makes `source` misbehave as `fault` from its next request on (`.none` heals it).
    public func setFault(_ fault: DemoFault, for source: DemoSource) {
        faults[source] = fault
    }

    /// The fault currently switched on for `source`.
    public func fault(for source: DemoSource) -> DemoFault {
        faults[source, default: DemoFault.none]
    }

    /// Overrides the configured latency of `source`.
    public func setLatency(_ latency: Duration, for source: DemoSource) {
        latencyOverrides[source] = latency
    }

    /// The latency set with ``setLatency(_:for:)``, if any.
    public func latencyOverride(for source: DemoSource) -> Duration? {
        latencyOverrides[source]
    }

    /// Puts a new entry at the top of an RSS feed right now. Ignored for sources that are not feeds.
    public func addEntry(to source: DemoSource) {
        addEntry(to: source, content: ManualEntry())
    }

    /// Puts a new entry saying `content` at the top of an RSS feed right now; fields `content`
    /// leaves nil come from the captured items. Ignored for sources that are not feeds.
    public func addEntry(to source: DemoSource, content: ManualEntry) {
        guard source.isFeed else { return }
        manualEntries[source, default: []].append(ManualAddition(date: Date(), content: content))
    }

    /// The manual entries of `source`: when each was added (oldest first) and what it says.
    /// (Named for the dates the feed's timeline orders them by.)
    func manualEntryDates(for source: DemoSource) -> [ManualAddition] {
        manualEntries[source] ?? []
    }

    /// Counts one request that reached the server for `source` at `path` (query excluded).
    func recordRequest(source: DemoSource, path: String) {
        sourceCounts[source, default: 0] += 1
        if pathCounts[path] != nil || pathCounts.count < Self.maximumTrackedPaths {
            pathCounts[path, default: 0] += 1
        }
    }

    /// Requests that reached the server for `source` (every image path counts for `.images`).
    public func requestCount(for source: DemoSource) -> Int {
        sourceCounts[source] ?? 0
    }

    /// Requests that reached the server for exactly `path` (no query), e.g. `/facts.json`.
    public func requestCount(path: String) -> Int {
        pathCounts[path] ?? 0
    }

    /// Every counter, for `GET /_demo/stats`.
    public func statistics() -> DemoStatistics {
        DemoStatistics(
            sources: Dictionary(uniqueKeysWithValues: DemoSource.allCases.map { ($0.rawValue, sourceCounts[$0] ?? 0) }),
            paths: pathCounts,
            faults: Dictionary(uniqueKeysWithValues: faults.map { ($0.key.rawValue, $0.value.rawValue) })
        )
    }

    /// Heals every source, drops latency overrides and zeroes the counters; manual entries stay.
    public func reset() {
        faults = [:]
        latencyOverrides = [:]
        sourceCounts = [:]
        pathCounts = [:]
    }
}
