import Foundation
import KioskModel
import KioskSources
import KioskStore

/// How a broadcaster numbers what its pages hear, so a page that reconnects with
/// `Last-Event-ID` is sent exactly what it missed. One Kiosk alone counts on its own
/// (`LocalNumbering`); replicas sharing a database number through the shared log
/// (`SharedLogNumbering`), so a page can move from one to another.
///
/// A numbering reads the broadcaster (`isolated`: between two awaits nothing else touches it)
/// and answers with what to change (`LiveStep`); only the broadcaster changes its state, applying
/// the steps in order as soon as they are returned, so a number never moves apart from the state
/// it numbers.
protocol LiveNumbering: Sendable {
    /// Work of its own beside the broadcaster's, until cancelled.
    func run(_ broadcaster: LiveBroadcaster) async
    /// What one update from this Kiosk's hub changes.
    func relay(_ update: HubUpdate, in broadcaster: isolated LiveBroadcaster) async -> [LiveStep]
    /// A user's event (a reader change, an opened headline) for `audience`.
    /// - Returns: the number a page that caused it resumes from, or nil when the broadcaster
    ///   numbers and sends it itself, now.
    func publish(_ event: LiveEvent, to audience: Set<UserID>?, in broadcaster: isolated LiveBroadcaster) -> UInt64?
    /// Called before a page that has seen up to `last` is caught up.
    func prepareCatchUp(after last: UInt64, in broadcaster: isolated LiveBroadcaster) async
    /// What `user`'s page missed after `last`, from a history beyond the broadcaster's window
    /// (the shared log), up to `through`; nil when there is none that far back.
    func history(after last: UInt64, for user: UserID, in broadcaster: isolated LiveBroadcaster) async
        -> (frames: [SSEFrame], through: UInt64)?
}

/// A change a numbering asks of its broadcaster.
enum LiveStep {
    /// The hub's whole state (its first snapshot, or after this subscriber fell behind); pages
    /// already open are resynced.
    case take(HubSnapshot)
    /// An event folded in without telling any page (they draw it when they load).
    case takeQuietly(EngineEvent)
    /// The sources this Kiosk's engine is checking, as its hub last said.
    case checking(Set<SourceID>)
    /// A check began or ended here: folded in and sent to `audience` unnumbered.
    case activity(EngineEvent, audience: Set<UserID>?)
    /// An event folded in and told to `audience` under `id` (nil: the broadcaster's next number).
    case apply(EngineEvent, audience: Set<UserID>?, id: UInt64?)
    /// A merged source recomputed from its parts as they are once the steps before it are
    /// applied, told under `id`.
    case applyMerged(MergedSource, audience: Set<UserID>?, id: UInt64)
    /// Numbers continue from `id` (the shared log's newest when it is first read).
    case restart(at: UInt64)
    /// The log's record `id` was read (one no page here hears of still takes its number).
    case advance(to: UInt64)
    /// `users` hear of a change or failure of a feed no page here draws, from the log's record.
    case tell(SharedLogNote, of: SourceID, to: Set<UserID>, id: UInt64)
    /// A user's event sent as it is under `id`.
    case broadcast(LiveEvent, audience: Set<UserID>?, id: UInt64)
    /// A headline `user` opened on another replica.
    case rememberOpened(OpenedHeadline, user: UserID)
}

/// One Kiosk alone: every event is numbered here, the moment it happens.
struct LocalNumbering: LiveNumbering {
    func run(_ broadcaster: LiveBroadcaster) async {}

    func relay(_ update: HubUpdate, in broadcaster: isolated LiveBroadcaster) async -> [LiveStep] {
        switch update {
        case .resync(let snapshot):
            [.take(snapshot)]
        case .event(let event):
            [.apply(event, audience: await broadcaster.audience(of: event.source), id: nil)]
        }
    }

    func publish(_ event: LiveEvent, to audience: Set<UserID>?, in broadcaster: isolated LiveBroadcaster) -> UInt64? {
        nil
    }

    func prepareCatchUp(after last: UInt64, in broadcaster: isolated LiveBroadcaster) async {}

    /// One Kiosk alone keeps no more than its window: older means a resync.
    func history(after last: UInt64, for user: UserID, in broadcaster: isolated LiveBroadcaster) async
        -> (frames: [SSEFrame], through: UInt64)?
    { nil }
}
