/// What an OPML file holds, as an import needs it: the feeds once each, and the repeats apart
/// so the import report can say what was skipped and why.
public struct OPMLDocument: Sendable, Hashable {
    /// The file's own name for itself (`head/title`), if any.
    public var title: String?
    /// Every feed in document order, each `feedURL` once (the first occurrence wins).
    public var subscriptions: [OPMLSubscription]
    /// Later occurrences of a `feedURL` already in ``subscriptions``, in document order. Readers
    /// that allow one feed in several folders (Google Reader's heirs) export it once per folder.
    public var duplicates: [OPMLSubscription]

    public init(title: String? = nil, subscriptions: [OPMLSubscription] = [], duplicates: [OPMLSubscription] = []) {
        self.title = title
        self.subscriptions = subscriptions
        self.duplicates = duplicates
    }
}
