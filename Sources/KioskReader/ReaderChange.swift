import KioskSources
import KioskStore

/// Something a user changed in their reader, for their open pages and sync clients.
public enum ReaderChange: Sendable, Hashable {
    /// Subscriptions were added, removed, renamed or moved (or a saved search, a reading list of
    /// the sidebar too, was saved or deleted).
    case subscriptions(user: UserID)
    /// These entries were marked read (or unread).
    case read(user: UserID, ids: [Int64], isRead: Bool)
    /// These entries were starred (or unstarred).
    case starred(user: UserID, ids: [Int64], isStarred: Bool)
    /// These entries were hidden (or shown again).
    case hidden(user: UserID, ids: [Int64], isHidden: Bool)
    /// A label was put on these entries (or taken off).
    case labelled(user: UserID, ids: [Int64], label: String, isOn: Bool)
    /// A player saved where it is in an episode; `client` is the page that saved it ("" unknown).
    case position(user: UserID, position: PlaybackPosition, client: String)

    /// Whose reader changed.
    public var user: UserID {
        switch self {
        case .subscriptions(let user), .read(let user, _, _), .starred(let user, _, _), .labelled(let user, _, _, _),
            .hidden(let user, _, _), .position(let user, _, _): user
        }
    }
}
