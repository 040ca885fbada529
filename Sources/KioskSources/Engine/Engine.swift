import Foundation
import KioskCore
import Logging
import ServiceLifecycle

// The live heart of the News screen: one task per feed, each on its own clock, so a source that
// takes 3 s never delays another's update. Fetching and parsing happen outside the actor; the
// actor only records results and publishes them to the hub, in the order they complete.
// With a store, every outcome that changed something is written before it is published, and a
// restart begins with what the store remembered; a store that fails never stops the polling.

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
    private let store: (any SourceStateStore)?
    /// Store failures already logged, so a full disk is one warning, not one per check.
    private var storeProblems: Set<String> = []

    /// What the engine remembers of a feed between checks.
    public struct SourceState: Sendable, Hashable {
        public var entries: [Entry]?
        public var validators = Validators()
        public var failures = 0
        public var lastError: SourceError?
        /// When the source last answered. A 304 that changes nothing else updates it in memory
        /// only: writing it for every source on every check would be the store's whole load.
        public var lastSuccess: Date?
        /// When the source last failed (`lastError` says why, `failures` drives the backoff).
        public var lastFailure: Date?

        public init(
            entries: [Entry]? = nil, validators: Validators = Validators(), failures: Int = 0,
            lastError: SourceError? = nil, lastSuccess: Date? = nil, lastFailure: Date? = nil
        ) {
            self.entries = entries
            self.validators = validators
            self.failures = failures
            self.lastError = lastError
            self.lastSuccess = lastSuccess
            self.lastFailure = lastFailure
        }
    }

    /// - Parameters:
    ///   - maxConcurrentChecks: checks in flight at once; the others wait their turn in the engine.
    ///   - initialStates: what a store remembered (entries and validators), for a warm start.
    ///   - store: where each outcome is written before it is published; its states, loaded when
    ///     the engine starts, win over `initialStates`.
    public init(
        feeds: [PolledSource], merged: [MergedSource] = [], fetcher: any Fetching, hub: EventHub,
        clock: any Clock<Duration> = ContinuousClock(), backoff: Backoff = Backoff(),
        limits: ParserLimits = .default, maxConcurrentChecks: Int = 64, initialStates: [SourceID: SourceState] = [:],
        store: (any SourceStateStore)? = nil, logger: Logger = Logger(label: "kiosk.engine")
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
        self.store = store
    }

    /// Runs every feed's loop until the task is cancelled or the service group shuts down.
    public func run() async throws {
        await loadStoredStates()
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
        let previous = states[feed.id]
        var state = previous ?? SourceState()
        let wasFailing = state.failures > 0
        let now = Date()
        var wait = feed.interval
        switch outcome {
        case .unchanged(let validators):
            state.validators = validators
            state.failures = 0
            state.lastError = nil
            state.lastSuccess = now
            states[feed.id] = state
            await save(state, previous: previous, for: feed.id)
            // Healing is a change for the screen: the error goes away even if the entries don't.
            if wasFailing, let entries = state.entries { await announce(entries, for: feed.id) }
        case .changed(let entries, let validators):
            state.entries = entries
            state.validators = validators
            state.failures = 0
            state.lastError = nil
            state.lastSuccess = now
            states[feed.id] = state
            await save(state, previous: previous, for: feed.id)
            await announce(entries, for: feed.id)
        case .failed(let error, let retryAfter):
            state.failures += 1
            state.lastError = error
            state.lastFailure = now
            states[feed.id] = state
            await save(state, previous: previous, for: feed.id)
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

    /// Entries a store remembered are on screen before any source answers (and so is the error
    /// of a source that was failing when Kiosk stopped).
    private func publishWarmStart() async {
        for feed in feeds {
            guard let state = states[feed.id] else { continue }
            if let entries = state.entries { await hub.publish(.changed(feed.id, entries)) }
            if state.failures > 0, let error = state.lastError { await hub.publish(.failed(feed.id, error)) }
        }
        let current = states.compactMapValues(\.entries)
        for source in merged where source.parts.contains(where: { current[$0] != nil }) {
            await hub.publish(.changed(source.id, source.merge(current)))
        }
    }

    // MARK: - The store

    /// Reads what the store remembered of this catalogue's feeds; a store that cannot be read
    /// means a cold start, not no start.
    private func loadStoredStates() async {
        guard let store else { return }
        do {
            let stored = try await store.loadSourceStates()
            for feed in feeds {
                if let state = stored[feed.id] { states[feed.id] = state }
            }
        } catch {
            logger.warning("could not read the store; starting cold", metadata: ["error": "\(error)"])
        }
    }

    /// Writes a feed's new state when it differs from `previous` in anything worth keeping.
    ///
    /// A failed write (read-only or full disk) is logged once per distinct message and otherwise
    /// ignored: the engine keeps polling and publishing from memory.
    private func save(_ state: SourceState, previous: SourceState?, for id: SourceID) async {
        guard let store, state.needsSaving(comparedTo: previous) else { return }
        do {
            try await store.saveSourceState(state, for: id)
            if !storeProblems.isEmpty {
                storeProblems.removeAll()
                logger.notice("the store accepts writes again")
            }
        } catch {
            if Task.isCancelled { return }  // shutdown, not a store problem
            let message = String(describing: error)
            if storeProblems.count >= 32 { storeProblems.removeAll() }
            if storeProblems.insert(message).inserted {
                logger.warning(
                    "could not save a source's state; serving from memory",
                    metadata: ["source": "\(id)", "error": "\(message)"])
            }
        }
    }
}
