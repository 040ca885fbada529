import KioskModel
import KioskSources

/// A reading list: every feed, a folder, one feed, the starred entries, a saved search (whose
/// entries `SavedSearches` finds; it has no "Mark all read"), a label, or what rules hid.
public enum ReadingScope: Sendable, Hashable {
    case all
    case starred
    case folder(String)
    case feed(SourceID)
    case search(Int64)
    /// The entries the user put a label on.
    case label(String)
    /// The entries a rule hid (out of every other list).
    case hidden

    /// The label of a label's list.
    public var label: String? {
        if case .label(let name) = self { name } else { nil }
    }
}
