import Foundation
import KioskCore
import KioskModel
import KioskSources
import KioskStore
import Logging

/// Replicas sharing a database number events alike: what a check found and what a user did go
/// through the shared log, and every replica, this one included, sends them on as the log
/// delivers them, under the log's ids. Only the activity indicator stays local, unnumbered.
struct SharedLogNumbering: LiveNumbering {
    private let log: any SharedLog
    /// The merged sources, recomputed from delivered parts (the log carries only feeds).
    private let merged: [MergedSource]
    /// Called when another replica's user changed their subscriptions (the reader reads them anew).
    private let subscriptionsChanged: @Sendable () async -> Void
    private let logger: Logger
    /// The users' events this replica appends to the log, in order, by a task of its own: a slow
    /// database never holds up a request that records an opened headline or a reader change.
    /// (Checks' outcomes are written by the engine's store, with the feed's state.)
    private let outbox: AsyncStream<SharedLogRecord>
    private let outboxInput: AsyncStream<SharedLogRecord>.Continuation
    /// Pokes the task that reads the subscriptions again; bursts become one reload.
    private let reloads: AsyncStream<Void>
    private let reloadInput: AsyncStream<Void>.Continuation

    init(
        log: any SharedLog, merged: [MergedSource], subscriptionsChanged: @escaping @Sendable () async -> Void,
        logger: Logger
    ) {
        self.log = log
        self.merged = merged
        self.subscriptionsChanged = subscriptionsChanged
        self.logger = logger
        (outbox, outboxInput) = AsyncStream.makeStream(of: SharedLogRecord.self, bufferingPolicy: .bufferingOldest(100_000))
        (reloads, reloadInput) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    func run(_ broadcaster: LiveBroadcaster) async {
        await withDiscardingTaskGroup { group in
            // Only the News sources' state is read with their records (pages draw their lists);
            // any other feed's change is told to its followers from the record alone.
            let audiences = broadcaster.audiences
            group.addTask {
                await log.follow(needsState: { audiences.isPublic($0) }) { item in
                    await broadcaster.perform { broadcaster in await deliver(item, in: broadcaster) }
                }
            }
            group.addTask { await drainOutbox() }
            group.addTask {
                for await _ in reloads { await subscriptionsChanged() }
            }
        }
    }

    // MARK: - This replica's hub

    func relay(_ update: HubUpdate, in broadcaster: isolated LiveBroadcaster) async -> [LiveStep] {
        switch update {
        case .resync(let snapshot) where broadcaster.started:
            // Entries come from the log; the hub's are only this replica's view. A check's
            // outcome dropped for this subscriber is in the log all the same (the store wrote it
            // with the state).
            [.checking(snapshot.checking)]
        case .resync(let snapshot):
            [.take(snapshot)]
        case .event(let event):
            await relay(event, in: broadcaster)
        }
    }

    /// One engine event: activity goes to pages at once, unnumbered; a check's outcome is
    /// already in the log; a warm start's state is taken in quietly.
    private func relay(_ event: EngineEvent, in broadcaster: isolated LiveBroadcaster) async -> [LiveStep] {
        let audience = await broadcaster.audience(of: event.source)
        switch event.kind {
        case .checking, .idle:
            return [.activity(event, audience: audience)]
        case .changed(let id, _, _), .failed(let id, _):
            if let merge = merged.first(where: { $0.id == id }) {
                // Recomputed from the parts as the log delivers them; before any, the warm start's.
                return merge.parts.contains(where: broadcaster.state.checking.contains) ? [] : [.takeQuietly(event)]
            }
            guard broadcaster.state.checking.contains(id) else { return [.takeQuietly(event)] }
            // The check's outcome went to the log with the feed's state, in one transaction
            // (`SourceStateStore.saveSourceState(_:for:announcing:)`): pages hear it as the log
            // delivers it, even should this replica die now. A followed feed's entries are kept
            // here too, as no record carries them.
            if case .changed = event.kind, !broadcaster.audiences.isPublic(id) { return [.takeQuietly(event)] }
            return []
        }
    }

    // MARK: - Users' events

    func publish(_ event: LiveEvent, to audience: Set<UserID>?, in broadcaster: isolated LiveBroadcaster) -> UInt64? {
        outboxInput.yield(.frame(event: event.name.rawValue, json: event.json, audience: audience.map { $0.map(\.rawValue).sorted() }))
        return broadcaster.state.sequence
    }

    func prepareCatchUp(after last: UInt64, in broadcaster: isolated LiveBroadcaster) async {
        // A page that moved here from a replica a little ahead: wait (2 s at most) until this
        // one has read the log that far, so its catch-up is exact rather than a resync.
        for _ in 0..<40 where broadcaster.state.sequence < last { try? await Task.sleep(for: .milliseconds(50)) }
    }

    /// Most records a page is replayed from the log; a longer gap is a resync.
    static let historyLimit = 10_000

    /// What a page missed beyond this replica's window, from the log: every event meant for
    /// `user` under its log id (reader changes and opened headlines as they were; followed
    /// feeds' changes and failures as their records say; a News list's changes with the list as
    /// it is now on the last of them, the earlier ones numbered and without rows).
    func history(after last: UInt64, for user: UserID, in broadcaster: isolated LiveBroadcaster) async
        -> (frames: [SSEFrame], through: UInt64)?
    {
        let through = broadcaster.state.sequence
        guard last < through,
            let items = try? await log.records(after: Int64(last), through: Int64(through), limit: Self.historyLimit)
        else { return nil }
        let audiences = broadcaster.audiences
        var lastChange: [SourceID: Int64] = [:]
        for item in items {
            if case .noted(let id, let source, .changed) = item, audiences.isPublic(source) { lastChange[source] = id }
        }
        var mergedLast: [Int64: [SourceID]] = [:]
        for merge in merged {
            if let id = merge.parts.compactMap({ lastChange[$0] }).max() { mergedLast[id, default: []].append(merge.id) }
        }
        var frames: [SSEFrame] = []
        for item in items {
            switch item {
            case .frame(let id, let name, let json, let users):
                guard users.map({ $0.contains(user.rawValue) }) ?? true, let event = LiveEvent(shared: name, json: json) else {
                    continue
                }
                frames.append(SSEFrame(id: UInt64(max(0, id)), event, audience: users.map { Set($0.map(UserID.init)) }))
            case .noted(let id, let source, let note):
                let number = UInt64(max(0, id))
                if audiences.isPublic(source) {
                    let isLast = lastChange[source] == id
                    frames.append(broadcaster.replayed(note, of: source, withList: isLast, id: number))
                    for merge in mergedLast[id] ?? [] {
                        frames.append(broadcaster.replayed(.changed(added: nil), of: merge, withList: true, id: number))
                    }
                } else if await audiences.follows(user, source) {
                    frames.append(SSEFrame(id: number, broadcaster.notice(note, of: source), audience: [user]))
                }
            default:
                continue
            }
        }
        return (frames, through)
    }

    // MARK: - The log

    /// Appends what this replica found, in order. An append that fails (the database is away)
    /// is tried again until it lands: pages hear of it late, never under a made-up number.
    private func drainOutbox() async {
        for await record in outbox {
            var failures = 0
            while !Task.isCancelled {
                do {
                    try await log.append(record)
                    break
                } catch {
                    failures += 1
                    if failures == 1 { logger.warning("cannot write to the live log; retrying", metadata: ["error": "\(error)"]) }
                    try? await Task.sleep(for: .milliseconds(min(2_000, 100 * failures)))
                }
            }
        }
    }

    /// What a record the log delivers changes, in order, under its ids.
    private func deliver(_ item: SharedLogItem, in broadcaster: isolated LiveBroadcaster) async -> [LiveStep] {
        switch item {
        case .start(let id):
            return [.restart(at: UInt64(max(0, id)))]
        case .changed(let id, let source, let entries):
            // The number moves only with the state it numbers (the steps are applied together):
            // a page drawn meanwhile is never numbered ahead of what it shows.
            let sequence = UInt64(max(0, id))
            let audience = await broadcaster.audience(of: source)
            var steps: [LiveStep] = [.advance(to: sequence)]
            var mergedSteps: [LiveStep] = []
            for merge in merged where merge.parts.contains(source) {
                mergedSteps.append(.applyMerged(merge, audience: await broadcaster.audience(of: merge.id), id: sequence))
            }
            let event = EngineEvent(sequence: broadcaster.state.sources.sequence + 1, kind: .changed(source, entries))
            steps.append(.apply(event, audience: audience, id: sequence))
            return steps + mergedSteps
        case .failed(let id, let source, let error):
            let sequence = UInt64(max(0, id))
            let audience = await broadcaster.audience(of: source)
            let event = EngineEvent(sequence: broadcaster.state.sources.sequence + 1, kind: .failed(source, error))
            return [.advance(to: sequence), .apply(event, audience: audience, id: sequence)]
        case .noted(let id, let source, let note):
            // A feed no page here draws: its followers with a page open hear of it, from the
            // record alone (no read of its entries, nor of who follows it, per record).
            let sequence = UInt64(max(0, id))
            let listeners = await broadcaster.listeners(of: source)
            guard !listeners.isEmpty else { return [.advance(to: sequence)] }
            return [.advance(to: sequence), .tell(note, of: source, to: listeners, id: sequence)]
        case .frame(let id, let name, let json, let users):
            let sequence = UInt64(max(0, id))
            let audience = users.map { Set($0.map(UserID.init)) }
            guard let event = LiveEvent(shared: name, json: json) else {
                // Nothing a page could read (a newer replica's kind of event): its number passes.
                logger.debug("a shared event no page reads", metadata: ["event": "\(name)"])
                return [.advance(to: sequence)]
            }
            var steps: [LiveStep] = []
            switch event {
            case .reader(let message) where message.kind == .subscriptions:
                await broadcaster.audiences.forget()
                reloadInput.yield()
            case .opened(let message):
                if let user = audience?.first {
                    steps.append(
                        .rememberOpened(OpenedHeadline(title: message.title, path: message.path, openedAt: Date()), user: user))
                }
            default:
                break
            }
            return steps + [.advance(to: sequence), .broadcast(event, audience: audience, id: sequence)]
        }
    }
}
