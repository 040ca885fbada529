import Foundation
import KioskStore

/// The open event streams, and the numbered frames kept for those that reconnect: each frame is
/// encoded once and the same bytes go to every client that may see it. A client that falls
/// behind (its buffer full) is disconnected rather than slowing anyone: its browser reconnects
/// and resumes from its `Last-Event-ID`.
struct LiveFanOut {
    struct Client {
        var user: UserID
        /// The sign-in its page belongs to (signing out ends its streams).
        var session: String?
        var continuation: AsyncStream<SSEFrame>.Continuation
    }

    /// Frames held for a slow client before it is disconnected.
    let clientBuffer: Int
    /// Numbered frames kept for catching up.
    let replayLimit: Int
    private(set) var clients: [UUID: Client] = [:]
    private var replay: [SSEFrame] = []

    init(clientBuffer: Int, replayLimit: Int) {
        self.clientBuffer = clientBuffer
        self.replayLimit = replayLimit
    }

    /// A new stream, with room for `clientBuffer` frames beyond the `room` its catch-up takes
    /// (a page replayed from the log may be sent more than a buffer's worth at once).
    func makeStream(room: Int = 0) -> (AsyncStream<SSEFrame>, AsyncStream<SSEFrame>.Continuation) {
        AsyncStream.makeStream(of: SSEFrame.self, bufferingPolicy: .bufferingOldest(clientBuffer + room))
    }

    mutating func add(_ client: Client, id: UUID) {
        clients[id] = client
    }

    /// Ends and forgets a client's stream.
    mutating func remove(_ id: UUID) {
        clients.removeValue(forKey: id)?.continuation.finish()
    }

    /// Ends every stream of a sign-in.
    mutating func disconnect(session: String) {
        for (id, client) in clients where client.session == session { remove(id) }
    }

    /// Every user with a stream open.
    var users: Set<UserID> { Set(clients.values.map(\.user)) }

    /// The frames `user` missed after `last`, with `current` the newest number: none when it is
    /// up to date, nil when a resync is needed (too old, from the future or before a restart, or
    /// more than fits its buffer).
    func missed(after last: UInt64, current: UInt64, user: UserID) -> [SSEFrame]? {
        if last == current { return [] }
        guard last < current, let first = replay.first?.id, first <= last + 1 else { return nil }
        let missed = replay.filter { ($0.id ?? 0) > last && $0.isFor(user) }
        // Only what fits the client's buffer (with the preamble) is a catch-up; more is a resync.
        return missed.count < clientBuffer ? missed : nil
    }

    /// Sends a numbered frame and keeps it for catching up.
    mutating func broadcast(_ frame: SSEFrame) {
        replay.append(frame)
        if replay.count > replayLimit { replay.removeFirst(replay.count - replayLimit) }
        send(frame)
    }

    /// Sends a frame to every client that may see it, keeping nothing.
    mutating func send(_ frame: SSEFrame) {
        var behind: [UUID] = []
        for (id, client) in clients where frame.isFor(client.user) {
            if case .dropped = client.continuation.yield(frame) { behind.append(id) }
        }
        // A client this far behind reconnects and resumes from its Last-Event-ID.
        for id in behind { remove(id) }
    }

    /// Sends each client the frame made for its user (a resync), keeping nothing.
    mutating func send(each frames: [UserID: SSEFrame]) {
        var behind: [UUID] = []
        for (id, client) in clients {
            guard let frame = frames[client.user] else { continue }
            if case .dropped = client.continuation.yield(frame) { behind.append(id) }
        }
        for id in behind { remove(id) }
    }

    /// Nothing kept so far can be caught up from (numbers start again from the shared log's
    /// newest id, or the state was replaced wholesale): a client from before is resynced.
    mutating func forgetReplay() {
        replay.removeAll()
    }

    /// Ends every stream.
    mutating func finishAll() {
        for client in clients.values { client.continuation.finish() }
        clients.removeAll()
    }
}
