import Foundation
import KioskCore

// The rules of the store that are not SQL, written once: each database implementation reads
// rows, applies these, and writes rows. A change to what "read", "the sort date" or "an entry's
// key" means is made here, for SQLite and PostgreSQL at once (the in-memory model keeps entries
// as `Date`s and states in its own tables; it shares the key).

/// One entry's read and star state as a user sees it, and how it changes.
package struct EntryState: Sendable, Hashable {
    package var id: Int64
    package var source: String
    /// Whether the user sees it read now (its flag, or its feed's mark, as the store computed).
    package var isRead: Bool
    /// The user's read mark of the entry's feed: entries up to it are read unless kept unread.
    package var mark: Int64
    package var read: Bool
    package var starred: Bool
    package var keptUnread: Bool

    package init(id: Int64, source: String, isRead: Bool, mark: Int64, read: Bool, starred: Bool, keptUnread: Bool) {
        self.id = id
        self.source = source
        self.isRead = isRead
        self.mark = mark
        self.read = read
        self.starred = starred
        self.keptUnread = keptUnread
    }

    /// No flag set: such an entry has no row.
    package var isEmpty: Bool { !read && !starred && !keptUnread }

    /// The states that change when `states` are marked read (or unread), and how each feed's
    /// unread count moves. Read is the entry's own flag; unread under its feed's mark is kept unread.
    package static func settingRead(_ value: Bool, _ states: [EntryState]) -> (changed: [EntryState], delta: [String: Int]) {
        var changed: [EntryState] = []
        var delta: [String: Int] = [:]
        for var state in states where state.isRead != value {
            state.read = value
            state.keptUnread = !value && state.id <= state.mark
            delta[state.source, default: 0] += value ? -1 : 1
            changed.append(state)
        }
        return (changed, delta)
    }

    /// The states that change when `states` are starred (or unstarred).
    package static func settingStarred(_ value: Bool, _ states: [EntryState]) -> [EntryState] {
        states.filter { $0.starred != value }.map { state in
            var state = state
            state.starred = value
            return state
        }
    }
}

/// How entries are keyed and ordered in every store.
package enum EntryRules {
    /// An entry's key in URLs and read state: a stable hash of its identity.
    package static func key(identity: String) -> String {
        StableHash.hex(identity)
    }

    /// Where an entry sorts in reading lists (seconds since 1970): its own date, never later than
    /// when Kiosk received it (a feed dated in the future does not stay on top), else that.
    package static func sortDate(of entry: Entry, received: Double) -> Double {
        sortDate(published: (entry.published ?? entry.updated)?.timeIntervalSince1970, received: received)
    }

    /// The same rule for a row that kept only its publication date.
    package static func sortDate(published: Double?, received: Double) -> Double {
        min(published ?? received, received)
    }
}
