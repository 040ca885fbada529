import Foundation
import KioskCore
import KioskReader
import KioskSources
import KioskStore
import Logging
import ServiceLifecycle

/// Turns the engine's hub into server-sent events for every open page.
///
/// Each event is rendered once (a list's change as the rows that differ) and the same bytes go to every client,
/// so 10,000 open pages cost one render per change. Events are numbered; the last few hundred are
/// kept so a client that reconnects with `Last-Event-ID` gets exactly what it missed, or a resync
/// when that is too old. A client that falls behind is disconnected rather than slowing anyone:
/// its browser reconnects and resumes.
///
/// Replicas sharing a database (`sharedLog`) number events alike: what a check found and what a
/// user did go through the shared log, and every replica, this one included, sends them on as
/// the log delivers them, under the log's ids. Only the activity indicator stays local, unnumbered.
public actor LiveBroadcaster: Service {
    /// Renders the list a page shows for `source`, or nil when no page shows that source.
    public typealias ListRenderer = @Sendable (_ source: SourceID, _ sources: HubSnapshot) -> RenderedList?

    private let hub: EventHub
    private let store: any KioskStore
    private let names: [SourceID: String]
    private let renderList: ListRenderer
    private let readerChanges: ReaderChanges?
    /// Whether everyone may hear of a source (the News sources); others only their followers.
    private let isPublic: @Sendable (SourceID) -> Bool
    /// Who follows each private source, as last read from the store (dropped when anyone's
    /// subscriptions change).
    private var followers: [SourceID: Set<UserID>] = [:]
    private let heartbeatInterval: Duration
    private let clientBuffer: Int
    private let replayLimit: Int
    private let logger: Logger
    private var state = LiveState()
    private var replay: [SSEFrame] = []
    private var clients: [UUID: (user: UserID, session: String?, continuation: AsyncStream<SSEFrame>.Continuation)] = [:]
    /// Each user's last opened headline, read from the store the first time it is asked for.
    private var opened: [UserID: OpenedHeadline?] = [:]
    private var started = false
    /// Replicas: the log every page event goes through; nil for one Kiosk alone.
    private let sharedLog: (any SharedLog)?
    /// The merged sources, recomputed here from delivered parts when replicas share the work.
    private let merged: [MergedSource]
    /// Sources this replica's engine is checking now: their outcomes are this replica's to log.
    private var inCheck: Set<SourceID> = []
    /// Called when another replica's user changed their subscriptions (the reader reads them anew).
    private let subscriptionsChanged: @Sendable () async -> Void
    /// What this replica appends to the shared log, in order, by a task of its own: a slow
    /// database never holds up the relay of the hub (nor a request that records an opened headline).
    private let outbox: AsyncStream<SharedLogRecord>
    private let outboxInput: AsyncStream<SharedLogRecord>.Continuation
    /// Pokes the task that reads the subscriptions again; bursts become one reload.
    private let reloads: AsyncStream<Void>
    private let reloadInput: AsyncStream<Void>.Continuation
    /// Bumped whenever anyone's subscriptions change: a follower list read before is not cached.
    private var followersGeneration: UInt64 = 0

    /// - Parameters:
    ///   - names: each source's display name, for announcements and errors.
    ///   - clientBuffer: frames held for a slow client before it is disconnected to resume later.
    ///   - firstSequence: the number events count on from; nil, this run's start time in ms.
    public init(
        hub: EventHub, store: any KioskStore, names: [SourceID: String], renderList: @escaping ListRenderer,
        readerChanges: ReaderChanges? = nil, isPublic: @escaping @Sendable (SourceID) -> Bool = { _ in true },
        heartbeatInterval: Duration = .seconds(15), clientBuffer: Int = 128, replayLimit: Int = 512,
        firstSequence: UInt64? = nil, sharedLog: (any SharedLog)? = nil, merged: [MergedSource] = [],
        subscriptionsChanged: @escaping @Sendable () async -> Void = {}, logger: Logger = Logger(label: "kiosk.live")
    ) {
        self.hub = hub
        self.store = store
        self.names = names
        self.renderList = renderList
        self.readerChanges = readerChanges
        self.isPublic = isPublic
        self.heartbeatInterval = heartbeatInterval
        self.clientBuffer = clientBuffer
        self.replayLimit = replayLimit
        self.logger = logger
        self.sharedLog = sharedLog
        self.merged = merged
        self.subscriptionsChanged = subscriptionsChanged
        (outbox, outboxInput) = AsyncStream.makeStream(of: SharedLogRecord.self, bufferingPolicy: .bufferingOldest(100_000))
        (reloads, reloadInput) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        // Numbers start at this run's start time in ms, so an id from before a restart is always
        // older than anything this run can replay: such a browser is resynced, never half-served.
        state.sequence = firstSequence ?? UInt64(max(0, Date().timeIntervalSince1970 * 1000))
    }

    public func run() async throws {
        let subscription = await hub.subscribe(bufferSize: 4096)
        let readerStream = await readerChanges?.subscribe()
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask { await self.relay(subscription) }
                if let readerStream {
                    group.addTask {
                        for await change in readerStream { await self.announce(change) }
                    }
                }
                group.addTask { await self.beat() }
                if let log = self.sharedLog {
                    group.addTask { await log.follow { item in await self.deliver(item) } }
                    group.addTask { await self.drainOutbox(to: log) }
                    group.addTask {
                        for await _ in self.reloads { await self.subscriptionsChanged() }
                    }
                }
            }
        }
        finishAll()
    }

    /// The state to draw a page from; the page then streams events after `sequence`.
    public func snapshot() -> LiveState { state }

    /// Number of connected event streams (for tests and the benchmark).
    public var clientCount: Int { clients.count }

    // MARK: - Clients

    /// A client's event stream. `lastEventID` is the last sequence number it has seen (from the
    /// page it drew, or the browser's `Last-Event-ID` on reconnect).
    /// `session` names the sign-in the page belongs to: signing out ends its streams.
    public func subscribe(after lastEventID: UInt64?, user: UserID = .owner, session: String? = nil) async
        -> (id: UUID, frames: AsyncStream<SSEFrame>)
    {
        let lastOpened = await lastOpened(for: user)
        if sharedLog != nil, let last = lastEventID {
            // A page that moved here from a replica a little ahead: wait (2 s at most) until this
            // one has read the log that far, so its catch-up is exact rather than a resync.
            for _ in 0..<40 where state.sequence < last { try? await Task.sleep(for: .milliseconds(50)) }
        }
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(
            of: SSEFrame.self, bufferingPolicy: .bufferingOldest(clientBuffer))
        continuation.yield(.preamble)
        let followed = await followedSources(of: user)
        for frame in catchUp(after: lastEventID, user: user, lastOpened: lastOpened, followed: followed) {
            continuation.yield(frame)
        }
        continuation.onTermination = { [weak self] _ in
            Task { await self?.unsubscribe(id) }
        }
        clients[id] = (user, session, continuation)
        return (id, stream)
    }

    /// Ends every stream of a sign-in (its pages stop hearing anything the moment it signs out;
    /// their browsers reconnect, and are refused).
    public func disconnect(session: String) {
        for (id, client) in clients where client.session == session { unsubscribe(id) }
    }

    /// Forgets a client whose connection ended (also done when its stream terminates).
    public func unsubscribe(_ id: UUID) {
        clients.removeValue(forKey: id)?.continuation.finish()
    }

    private func catchUp(after last: UInt64?, user: UserID, lastOpened: OpenedHeadline?, followed: Set<SourceID>)
        -> [SSEFrame]
    {
        guard let last, last != state.sequence else { return [] }
        if last < state.sequence, let first = replay.first?.id, first <= last + 1 {
            let missed = replay.filter { ($0.id ?? 0) > last && $0.isFor(user) }
            // Only what fits the client's buffer (with the preamble) is a catch-up; more is a resync.
            if missed.count < clientBuffer { return missed }
        }
        return [resyncFrame(opened: lastOpened, for: user, followed: followed)]
    }

    /// Who may hear of `source`: nil (everyone) for the News sources, else its followers.
    private func audience(of source: SourceID) async -> Set<UserID>? {
        if isPublic(source) { return nil }
        if let known = followers[source] { return known }
        let generation = followersGeneration
        let users = Set((try? await store.followers(of: source)) ?? [])
        // Subscriptions changed while the store answered: use the answer, keep nothing.
        if generation == followersGeneration { followers[source] = users }
        return users
    }

    /// The private sources among those checking or failing that `user` follows.
    private func followedSources(of user: UserID) async -> Set<SourceID> {
        var followed = Set<SourceID>()
        for source in Set(state.checking).union(state.failures.keys) where !isPublic(source) {
            if await audience(of: source)?.contains(user) == true { followed.insert(source) }
        }
        return followed
    }

    /// The headline `user` opened last (nil before the first).
    public func lastOpened(for user: UserID) async -> OpenedHeadline? {
        if let known = opened[user] { return known }
        do {
            let stored = try await store.lastOpened(user: user)
            // Another call may have recorded one while the store answered.
            if let known = opened[user] { return known }
            opened[user] = .some(stored)
            return stored
        } catch {
            logger.warning("cannot read the last opened headline", metadata: ["error": "\(error)"])
            return nil
        }
    }

    // MARK: - Opened headlines

    /// Remembers the headline the user just opened and tells every open page.
    /// - Returns: the sequence number of the `opened` event (the page that opened it resumes there).
    @discardableResult
    public func recordOpened(title: String, path: String, user: UserID = .owner, at date: Date = Date()) async
        -> UInt64
    {
        // Reloading the same page changes nothing: no write, no event to every tab.
        if let last = await lastOpened(for: user), last.path == path, last.title == title { return state.sequence }
        let headline = OpenedHeadline(title: title, path: path, openedAt: date)
        opened[user] = .some(headline)
        await publish(event: "opened", json: LiveJSON.encode(OpenedMessage(title: title, path: path)), to: [user])
        let sequence = state.sequence
        do {
            try await store.setLastOpened(headline, user: user)
        } catch {
            logger.warning("cannot store the last opened headline", metadata: ["error": "\(error)"])
        }
        return sequence
    }

    // MARK: - From the reader

    /// Tells every open page what the user changed in their reader (in any tab or, later,
    /// through a sync client): rows restyle, counts refresh.
    private func announce(_ change: ReaderChange) async {
        let message: ReaderMessage
        switch change {
        case .subscriptions:
            message = ReaderMessage(kind: "subscriptions", ids: [], value: true)
            forgetFollowers()
        case .read(_, let ids, let isRead): message = ReaderMessage(kind: "read", ids: ids, value: isRead)
        case .starred(_, let ids, let isStarred): message = ReaderMessage(kind: "starred", ids: ids, value: isStarred)
        }
        await publish(event: "reader", json: LiveJSON.encode(message), to: [change.user])
    }

    // MARK: - From the hub

    private func relay(_ subscription: HubSubscription) async {
        for await update in subscription {
            switch update {
            case .resync(let snapshot) where sharedLog != nil && started:
                // Replicas: entries come from the log; the hub's are only this replica's view.
                // Events dropped for this subscriber may have been a check's outcome: whatever
                // differs from what the pages were told goes to the log.
                state.sources.checking = snapshot.checking
                inCheck = snapshot.checking
                for (id, entries) in snapshot.entries where state.sources.entries[id] != entries {
                    if !merged.contains(where: { $0.id == id }) { outboxInput.yield(.changed(id)) }
                }
            case .event(let event) where sharedLog != nil:
                await relayToLog(event)
            case .resync(let snapshot):
                if sharedLog != nil { inCheck = snapshot.checking }
                state.sources = snapshot
                state.lists = [:]
                for id in snapshot.entries.keys {
                    state.lists[id] = renderList(id, state.sources)
                }
                if started { await broadcastResync() }
                started = true
            case .event(let event):
                apply(event, audience: await audience(of: event.source))
            }
        }
    }

    /// Folds `event` in and tells the pages; `id` is the log's number on replicas (nil: the next
    /// of this broadcaster's own).
    private func apply(_ event: EngineEvent, audience: Set<UserID>?, id frameID: UInt64? = nil) {
        let before = state.entries[event.source]
        state.sources.apply(event)
        switch event.kind {
        case .checking(let id):
            broadcast(event: "activity", json: LiveJSON.encode(ActivityMessage(source: id.rawValue, checking: true)), to: audience, id: frameID)
        case .idle(let id):
            broadcast(event: "activity", json: LiveJSON.encode(ActivityMessage(source: id.rawValue, checking: false)), to: audience, id: frameID)
        case .changed(let id, let entries, _):
            let previous = Set((before ?? []).map(EntryIdentity.key(of:)))
            let added = entries.filter { !previous.contains(EntryIdentity.key(of: $0)) }.count
            let list = renderList(id, state.sources)
            // Pages are sent the rows that differ, not the list: one feed's change stays small.
            let diff = list?.diff(from: state.lists[id])
            state.lists[id] = list
            let message = ChangedMessage(
                source: id.rawValue, diff: diff, count: entries.count, added: added,
                name: names[id] ?? id.rawValue, detectedAt: Int64((Date().timeIntervalSince1970 * 1000).rounded()))
            broadcast(event: "changed", json: LiveJSON.encode(message), to: audience, id: frameID)
        case .failed(let id, let error):
            let message = FailedMessage(source: id.rawValue, name: names[id] ?? id.rawValue, message: error.description)
            broadcast(event: "failed", json: LiveJSON.encode(message), to: audience, id: frameID)
        }
    }

    // MARK: - Replicas

    /// One engine event on a replica: activity goes to pages at once, unnumbered; a check's
    /// outcome goes to the shared log; a warm start's state is taken in quietly.
    private func relayToLog(_ event: EngineEvent) async {
        let audience = await audience(of: event.source)
        switch event.kind {
        case .checking(let id), .idle(let id):
            if case .checking = event.kind { inCheck.insert(id) } else { inCheck.remove(id) }
            state.sources.apply(event)
            let message = ActivityMessage(source: id.rawValue, checking: event.kind == .checking(id))
            send(SSEFrame(id: nil, event: "activity", json: LiveJSON.encode(message), audience: audience))
        case .changed(let id, _, _), .failed(let id, _):
            if let merge = merged.first(where: { $0.id == id }) {
                // Recomputed from the parts as the log delivers them; before any, the warm start's.
                if !merge.parts.contains(where: inCheck.contains) { takeQuietly(event) }
                return
            }
            guard inCheck.contains(id) else { return takeQuietly(event) }
            let record: SharedLogRecord = if case .changed = event.kind { .changed(id) } else { .failed(id) }
            outboxInput.yield(record)
        }
    }

    /// Appends what this replica found, in order. An append that fails (the database is away)
    /// is tried again until it lands: pages hear of it late, never under a made-up number.
    private func drainOutbox(to log: any SharedLog) async {
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

    /// Folds an event into the state without telling any page (they draw it when they load).
    private func takeQuietly(_ event: EngineEvent) {
        state.sources.apply(event)
        if case .changed(let id, _, _) = event.kind { state.lists[id] = renderList(id, state.sources) }
    }

    /// What the shared log delivers, in order, under its ids.
    private func deliver(_ item: SharedLogItem) async {
        switch item {
        case .start(let id):
            state.sequence = UInt64(max(0, id))
            replay.removeAll()
        case .changed(let id, let source, let entries):
            // The number moves only with the state it numbers (no await in between): a page drawn
            // meanwhile is never numbered ahead of what it shows.
            let sequence = UInt64(max(0, id))
            let audience = await audience(of: source)
            var mergedAudiences: [(MergedSource, Set<UserID>?)] = []
            for merge in merged where merge.parts.contains(source) {
                mergedAudiences.append((merge, await self.audience(of: merge.id)))
            }
            state.sequence = sequence
            apply(EngineEvent(sequence: state.sources.sequence + 1, kind: .changed(source, entries)), audience: audience, id: sequence)
            for (merge, mergedAudience) in mergedAudiences {
                let event = EngineEvent(sequence: state.sources.sequence + 1, kind: merge.changed(state.entries))
                apply(event, audience: mergedAudience, id: sequence)
            }
        case .failed(let id, let source, let error):
            let sequence = UInt64(max(0, id))
            let audience = await audience(of: source)
            state.sequence = sequence
            apply(EngineEvent(sequence: state.sources.sequence + 1, kind: .failed(source, error)), audience: audience, id: sequence)
        case .frame(let id, let event, let json, let users):
            let sequence = UInt64(max(0, id))
            let audience = users.map { Set($0.map(UserID.init)) }
            if event == "reader", (try? JSONDecoder().decode(ReaderMessage.self, from: Data(json.utf8)))?.kind == "subscriptions" {
                forgetFollowers()
                reloadInput.yield()
            }
            if event == "opened", let user = audience?.first,
                let message = try? JSONDecoder().decode(OpenedMessage.self, from: Data(json.utf8))
            {
                opened[user] = .some(OpenedHeadline(title: message.title, path: message.path, openedAt: Date()))
            }
            state.sequence = sequence
            broadcast(event: event, json: json, to: audience, id: sequence)
        }
    }

    /// A page event: numbered here, or, on replicas, through the shared log.
    private func publish(event: String, json: String, to audience: Set<UserID>?) async {
        guard sharedLog != nil else { return broadcast(event: event, json: json, to: audience) }
        outboxInput.yield(.frame(event: event, json: json, audience: audience.map { $0.map(\.rawValue).sorted() }))
    }

    /// Subscriptions changed somewhere: who follows what is read again when next needed.
    private func forgetFollowers() {
        followers = [:]
        followersGeneration += 1
    }

    private func broadcastResync() async {
        state.sequence += 1
        var followed: [UserID: Set<SourceID>] = [:]
        for user in Set(clients.values.map(\.user)) { followed[user] = await followedSources(of: user) }
        // Each user's resync carries their own last opened headline; none is remembered for
        // replay (a client that missed it is given a fresh one by `catchUp`).
        var behind: [UUID] = []
        var frames: [UserID: SSEFrame] = [:]
        for (id, client) in clients {
            let frame = frames[client.user]
                ?? resyncFrame(opened: opened[client.user] ?? nil, for: client.user, followed: followed[client.user] ?? [])
            frames[client.user] = frame
            if case .dropped = client.continuation.yield(frame) { behind.append(id) }
        }
        for id in behind { unsubscribe(id) }
    }

    /// The state to resume from, as `user` may see it: the News lists, and the checks and
    /// failures of the News sources and of `followed` (their own feeds).
    private func resyncFrame(opened lastOpened: OpenedHeadline?, for user: UserID, followed: Set<SourceID>) -> SSEFrame {
        var lists: [String: String] = [:]
        for (id, list) in state.lists { lists[id.rawValue] = list.html.markup }
        let visible = { (source: SourceID) in self.isPublic(source) || followed.contains(source) }
        let message = ResyncMessage(
            lists: lists, checking: state.checking.filter(visible).map(\.rawValue).sorted(),
            failures: Dictionary(
                uniqueKeysWithValues: state.failures.filter { visible($0.key) }.map { ($0.key.rawValue, $0.value.description) }),
            opened: lastOpened.map { OpenedMessage(title: $0.title, path: $0.path) })
        return SSEFrame(id: state.sequence, event: "resync", json: LiveJSON.encode(message), audience: [user])
    }

    private func broadcast(event: String, json: String, to audience: Set<UserID>? = nil, id: UInt64? = nil) {
        if id == nil { state.sequence += 1 }
        let frame = SSEFrame(id: id ?? state.sequence, event: event, json: json, audience: audience)
        remember(frame)
        send(frame)
    }

    private func remember(_ frame: SSEFrame) {
        replay.append(frame)
        if replay.count > replayLimit { replay.removeFirst(replay.count - replayLimit) }
    }

    private func send(_ frame: SSEFrame) {
        var behind: [UUID] = []
        for (id, client) in clients where frame.isFor(client.user) {
            if case .dropped = client.continuation.yield(frame) { behind.append(id) }
        }
        // A client this far behind reconnects and resumes from its Last-Event-ID.
        for id in behind { unsubscribe(id) }
    }

    private func beat() async {
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: heartbeatInterval)
            } catch {
                return
            }
            send(.heartbeat)
        }
    }

    private func finishAll() {
        for client in clients.values { client.continuation.finish() }
        clients.removeAll()
    }
}

