import Foundation
import KioskCore
import KioskModel
import KioskReader
import KioskSources
import KioskStore
import Logging
import ServiceLifecycle

/// Turns the engine's hub into server-sent events for every open page.
///
/// Each event is rendered once (a list's change as the rows that differ) and the same bytes go to
/// every client (`LiveFanOut`), so 10,000 open pages cost one render per change. Events are
/// numbered, by this Kiosk alone (`LocalNumbering`) or, for replicas sharing a database, through
/// the shared log (`SharedLogNumbering`); the last few hundred are kept so a client that
/// reconnects with `Last-Event-ID` gets exactly what it missed, or a resync when that is too old.
public actor LiveBroadcaster: Service {
    /// Renders the list a page shows for `source`, or nil when no page shows that source.
    public typealias ListRenderer = @Sendable (_ source: SourceID, _ sources: HubSnapshot) -> RenderedList?

    private let hub: EventHub
    private let names: [SourceID: String]
    private let renderList: ListRenderer
    private let readerChanges: ReaderChanges?
    private let heartbeatInterval: Duration
    private let numbering: any LiveNumbering
    /// The followers of sources that are not everyone's.
    let audiences: LiveAudiences
    /// Where each user's last opened headline is kept.
    private let appState: any AppStateStore
    private let logger: Logger
    /// Each user's last opened headline, as the pages were told.
    private(set) var opened = OpenedHeadlines()
    /// What pages are shown, as of `state.sequence`. Only the broadcaster changes it (its
    /// numbering answers with `LiveStep`s).
    private(set) var state = LiveState()
    /// Whether the hub's first snapshot has been taken (it is state, not an event).
    private(set) var started = false
    private var fanOut: LiveFanOut

    /// - Parameters:
    ///   - names: each source's display name, for announcements and errors.
    ///   - isPublic: whether everyone may hear of a source (the News sources); others only their followers.
    ///   - clientBuffer: frames held for a slow client before it is disconnected to resume later.
    ///   - firstSequence: the number events count on from; nil, this run's start time in ms.
    ///   - sharedLog: replicas: the log every page event goes through; nil for one Kiosk alone.
    ///   - merged: replicas: the merged sources, recomputed from delivered parts.
    ///   - subscriptionsChanged: replicas: another's user changed their subscriptions.
    public init(
        hub: EventHub, store: any AppStateStore & SubscriptionStore, names: [SourceID: String], renderList: @escaping ListRenderer,
        readerChanges: ReaderChanges? = nil, isPublic: @escaping @Sendable (SourceID) -> Bool = { _ in true },
        heartbeatInterval: Duration = .seconds(15), clientBuffer: Int = 128, replayLimit: Int = 512,
        firstSequence: UInt64? = nil, sharedLog: (any SharedLog)? = nil, merged: [MergedSource] = [],
        subscriptionsChanged: @escaping @Sendable () async -> Void = {}, logger: Logger = Logger(label: "kiosk.live")
    ) {
        self.hub = hub
        self.names = names
        self.renderList = renderList
        self.readerChanges = readerChanges
        self.heartbeatInterval = heartbeatInterval
        audiences = LiveAudiences(store: store, isPublic: isPublic)
        appState = store
        self.logger = logger
        fanOut = LiveFanOut(clientBuffer: clientBuffer, replayLimit: replayLimit)
        if let sharedLog {
            numbering = SharedLogNumbering(
                log: sharedLog, merged: merged, subscriptionsChanged: subscriptionsChanged, logger: logger)
        } else {
            numbering = LocalNumbering()
        }
        // Numbers start at this run's start time in ms, so an id from before a restart is always
        // older than anything this run can replay: such a browser is resynced, never half-served.
        state.sequence = firstSequence ?? UInt64(max(0, Date().timeIntervalSince1970 * 1000))
    }

    public func run() async throws {
        let subscription = await hub.subscribe(bufferSize: 4096)
        let readerStream = await readerChanges?.subscribe()
        isListening = true
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask { await self.relay(subscription) }
                if let readerStream {
                    group.addTask {
                        for await change in readerStream { await self.announce(change) }
                    }
                }
                group.addTask { await self.beat() }
                group.addTask { await self.numbering.run(self) }
            }
        }
        fanOut.finishAll()
    }

    /// Whether `run()` listens to the hub and the reader's changes: what is published from then on
    /// reaches pages as events, not folded into a first snapshot (the signal tests wait on).
    public private(set) var isListening = false

    /// The state to draw a page from; the page then streams events after `sequence`.
    public func snapshot() -> LiveState { state }

    /// Number of connected event streams (for tests and the benchmark).
    public var clientCount: Int { fanOut.clients.count }

    // MARK: - Clients

    /// A client's event stream. `lastEventID` is the last sequence number it has seen (from the
    /// page it drew, or the browser's `Last-Event-ID` on reconnect).
    /// `session` names the sign-in the page belongs to: signing out ends its streams.
    public func subscribe(after lastEventID: UInt64?, user: UserID = .owner, session: String? = nil) async
        -> (id: UUID, frames: AsyncStream<SSEFrame>)
    {
        let lastOpened = await lastOpened(for: user)
        if let last = lastEventID { await numbering.prepareCatchUp(after: last, in: self) }
        let followed = await followedSources(of: user)
        // From this replica's window; beyond it, the shared log's history, then what came since
        // it was read (from the window). Nothing suspends from the answer until the client is added.
        var catchUp: [SSEFrame] = []
        if let last = lastEventID {
            if let missed = fanOut.missed(after: last, current: state.sequence, user: user) {
                catchUp = missed
            } else if let logged = await numbering.history(after: last, for: user, in: self),
                let since = fanOut.missed(after: logged.through, current: state.sequence, user: user)
            {
                catchUp = logged.frames + since
            } else {
                catchUp = [resyncFrame(opened: lastOpened, for: user, followed: followed)]
            }
        }
        let id = UUID()
        let (stream, continuation) = fanOut.makeStream(room: catchUp.count)
        continuation.yield(.preamble)
        for frame in catchUp { continuation.yield(frame) }
        continuation.onTermination = { [weak self] _ in
            Task { await self?.unsubscribe(id) }
        }
        fanOut.add(LiveFanOut.Client(user: user, session: session, continuation: continuation), id: id)
        return (id, stream)
    }

    /// Ends every stream of a sign-in (its pages stop hearing anything the moment it signs out;
    /// their browsers reconnect, and are refused).
    public func disconnect(session: String) {
        fanOut.disconnect(session: session)
    }

    /// Forgets a client whose connection ended (also done when its stream terminates).
    public func unsubscribe(_ id: UUID) {
        fanOut.remove(id)
    }

    /// Who may hear of `source`: nil (everyone) for the News sources, without suspending; else
    /// its followers.
    func audience(of source: SourceID) async -> Set<UserID>? {
        if audiences.isPublic(source) { return nil }
        return await audiences.followers(of: source)
    }

    /// The private sources among those checking or failing that `user` follows.
    private func followedSources(of user: UserID) async -> Set<SourceID> {
        var followed = Set<SourceID>()
        for source in Set(state.checking).union(state.failures.keys) where !audiences.isPublic(source) {
            if await audiences.followers(of: source).contains(user) { followed.insert(source) }
        }
        return followed
    }

    /// The headline `user` opened last (nil before the first), read from the store the first
    /// time it is asked for.
    public func lastOpened(for user: UserID) async -> OpenedHeadline? {
        if let known = opened.known(for: user) { return known }
        do {
            let stored = try await appState.lastOpened(user: user)
            // Another call may have recorded one while the store answered.
            if let known = opened.known(for: user) { return known }
            opened.remember(stored, user: user)
            return stored
        } catch {
            logger.warning("cannot read the last opened headline", metadata: ["error": "\(error)"])
            return nil
        }
    }

    // MARK: - Users' events

    /// Remembers the headline the user just opened and tells every open page.
    /// - Returns: the sequence number the page that opened it resumes from.
    @discardableResult
    public func recordOpened(title: String, path: String, user: UserID = .owner, at date: Date = Date()) async
        -> UInt64
    {
        _ = await lastOpened(for: user)
        // From here to the publish nothing suspends: what is remembered and what the pages are
        // told cannot be two different headlines. Reloading the same page changes nothing: no
        // write, no event to every tab.
        if let last = opened.last(for: user), last.path == path, last.title == title { return state.sequence }
        let headline = OpenedHeadline(title: title, path: path, openedAt: date)
        opened.remember(headline, user: user)
        let sequence = publish(.opened(OpenedMessage(title: title, path: path)), to: [user])
        do {
            try await appState.setLastOpened(headline, user: user)
        } catch {
            logger.warning("cannot store the last opened headline", metadata: ["error": "\(error)"])
        }
        return sequence
    }

    /// Tells every open page what the user changed in their reader (in any tab or through a
    /// sync client): rows restyle, counts refresh.
    private func announce(_ change: ReaderChange) async {
        let message: ReaderMessage
        switch change {
        case .subscriptions:
            message = ReaderMessage(kind: .subscriptions, ids: [], value: true)
            await audiences.forget()
        case .read(_, let ids, let isRead): message = ReaderMessage(kind: .read, ids: ids, value: isRead)
        case .starred(_, let ids, let isStarred): message = ReaderMessage(kind: .starred, ids: ids, value: isStarred)
        case .labelled(_, let ids, let label, let isOn): message = ReaderMessage(kind: .labelled, ids: ids, value: isOn, label: label)
        case .hidden(_, let ids, let isHidden): message = ReaderMessage(kind: .hidden, ids: ids, value: isHidden)
        case .position(_, let position, let client):
            message = ReaderMessage(
                kind: .position, ids: [position.entryID], value: position.isPlaying,
                position: PositionMessage(
                    seconds: position.seconds, duration: position.duration, finished: position.isFinished,
                    device: position.device, client: client))
        }
        publish(.reader(message), to: [change.user])
    }

    /// A user's event, numbered here or through the log as the numbering says.
    /// - Returns: the number the page that caused it resumes from.
    @discardableResult
    private func publish(_ event: LiveEvent, to audience: Set<UserID>?) -> UInt64 {
        numbering.publish(event, to: audience, in: self) ?? broadcast(event, to: audience)
    }

    // MARK: - What the numbering strategies ask for

    private func relay(_ subscription: HubSubscription) async {
        for await update in subscription { await perform(await numbering.relay(update, in: self)) }
    }

    /// Runs `read` here and applies the steps it answers (a numbering's delivery from the log).
    func perform(_ read: @Sendable (isolated LiveBroadcaster) async -> [LiveStep]) async {
        await perform(await read(self))
    }

    /// Applies `steps` in order; nothing suspends between two of them but a `.take`'s resync.
    private func perform(_ steps: [LiveStep]) async {
        for step in steps {
            switch step {
            case .take(let snapshot):
                await take(snapshot)
            case .takeQuietly(let event):
                takeQuietly(event)
            case .checking(let checking):
                state.sources.checking = checking
            case .activity(let event, let audience):
                state.sources.apply(event)
                let message = ActivityMessage(source: event.source.rawValue, checking: event.kind == .checking(event.source))
                fanOut.send(SSEFrame(id: nil, .activity(message), audience: audience))
            case .apply(let event, let audience, let id):
                apply(event, audience: audience, id: id)
            case .applyMerged(let merge, let audience, let id):
                let event = EngineEvent(sequence: state.sources.sequence + 1, kind: merge.changed(state.entries))
                apply(event, audience: audience, id: id)
            case .restart(let sequence):
                state.sequence = sequence
                fanOut.forgetReplay()
            case .advance(let sequence):
                state.sequence = sequence
            case .tell(let note, let source, let users, let id):
                broadcast(notice(note, of: source), to: users, id: id)
            case .broadcast(let event, let audience, let id):
                broadcast(event, to: audience, id: id)
            case .rememberOpened(let headline, let user):
                opened.remember(headline, user: user)
            }
        }
    }

    /// Takes the hub's whole state (its first snapshot, or after this subscriber fell behind);
    /// pages already open are resynced.
    private func take(_ snapshot: HubSnapshot) async {
        state.sources = snapshot
        state.lists = [:]
        for id in snapshot.entries.keys {
            state.lists[id] = renderList(id, state.sources)
        }
        if started {
            // What came before is no base to catch up from: a page that reconnects from before
            // this moment is resynced, not replayed frames that skip what the hub dropped.
            fanOut.forgetReplay()
            await broadcastResync()
        }
        started = true
    }

    /// Folds `event` in and tells the pages; `id` is the log's number on replicas (nil: the next
    /// of this broadcaster's own).
    private func apply(_ event: EngineEvent, audience: Set<UserID>?, id frameID: UInt64? = nil) {
        let before = state.entries[event.source]
        state.sources.apply(event)
        switch event.kind {
        case .checking(let id):
            broadcast(.activity(ActivityMessage(source: id.rawValue, checking: true)), to: audience, id: frameID)
        case .idle(let id):
            broadcast(.activity(ActivityMessage(source: id.rawValue, checking: false)), to: audience, id: frameID)
        case .changed(let id, let entries, _):
            let added = EntryIdentity.countNew(entries, since: before)
            let list = renderList(id, state.sources)
            // Pages are sent the rows that differ, not the list: one feed's change stays small.
            let diff = list?.diff(from: state.lists[id])
            state.lists[id] = list
            let message = ChangedMessage(
                source: id.rawValue, diff: diff, count: entries.count, added: added,
                name: names[id] ?? id.rawValue, detectedAt: Self.detectedNow())
            broadcast(.changed(message), to: audience, id: frameID)
        case .failed(let id, let error):
            let message = FailedMessage(source: id.rawValue, name: names[id] ?? id.rawValue, message: error.description)
            broadcast(.failed(message), to: audience, id: frameID)
        }
    }

    /// Now, in ms since 1970: when the server learned of a change (`ChangedMessage.detectedAt`).
    private static func detectedNow() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1000).rounded())
    }

    /// The users with a page open here who follow `source` (each user's feeds read once, not
    /// per source).
    func listeners(of source: SourceID) async -> Set<UserID> {
        var listening = Set<UserID>()
        for user in fanOut.users where await audiences.follows(user, source) { listening.insert(user) }
        return listening
    }

    /// The event a log record makes of a change or failure, without the source's list.
    func notice(_ note: SharedLogNote, of source: SourceID) -> LiveEvent {
        let name = names[source] ?? source.rawValue
        switch note {
        case .changed(let added):
            return .changed(
                ChangedMessage(
                    source: source.rawValue, diff: nil, count: 0, added: added ?? 0, name: name, detectedAt: Self.detectedNow()))
        case .failed(let message):
            return .failed(FailedMessage(source: source.rawValue, name: name, message: message ?? "the last check failed"))
        }
    }

    /// A News source's change or failure replayed from the log: with `withList`, its whole list as
    /// it is now (the page redraws every row); else numbered, without rows.
    func replayed(_ note: SharedLogNote, of source: SourceID, withList: Bool, id: UInt64) -> SSEFrame {
        guard case .changed(let added) = note, withList else { return SSEFrame(id: id, notice(note, of: source)) }
        let list = state.lists[source]
        let message = ChangedMessage(
            source: source.rawValue, diff: list.map { $0.diff(from: nil) }, count: list?.rows.count ?? 0, added: added ?? 0,
            name: names[source] ?? source.rawValue, detectedAt: Self.detectedNow())
        return SSEFrame(id: id, .changed(message))
    }

    /// Folds an event into the state without telling any page (they draw it when they load).
    private func takeQuietly(_ event: EngineEvent) {
        state.sources.apply(event)
        if case .changed(let id, _, _) = event.kind { state.lists[id] = renderList(id, state.sources) }
    }

    /// Sends `event` under `id` (nil: the next number of this broadcaster's own), kept for catching up.
    /// - Returns: its number.
    @discardableResult
    private func broadcast(_ event: LiveEvent, to audience: Set<UserID>? = nil, id: UInt64? = nil) -> UInt64 {
        if id == nil { state.sequence += 1 }
        let number = id ?? state.sequence
        fanOut.broadcast(SSEFrame(id: number, event, audience: audience))
        return number
    }

    // MARK: - Resyncs and heartbeats

    private func broadcastResync() async {
        var followed: [UserID: Set<SourceID>] = [:]
        for user in fanOut.users { followed[user] = await followedSources(of: user) }
        // From here nothing suspends: the resync is numbered after everything sent before it and
        // goes to every client open now. Each user's carries their own last opened headline;
        // none is kept for replay (a client that missed it is resynced when it reconnects).
        state.sequence += 1
        var frames: [UserID: SSEFrame] = [:]
        for user in fanOut.users {
            frames[user] = resyncFrame(opened: opened.last(for: user), for: user, followed: followed[user] ?? [])
        }
        fanOut.send(each: frames)
    }

    /// The state to resume from, as `user` may see it: the News lists, and the checks and
    /// failures of the News sources and of `followed` (their own feeds).
    private func resyncFrame(opened lastOpened: OpenedHeadline?, for user: UserID, followed: Set<SourceID>) -> SSEFrame {
        var lists: [String: String] = [:]
        for (id, list) in state.lists { lists[id.rawValue] = list.html.markup }
        let visible = { [audiences] (source: SourceID) in audiences.isPublic(source) || followed.contains(source) }
        let message = ResyncMessage(
            lists: lists, checking: state.checking.filter(visible).map(\.rawValue).sorted(),
            failures: Dictionary(
                uniqueKeysWithValues: state.failures.filter { visible($0.key) }.map { ($0.key.rawValue, $0.value.description) }),
            opened: lastOpened.map { OpenedMessage(title: $0.title, path: $0.path) })
        return SSEFrame(id: state.sequence, .resync(message), audience: [user])
    }

    private func beat() async {
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: heartbeatInterval)
            } catch {
                return
            }
            fanOut.send(.heartbeat)
        }
    }
}
