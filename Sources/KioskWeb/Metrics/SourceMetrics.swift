import Foundation
import KioskCore
import KioskModel
import KioskSources
import ServiceLifecycle

/// Counts and times the engine's checks from what it announces on the hub: each `checking` …
/// `idle` pair is one check, `changed` or `failed` in between its outcome. Nothing in the engine
/// knows about metrics.
struct SourceMetrics: Service {
    let hub: EventHub
    let metrics: KioskMetrics
    /// The label a source is counted under: the News sources by id; a reader's own feeds share
    /// one label, so 100,000 subscriptions do not make 100,000 series.
    let label: @Sendable (SourceID) -> String
    /// What it is called on the hub (``EventHub/isListening(_:)``).
    static let hubName = "source-metrics"

    func run() async throws {
        let clock = ContinuousClock()
        var started: [SourceID: ContinuousClock.Instant] = [:]
        var outcome: [SourceID: String] = [:]
        let updates = await hub.subscribe(bufferSize: 4_096, name: Self.hubName)
        for await update in updates.cancelOnGracefulShutdown() {
            guard case .event(let event) = update else {
                // Events were missed: the checks under way are not timed.
                started = [:]
                outcome = [:]
                continue
            }
            switch event.kind {
            case .checking(let id):
                started[id] = clock.now
                outcome[id] = "unchanged"
            case .changed(let id, _, _) where started[id] != nil:
                outcome[id] = "changed"
            case .changed:
                continue  // a merged list recomputed, or a warm start: no check
            case .failed(let id, let error):
                metrics.checkFailed(source: label(id), reason: error.kind)
                if started[id] != nil { outcome[id] = "failed" }
            case .idle(let id):
                guard let start = started.removeValue(forKey: id) else { continue }
                metrics.checkFinished(
                    source: label(id), outcome: outcome.removeValue(forKey: id) ?? "unchanged", duration: clock.now - start)
            }
        }
    }
}

extension SourceError {
    /// The failure's kind, as a metric label (a bounded set, never the message).
    var kind: String {
        switch self {
        case .fetch(let error):
            switch error {
            case .timeout: "timeout"
            case .status: "status"
            case .tooLarge: "too_large"
            case .tooManyRedirects: "redirects"
            case .network: "network"
            case .invalidURL: "invalid_url"
            case .refused: "refused"
            case .tls: "tls"
            }
        case .parse, .unreadable: "parse"
        case .superseded: "superseded"
        case .notConfigured: "not_configured"
        }
    }
}
