import KioskStore
import Synchronization

/// How many media files each account is loading through Kiosk now, held under a cap: a player
/// opens one or two at a time (and a paused one may keep its own a while), so the cap only stops
/// one account from tying up the server's connections (`mediaStreamsPerAccount`).
final class MediaStreams: Sendable {
    let perAccount: Int
    private let open = Mutex<[UserID: Int]>([:])

    init(perAccount: Int) { self.perAccount = max(1, perAccount) }

    /// A place for `user`, given back when the ticket goes (its stream finished, failed, or its
    /// response was dropped unsent); nil when the account has `perAccount` open already.
    func admit(_ user: UserID) -> Ticket? {
        let admitted = open.withLock { open in
            let count = open[user, default: 0]
            guard count < perAccount else { return false }
            open[user] = count + 1
            return true
        }
        return admitted ? Ticket(streams: self, user: user) : nil
    }

    /// How many `user` has open.
    func count(_ user: UserID) -> Int { open.withLock { $0[user, default: 0] } }

    private func release(_ user: UserID) {
        open.withLock { open in
            let count = open[user, default: 0] - 1
            open[user] = count > 0 ? count : nil
        }
    }

    /// One account's place among its streams, held while it lives.
    final class Ticket: Sendable {
        private let streams: MediaStreams
        private let user: UserID

        fileprivate init(streams: MediaStreams, user: UserID) {
            self.streams = streams
            self.user = user
        }

        deinit { streams.release(user) }
    }
}
