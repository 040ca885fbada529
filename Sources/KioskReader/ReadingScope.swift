import KioskModel
import KioskSources

/// A reading list: every feed, a folder, one feed, or the starred entries.
public enum ReadingScope: Sendable, Hashable {
    case all
    case starred
    case folder(String)
    case feed(SourceID)
}
