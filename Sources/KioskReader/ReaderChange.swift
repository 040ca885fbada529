import KioskSources

/// Something the user changed in their reader, for every open page (and, later, sync clients).
public enum ReaderChange: Sendable, Hashable {
    /// Subscriptions were added, removed, renamed or moved.
    case subscriptions
    /// These entries were marked read (or unread).
    case read(ids: [Int64], isRead: Bool)
    /// These entries were starred (or unstarred).
    case starred(ids: [Int64], isStarred: Bool)
}
