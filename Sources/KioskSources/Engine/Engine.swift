import Foundation
import KioskCore
import KioskModel
import Logging
import ServiceLifecycle

// The live heart of the News screen: one task per feed, each on its own clock, so a source that
// takes 3 s never delays another's update. Fetching and parsing happen outside the actor; the
// actor only records results and publishes them to the hub, in the order they complete.
// With a store, every outcome that changed something is written before it is published, and a
// restart begins with what the store remembered; a store that fails never stops the polling.
//
// Feeds come and go while the engine runs (users edit their subscriptions). The actor holds each
// feed's current definition under a generation number; `run()` starts a loop, a child of its task
// group, for every generation it has not started yet. A loop reads the definition at every turn
// and ends at the first turn its generation is no longer the feed's, so a feed removed and added
// again is polled by the new loop only. A loop's pause is raced against its wake-up stream, which
// an unsubscribe finishes and a new interval pokes, so neither waits out an old interval.

/// Polls every subscribed feed and announces each change on the hub the moment it happens.
public actor Engine: Service {
    private let merged: [MergedSource]
    private let checker: FeedChecker
    private let hub: EventHub
    private let clock: any Clock<Duration>
    private let backoff: Backoff
    private let logger: Logger
    private let limiter: CheckLimiter
    /// The News sources' own slots (feeds checked every few seconds): thousands of reader feeds
    /// waiting their turn never hold back the 5 s clocks.
    private let fastLimiter: CheckLimiter
    private var random: SystemRandomNumberGenerator
    private var states: [SourceID: SourceState] = [:]
    private let store: (any SourceStateStore)?
    /// Who may check which feed when replicas share the database; nil: this engine checks all.
    private let coordinator: (any CheckCoordinator)?
    /// Store failures already logged, so a full disk is one warning, not one per check.
    private var storeProblems: Set<String> = []
    /// The feeds polled now, each under the generation of the loop that owns it.
    private var subscriptions: [SourceID: FeedLoop] = [:]
    /// Feeds subscribed since `run()` last started loops, oldest first (ids may repeat).
    private var pending: [SourceID] = []
    private var lastGeneration: UInt64 = 0
    /// Tells `run()` that `pending` has something; one buffered poke is enough for any number.
    private let pokes: AsyncStream<Void>
    private let poke: AsyncStream<Void>.Continuation

    /// A polled feed: its current definition and what its loop needs between checks.
    private struct FeedLoop {
        var feed: PolledSource
        /// Which loop owns the feed; a loop of an older generation ends at its next turn.
        let generation: UInt64
        /// Reaches the loop's pause; nil until `run()` has started the loop.
        var wake: AsyncStream<Wake>.Continuation?
        /// The source's last `Retry-After`, a floor under the backoff until it answers again.
        var retryAfter: Duration?
        /// What the source's last answer asked for (headers and `<ttl>`), a floor under the
        /// interval after a success.
        var freshness: FeedChecker.FreshnessHint?
    }

    /// What ends a loop's pause early, or on time.
    private enum Wake: Sendable {
        /// The feed's interval (or url, whose freshness hint is gone) changed: the pause is
        /// planned again.
        case intervalChanged
        /// The pause with this number is over (a later pause ignores an earlier one's timer).
        case timer(UInt64)
    }

    /// What a loop is handed when `run()` starts it.
    private struct Loop: Sendable {
        let id: SourceID
        let generation: UInt64
        let wakes: AsyncStream<Wake>
        /// The loop's own end of its wake-up stream, for its pause's timer.
        let signal: AsyncStream<Wake>.Continuation
    }

    /// - Parameters:
    ///   - feeds: the feeds polled from the start; ``subscribe(_:)`` and ``unsubscribe(_:)`` change
    ///     them later.
    ///   - kinds: the kinds of source it can read; a source of another kind fails, unfetched.
    ///   - maxConcurrentChecks: checks in flight at once; the others wait their turn in the engine.
    ///   - initialStates: what a store remembered (entries and validators), for a warm start.
    ///   - store: where each outcome is written before it is published; its states, loaded when
    ///     the engine starts, win over `initialStates`.
    public init(
        feeds: [PolledSource] = [], merged: [MergedSource] = [], fetcher: any Fetching, hub: EventHub,
        clock: any Clock<Duration> = ContinuousClock(), backoff: Backoff = Backoff(),
        limits: ParserLimits = .polled, kinds: SourceKinds = .builtIn, maxConcurrentChecks: Int = 64,
        initialStates: [SourceID: SourceState] = [:],
        store: (any SourceStateStore)? = nil, coordinator: (any CheckCoordinator)? = nil,
        logger: Logger = Logger(label: "kiosk.engine")
    ) {
        self.merged = merged
        self.checker = FeedChecker(fetcher: fetcher, limits: limits, kinds: kinds)
        self.hub = hub
        self.clock = clock
        self.backoff = backoff
        self.logger = logger
        self.random = SystemRandomNumberGenerator()
        self.limiter = CheckLimiter(limit: maxConcurrentChecks)
        self.fastLimiter = CheckLimiter(limit: 8)
        self.states = initialStates
        self.store = store
        self.coordinator = coordinator
        (pokes, poke) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        // What `subscribe` does, inlined: a synchronous initializer cannot call into the actor.
        for feed in feeds {
            if subscriptions[feed.id] != nil {
                subscriptions[feed.id]?.feed = feed
            } else {
                lastGeneration += 1
                subscriptions[feed.id] = FeedLoop(feed: feed, generation: lastGeneration)
                pending.append(feed.id)
            }
        }
        poke.yield()
    }

    /// Runs every feed's loop, and those of feeds subscribed later, until the task is cancelled or
    /// the service group shuts down. With no feeds it waits for some rather than returning, since
    /// a service that returns ends its whole group.
    public func run() async throws {
        await loadStoredStates()
        await publishWarmStart()
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                // Ends when the task is cancelled: iterating an AsyncStream stops at cancellation.
                for await _ in self.pokes {
                    for loop in await self.startPendingLoops() {
                        group.addTask { await self.poll(loop) }
                    }
                }
            }
        }
    }

    /// Starts polling `feed` now (a first check at once), or, when a feed with its id is already
    /// polled, uses its new url/name/interval/headers from its next check on.
    ///
    /// A new interval also applies to the pause under way (counted from the end of the last
    /// check). A new url, kind or headers leaves the validators and the freshness hint unused,
    /// as they answered the old request; an answer to the old request that arrives after this
    /// call is dropped and the feed checked again.
    public func subscribe(_ feed: PolledSource) {
        guard var subscription = subscriptions[feed.id] else {
            lastGeneration += 1
            subscriptions[feed.id] = FeedLoop(feed: feed, generation: lastGeneration)
            pending.append(feed.id)
            poke.yield()
            return
        }
        let old = subscription.feed
        guard old != feed else { return }
        subscription.feed = feed
        // The validators carry their request's key, so a check never sends them for the new one;
        // the freshness hint belongs to the old request too.
        if old.requestKey != feed.requestKey { subscription.freshness = nil }
        subscriptions[feed.id] = subscription
        // A new url or kind also replans: the pause under way may be the old answer's freshness hint.
        if old.interval != feed.interval || old.url != feed.url || old.kind != feed.kind {
            subscription.wake?.yield(.intervalChanged)
        }
    }

    /// Stops polling `id`: no check of it starts after this returns (one in flight may finish;
    /// its outcome is dropped, not published); its state is forgotten unless it is one of the
    /// merged sources' parts. Publishes nothing else.
    ///
    /// The loop ends at once if it is pausing, otherwise when its check ends. The merged parts
    /// keep their state so the merged lists stay whole; the hub keeps its last entries either way.
    public func unsubscribe(_ id: SourceID) {
        guard let subscription = subscriptions.removeValue(forKey: id) else { return }
        subscription.wake?.finish()
        if !merged.contains(where: { $0.parts.contains(id) }) { states[id] = nil }
    }

    /// The feeds being polled now, for tests.
    public func polledFeeds() -> [PolledSource] {
        subscriptions.values.sorted { $0.generation < $1.generation }.map(\.feed)
    }

    /// The state of one feed (for tests and the store).
    public func state(of id: SourceID) -> SourceState? { states[id] }

    /// Hands `run()` a loop for every subscription it has not started yet, oldest first.
    private func startPendingLoops() -> [Loop] {
        var loops: [Loop] = []
        for id in pending {
            guard var subscription = subscriptions[id], subscription.wake == nil else { continue }
            // Unbounded: a pause takes what came, and at most a poke and a timer wait at a time.
            let (wakes, signal) = AsyncStream.makeStream(of: Wake.self, bufferingPolicy: .unbounded)
            subscription.wake = signal
            subscriptions[id] = subscription
            loops.append(Loop(id: id, generation: subscription.generation, wakes: wakes, signal: signal))
        }
        pending.removeAll()
        return loops
    }

    /// Whether `loop` still owns its feed.
    private func owns(_ loop: Loop) -> Bool {
        subscriptions[loop.id]?.generation == loop.generation
    }

    // MARK: - One feed's loop

    private nonisolated func poll(_ loop: Loop) async {
        let clock = clock  // a local: the existential is only opened for `pause` from a plain value
        var wakes = loop.wakes.makeAsyncIterator()
        var pauses: UInt64 = 0
        while !Task.isCancelled {
            let limiter = await limiter(for: loop)
            await limiter.acquire()
            if let coordinator {
                // Replicas: check only with the feed's lease, from the state as stored. The claim
                // counts against the limit too, so 100,000 feeds starting at once queue here, not
                // in the database's pool.
                guard let feed = await feed(of: loop) else {
                    await limiter.release()
                    return
                }
                switch await coordinator.claim(feed, holdsState: await holdsState(of: loop.id)) {
                case .notBefore(let wait):
                    await limiter.release()
                    guard await pause(on: clock, for: wait, loop, &wakes, &pauses) else { return }
                    continue
                case .granted(let stored):
                    await adopt(stored, for: loop.id)
                }
            }
            guard let start = await begin(loop) else {
                await limiter.release()
                await coordinator?.finished(loop.id, nextIn: .zero)  // the lease, given back
                return
            }
            let outcome = await checker.check(
                start.feed, validators: start.validators, previous: start.previous, feedTTL: start.feedTTL)
            await limiter.release()
            // A check cut short by shutdown is no outcome: not a failure to announce.
            if Task.isCancelled {
                await hub.publish(.idle(loop.id))
                await coordinator?.finished(loop.id, nextIn: .zero)
                return
            }
            guard let wait = await record(outcome, of: start.feed, by: loop) else {
                await coordinator?.finished(loop.id, nextIn: .zero)
                return
            }
            await coordinator?.finished(loop.id, nextIn: wait)
            guard await pause(on: clock, for: wait, loop, &wakes, &pauses) else { return }
        }
    }

    /// Waits `wait` from now, planned again from the feed's current definition whenever its
    /// interval changes. False when the loop should end (unsubscribed or shutting down).
    private nonisolated func pause(
        on clock: some Clock<Duration>, for wait: Duration, _ loop: Loop, _ wakes: inout AsyncStream<Wake>.Iterator,
        _ pauses: inout UInt64
    ) async -> Bool {
        let start = clock.now
        var wait = wait
        while true {
            let remaining = wait - start.duration(to: clock.now)
            if remaining <= .zero { return true }
            pauses += 1
            let timer = pauses
            let wake: Wake? = await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    do {
                        try await clock.sleep(for: remaining)
                        loop.signal.yield(.timer(timer))
                    } catch {}  // cancelled: woken early, or shutdown
                }
                var wake: Wake?
                while let next = await wakes.next() {
                    if case .timer(let number) = next, number != timer { continue }  // an earlier pause's
                    wake = next
                    break
                }
                group.cancelAll()
                return wake
            }
            switch wake {
            case nil: return false  // the stream finished (unsubscribed) or the task was cancelled
            case .timer?: return true
            case .intervalChanged?:
                guard let planned = await plannedWait(loop) else { return false }
                wait = planned
            }
        }
    }

    /// The fast lane for feeds checked more often than a minute (the News sources), the shared
    /// one for the rest.
    private func limiter(for loop: Loop) -> CheckLimiter {
        guard let interval = subscriptions[loop.id]?.feed.interval, interval < Self.shortestHintedInterval else {
            return limiter
        }
        return fastLimiter
    }

    /// Whether the engine has a state for the feed (it forgets one when the feed is unsubscribed).
    private func holdsState(of id: SourceID) -> Bool { states[id] != nil }

    /// The current definition of `loop`'s feed; nil when the loop no longer owns it.
    private func feed(of loop: Loop) -> PolledSource? {
        guard owns(loop) else { return nil }
        return subscriptions[loop.id]?.feed
    }

    /// Takes the stored state of a feed this replica was granted (another may have checked it
    /// since), so the check compares with, and sends the validators of, the latest answer.
    private func adopt(_ stored: SourceState?, for id: SourceID) {
        guard let stored else { return }
        states[id] = stored
    }

    /// The check's start: the feed's current definition and what it remembers, or nil when
    /// `loop` no longer owns the feed.
    private func begin(_ loop: Loop) async -> (
        feed: PolledSource, validators: Validators, previous: [Entry]?, feedTTL: Duration?
    )? {
        guard owns(loop) else { return nil }
        await hub.publish(.checking(loop.id))
        // Read after publishing: an unsubscribe may have run meanwhile, and no check starts after it.
        guard let subscription = subscriptions[loop.id], owns(loop) else {
            await endDroppedCheck(loop.id)
            return nil
        }
        let state = states[loop.id] ?? SourceState()
        // Validators of another request (an older url, kind or headers, even from before a restart) stay unsent.
        let validators = state.validators.sent(with: subscription.feed.requestKey)
        return (subscription.feed, validators, state.entries, subscription.freshness?.feed)
    }

    /// Folds a check's outcome into the state, publishes what changed, and says how long to wait;
    /// nil when `loop` lost its feed, whose outcome is then dropped.
    private func record(_ outcome: FeedChecker.Outcome, of feed: PolledSource, by loop: Loop) async -> Duration? {
        guard let current = subscriptions[feed.id], current.generation == loop.generation else {
            await endDroppedCheck(feed.id)
            return nil
        }
        guard current.feed.url == feed.url, current.feed.headers == feed.headers, current.feed.kind == feed.kind else {
            // The feed was redefined during the check: the answer is the old request's.
            await hub.publish(.idle(feed.id))
            return .zero
        }
        let previous = states[feed.id]
        var state = previous ?? SourceState()
        let wasFailing = state.failures > 0
        let now = Date()
        var announced: [Entry]?
        var failure: SourceError?
        var retryAfter: Duration?
        // A failure keeps the feed's `<ttl>`: its next 304 still means the body it describes.
        var freshness = FeedChecker.FreshnessHint(feed: current.freshness?.feed)
        switch outcome {
        case .unchanged(var validators, let hint):
            freshness = hint
            validators.request = feed.requestKey
            state.validators = validators
            state.failures = 0
            state.lastError = nil
            state.lastSuccess = now
            // Healing is a change for the screen: the error goes away even if the entries don't.
            if wasFailing { announced = state.entries }
        case .changed(let entries, var validators, let hint):
            freshness = hint
            validators.request = feed.requestKey
            state.entries = entries
            state.validators = validators
            state.failures = 0
            state.lastError = nil
            state.lastSuccess = now
            announced = entries
        case .failed(let error, let after):
            state.failures += 1
            state.lastError = error
            state.lastFailure = now
            failure = error
            retryAfter = after
        }
        states[feed.id] = state
        subscriptions[feed.id]?.retryAfter = retryAfter
        subscriptions[feed.id]?.freshness = freshness
        let record: SharedLogRecord? =
            if let announced {
                .changed(feed.id, added: EntryIdentity.countNew(announced, since: previous?.entries))
            } else if let failure {
                .failed(feed.id, message: failure.description)
            } else {
                nil
            }
        await save(state, previous: previous, for: feed.id, announcing: record)
        if let announced { await announce(announced, by: loop) }
        if let failure {
            logger.warning("source failed", metadata: ["source": "\(feed.id)", "error": "\(failure)"])
            await publish(.failed(feed.id, failure), by: loop)
        }
        guard let wait = plannedWait(loop) else {
            await endDroppedCheck(feed.id)
            return nil
        }
        await hub.publish(.idle(feed.id))
        return wait
    }

    /// How long `loop` waits after a check, from the feed's current interval and failures (the
    /// backoff, with `Retry-After` as its floor; after a success, the source's freshness hint is
    /// the floor, see ``nextWait(interval:hint:)``); nil when the loop no longer owns the feed.
    private func plannedWait(_ loop: Loop) -> Duration? {
        guard let subscription = subscriptions[loop.id], subscription.generation == loop.generation else { return nil }
        let failures = states[loop.id]?.failures ?? 0
        guard failures > 0 else {
            return Self.nextWait(interval: subscription.feed.interval, hint: subscription.freshness?.wait)
        }
        var wait = backoff.delay(after: failures, interval: subscription.feed.interval, using: &random)
        if let retryAfter = subscription.retryAfter { wait = max(wait, retryAfter) }
        return wait
    }

    /// Feeds polled more often than this ignore freshness hints: the built-in News sources poll
    /// every few seconds on purpose, and a CDN's `max-age` must not slow them.
    static let shortestHintedInterval: Duration = .seconds(60)
    /// The longest a freshness hint may hold a feed back; a broken or hostile source must not
    /// park it for longer.
    static let longestHint: Duration = .seconds(24 * 60 * 60)

    /// The wait after a successful check: the feed's interval, or longer when the source asked
    /// for it (`Cache-Control`, `Expires`, `<ttl>`) and the interval is at least a minute.
    static func nextWait(interval: Duration, hint: Duration?) -> Duration {
        guard let hint, interval >= shortestHintedInterval else { return interval }
        return max(interval, min(hint, longestHint))
    }

    /// Ends the `checking` of a check whose outcome was dropped, unless the feed was subscribed
    /// again: its new loop's events say where it stands.
    private func endDroppedCheck(_ id: SourceID) async {
        if subscriptions[id] == nil { await hub.publish(.idle(id)) }
    }

    /// Publishes `kind` if `loop` still owns its feed: after an unsubscribe nothing of the
    /// outcome in flight reaches the hub.
    @discardableResult
    private func publish(_ kind: EngineEvent.Kind, by loop: Loop) async -> Bool {
        guard owns(loop) else { return false }
        await hub.publish(kind)
        return true
    }

    /// Publishes a feed's new entries, then those of every merged source that includes it.
    private func announce(_ entries: [Entry], by loop: Loop) async {
        guard await publish(.changed(loop.id, entries), by: loop) else { return }
        let affected = merged.filter { $0.parts.contains(loop.id) }
        guard !affected.isEmpty else { return }
        let current = states.compactMapValues(\.entries)
        for source in affected {
            guard await publish(source.changed(current), by: loop) else { return }
        }
    }

    /// Entries a store remembered are on screen before any source answers (and so is the error
    /// of a source that was failing when Kiosk stopped).
    private func publishWarmStart() async {
        for feed in polledFeeds() {
            guard let state = states[feed.id] else { continue }
            if let entries = state.entries { await hub.publish(.changed(feed.id, entries)) }
            if state.failures > 0, let error = state.lastError { await hub.publish(.failed(feed.id, error)) }
        }
        let current = states.compactMapValues(\.entries)
        for source in merged where source.parts.contains(where: { current[$0] != nil }) {
            await hub.publish(source.changed(current))
        }
    }

    // MARK: - The store

    /// Reads what the store remembered of the subscribed feeds; a store that cannot be read
    /// means a cold start, not no start.
    private func loadStoredStates() async {
        guard let store else { return }
        do {
            let stored = try await store.loadSourceStates()
            for id in subscriptions.keys {
                if let state = stored[id] { states[id] = state }
            }
        } catch {
            logger.warning("could not read the store; starting cold", metadata: ["error": "\(error)"])
        }
    }

    /// Writes a feed's new state when it differs from `previous` in anything worth keeping, or
    /// when pages must hear of it (`announcing`, written with it: see `SourceStateStore`).
    ///
    /// A failed write (read-only or full disk) is logged once per distinct message and otherwise
    /// ignored: the engine keeps polling and publishing from memory.
    private func save(_ state: SourceState, previous: SourceState?, for id: SourceID, announcing: SharedLogRecord?) async {
        guard let store, announcing != nil || state.needsSaving(comparedTo: previous) else { return }
        do {
            try await store.saveSourceState(state, for: id, announcing: announcing)
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
