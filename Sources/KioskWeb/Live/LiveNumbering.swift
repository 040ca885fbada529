import KioskSources
import KioskStore

/// How a broadcaster numbers what its pages hear, so a page that reconnects with
/// `Last-Event-ID` is sent exactly what it missed. One Kiosk alone counts on its own
/// (`LocalNumbering`); replicas sharing a database number through the shared log
/// (`SharedLogNumbering`), so a page can move from one to another.
///
/// The methods run on the broadcaster (`isolated`): between two awaits, nothing else touches
/// its state, so a number never moves apart from the state it numbers.
protocol LiveNumbering: Sendable {
    /// Work of its own beside the broadcaster's, until cancelled.
    func run(_ broadcaster: LiveBroadcaster) async
    /// One update from this Kiosk's hub.
    func relay(_ update: HubUpdate, in broadcaster: isolated LiveBroadcaster) async
    /// A user's event (a reader change, an opened headline) for `audience`.
    /// - Returns: the number a page that caused it resumes from.
    func publish(_ event: LiveEvent, to audience: Set<UserID>?, in broadcaster: isolated LiveBroadcaster) -> UInt64
    /// Called before a page that has seen up to `last` is caught up.
    func prepareCatchUp(after last: UInt64, in broadcaster: isolated LiveBroadcaster) async
    /// What `user`'s page missed after `last`, from a history beyond the broadcaster's window
    /// (the shared log), up to `through`; nil when there is none that far back.
    func history(after last: UInt64, for user: UserID, in broadcaster: isolated LiveBroadcaster) async
        -> (frames: [SSEFrame], through: UInt64)?
}

/// One Kiosk alone: every event is numbered here, the moment it happens.
struct LocalNumbering: LiveNumbering {
    func run(_ broadcaster: LiveBroadcaster) async {}

    func relay(_ update: HubUpdate, in broadcaster: isolated LiveBroadcaster) async {
        switch update {
        case .resync(let snapshot):
            await broadcaster.take(snapshot)
        case .event(let event):
            broadcaster.apply(event, audience: await broadcaster.audience(of: event.source))
        }
    }

    func publish(_ event: LiveEvent, to audience: Set<UserID>?, in broadcaster: isolated LiveBroadcaster) -> UInt64 {
        broadcaster.broadcast(event, to: audience)
    }

    func prepareCatchUp(after last: UInt64, in broadcaster: isolated LiveBroadcaster) async {}

    /// One Kiosk alone keeps no more than its window: older means a resync.
    func history(after last: UInt64, for user: UserID, in broadcaster: isolated LiveBroadcaster) async
        -> (frames: [SSEFrame], through: UInt64)?
    { nil }
}
