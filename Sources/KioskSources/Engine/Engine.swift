import Foundation
import KioskCore
import Logging
import ServiceLifecycle

// The live heart of the News screen: one task per feed, each on its own clock, so a source that
// takes 3 s never delays another's update. Fetching and parsing happen outside the actor; the
// actor only records results and publishes them to the hub, in the order they complete.

/// Polls every feed of the catalogue and announces each change on the hub the moment it happens.
public actor Engine: Service {
    private let feeds: [PolledSource]
    private let merged: [MergedSource]
    private let checker: FeedChecker
    private let hub: EventHub
    private let clock: any Clock<Duration>
    private let backoff: Backoff
    private let logger: Logger
    private let limiter: CheckLimiter
    private var random: SystemRandomNumberGenerator
    private var states: [SourceID: SourceState] = [:]

    /// What the engine remembers of a feed between checks.
    public struct SourceState: Sendable, Hashable {
        public var entries: [Entry]?
        public var validators = Validators()
        public var failures = 0
        public var lastError: SourceError?

        public init(entries: [Entry]? = nil, validators: Validators = Validators()) {
            self.entries = entries
            self.validators = validators
        }
    }

    /// - Parameters:
    ///   - maxConcurrentChecks: checks in flight at once; the others wait their turn in the engine.
    ///   - initialStates: what a store remembered (entries and validators), for a warm start.
    public init(
        feeds: [PolledSource], merged: [MergedSource] = [], fetcher: any Fetching, hub: EventHub,
        clock: any Clock<Duration> = ContinuousClock(), backoff: Backoff = Backoff(),
        limits: ParserLimits = .default, maxConcurrentChecks: Int = 64, initialStates: [SourceID: SourceState] = [:],
        logger: Logger = Logger(label: "kiosk.engine")
    ) {
        self.feeds = feeds
        self.merged = merged
        self.checker = FeedChecker(fetcher: fetcher, limits: limits)
        self.hub = hub
        self.clock = clock
        self.backoff = backoff
        self.logger = logger
        self.random = SystemRandomNumberGenerator()
        self.limiter = CheckLimiter(limit: maxConcurrentChecks)
        self.states = initialStates
    }

    /// Runs every feed's loop until the task is cancelled or the service group shuts down.
    public func run() async throws {
        await publishWarmStart()
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                for feed in self.feeds {
                    group.addTask { await self.poll(feed) }
                }
            }
        }
    }

    /// The state of one feed (for tests and the store).
    public func state(of id: SourceID) -> SourceState? { states[id] }

    // MARK: - One feed's loop

    private nonisolated func poll(_ feed: PolledSource) async {
        while !Task.isCancelled {
            await limiter.acquire()
            let (validators, previous) = await begin(feed.id)
            let outcome = await checker.check(feed, validators: validators, previous: previous)
            await limiter.release()
            // A check cut short by shutdown is no outcome: not a failure to announce.
            if Task.isCancelled {
                await hub.publish(.idle(feed.id))
                return
            }
            let wait = await record(outcome, for: feed)
            do {
                try await clock.sleep(for: wait)
            } catch {
                return  // cancelled
            }
        }
    }

    private func begin(_ id: SourceID) async -> (Validators, [Entry]?) {
        await hub.publish(.checking(id))
        let state = states[id] ?? SourceState()
        return (state.validators, state.entries)
    }

    /// Folds a check's outcome into the state, publishes what changed, and says how long to wait.
    private func record(_ outcome: FeedChecker.Outcome, for feed: PolledSource) async -> Duration {
        var state = states[feed.id] ?? SourceState()
        let wasFailing = state.failures > 0
        var wait = feed.interval
        switch outcome {
        case .unchanged(let validators):
            state.validators = validators
            state.failures = 0
            state.lastError = nil
            states[feed.id] = state
            // Healing is a change for the screen: the error goes away even if the entries don't.
            if wasFailing, let entries = state.entries { await announce(entries, for: feed.id) }
        case .changed(let entries, let validators):
            state.entries = entries
            state.validators = validators
            state.failures = 0
            state.lastError = nil
            states[feed.id] = state
            await announce(entries, for: feed.id)
        case .failed(let error, let retryAfter):
            state.failures += 1
            state.lastError = error
            states[feed.id] = state
            logger.warning("source failed", metadata: ["source": "\(feed.id)", "error": "\(error)"])
            await hub.publish(.failed(feed.id, error))
            wait = backoff.delay(after: state.failures, interval: feed.interval, using: &random)
            if let retryAfter { wait = max(wait, retryAfter) }
        }
        await hub.publish(.idle(feed.id))
        return wait
    }

    /// Publishes a feed's new entries, then those of every merged source that includes it.
    private func announce(_ entries: [Entry], for id: SourceID) async {
        await hub.publish(.changed(id, entries))
        let affected = merged.filter { $0.parts.contains(id) }
        guard !affected.isEmpty else { return }
        let current = states.compactMapValues(\.entries)
        for source in affected {
            await hub.publish(.changed(source.id, source.merge(current)))
        }
    }

    /// Entries a store remembered are on screen before any source answers.
    private func publishWarmStart() async {
        for feed in feeds {
            if let entries = states[feed.id]?.entries { await hub.publish(.changed(feed.id, entries)) }
        }
        let current = states.compactMapValues(\.entries)
        for source in merged where source.parts.contains(where: { current[$0] != nil }) {
            await hub.publish(.changed(source.id, source.merge(current)))
        }
    }
}
