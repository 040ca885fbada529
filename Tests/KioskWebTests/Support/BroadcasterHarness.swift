import Foundation
import KioskCore
import KioskSQLite
import KioskSources
import KioskStore
import KioskTesting
@testable import KioskWeb
import Logging
import Testing

/// A ``LiveBroadcaster`` running over a hub and an in-memory store, without HTTP.
struct BroadcasterHarness: Sendable {
    let hub: EventHub
    let store: SQLiteStore
    let live: LiveBroadcaster

    /// Publishes `kind` and waits until the broadcaster has turned it into a frame.
    func publish(_ kind: EngineEvent.Kind) async throws {
        let live = live
        let before = await live.snapshot().sequence
        await hub.publish(kind)
        let relayed = try await eventually { await live.snapshot().sequence > before }
        try #require(relayed, "the broadcaster never relayed \(kind)")
    }

    /// A harmless event that makes one frame.
    func publishActivity(_ number: Int) async throws {
        try await publish(number.isMultiple(of: 2) ? .idle(.business) : .checking(.business))
    }
}

/// The list renderer the broadcaster tests use: a marker naming the source and its entry count.
let markerRenderer: LiveBroadcaster.ListRenderer = { source, sources in
    source == .business ? RenderedList([("count", el("li") { "business \(sources.entries[source]?.count ?? 0)" })]) : nil
}

/// Runs a broadcaster (as the app does, until cancelled) for the duration of `body`.
func withBroadcaster(
    clientBuffer: Int = 128, replayLimit: Int = 512, heartbeatInterval: Duration = .seconds(3600),
    hub: EventHub = EventHub(), store: SQLiteStore? = nil, firstSequence: UInt64 = 0,
    _ body: (BroadcasterHarness) async throws -> Void
) async throws {
    let store = try store ?? SQLiteStore.inMemoryDatabase()
    let live = LiveBroadcaster(
        hub: hub, store: store, names: [.business: "Business"], renderList: markerRenderer,
        heartbeatInterval: heartbeatInterval, clientBuffer: clientBuffer, replayLimit: replayLimit,
        firstSequence: firstSequence, logger: .quiet)
    let running = Task { try await live.run() }
    do {
        try await waitUntilListening(live)
        try await body(BroadcasterHarness(hub: hub, store: store, live: live))
    } catch {
        running.cancel()
        _ = await running.result
        throw error
    }
    running.cancel()
    _ = await running.result
}
