import CoreMetrics
import Prometheus

/// What Kiosk counts and times, served as Prometheus' text format on `/metrics`.
///
/// Every metric is made through the factory held here, never the process-wide `MetricsSystem`
/// (nothing bootstraps it), so each app, test and benchmark has a registry of its own.
public struct KioskMetrics: Sendable {
    /// Where the metrics live; ``exposition()`` writes them out.
    public let registry: PrometheusCollectorRegistry
    private let factory: PrometheusMetricsFactory

    /// Metric names (Prometheus' conventions: a unit suffix, `_total` on counters).
    enum Name {
        static let checks = "kiosk_source_checks_total"
        static let checkDuration = "kiosk_source_check_duration_seconds"
        static let failures = "kiosk_source_failures_total"
        static let sseClients = "kiosk_sse_clients"
        static let requests = "kiosk_http_requests_total"
        static let requestDuration = "kiosk_http_request_duration_seconds"
        static let storeWriteDuration = "kiosk_store_write_duration_seconds"
    }

    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        var factory = PrometheusMetricsFactory(registry: registry)
        // Store writes take milliseconds: finer buckets than the default's 5 ms floor.
        factory.durationHistogramBuckets[Name.storeWriteDuration] = [
            .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5),
            .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .seconds(1),
        ]
        self.factory = factory
    }

    /// A source's check ended: `outcome` is `changed`, `unchanged` or `failed`.
    func checkFinished(source: String, outcome: String, duration: Duration) {
        Counter(label: Name.checks, dimensions: [("source", source), ("outcome", outcome)], factory: factory).increment()
        Timer(label: Name.checkDuration, dimensions: [("source", source)], factory: factory).recordInterval(duration)
    }

    /// A source's check failed; `reason` is the error's kind (`timeout`, `status`, `parse`...).
    func checkFailed(source: String, reason: String) {
        Counter(label: Name.failures, dimensions: [("source", source), ("reason", reason)], factory: factory).increment()
    }

    /// A request was answered. `route` is the router's pattern (`/news/{source}/{key}`), never
    /// the path itself, so a scan of random URLs adds no series.
    func requestServed(route: String, method: String, status: Int, duration: Duration) {
        let dimensions = [("route", route), ("method", method), ("status", String(status))]
        Counter(label: Name.requests, dimensions: dimensions, factory: factory).increment()
        Timer(label: Name.requestDuration, dimensions: [("route", route)], factory: factory).recordInterval(duration)
    }

    /// How many event streams are open now.
    func eventStreams(_ count: Int) {
        Gauge(label: Name.sseClients, factory: factory).record(count)
    }

    /// How long a store write took (give this to the store, see `StoreWriteTimer`).
    public func storeWrite(_ duration: Duration) {
        Timer(label: Name.storeWriteDuration, factory: factory).recordInterval(duration)
    }

    /// Every metric in Prometheus' text exposition format.
    public func exposition() -> String {
        registry.emitToString()
    }
}

extension Timer {
    fileprivate func recordInterval(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        recordNanoseconds(max(0, seconds * 1_000_000_000 + attoseconds / 1_000_000_000))
    }
}
