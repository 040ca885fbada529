import KioskModel
import KioskSources

/// A reading list: every feed, a folder, one feed, the starred entries, or a saved search (whose
/// entries `SavedSearches` finds; it has no "Mark all read").
public enum ReadingScope: Sendable, Hashable {
    case all
    case starred
    case folder(String)
    case feed(SourceID)
    case search(Int64)
}
