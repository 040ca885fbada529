import Foundation

/// What a manually added feed entry says. Every field left nil is drawn, as for a timed entry,
/// from the captured items; a field given is put in the RSS verbatim as text (XML-escaped), so
/// tests can serve hostile titles, HTML descriptions and `javascript:` links.
public struct ManualEntry: Sendable, Equatable {
    /// The entry's title, in place of the captured one (no `UPDATE n-` prefix is added).
    public var title: String?
    /// The entry's `description` (HTML, as RSS descriptions are), in place of the captured one.
    public var description: String?
    /// The entry's `link` (and FeedBurner `origLink`, which readers prefer), taken as is.
    public var link: String?

    /// An entry; with no arguments, one like a timed entry.
    public init(title: String? = nil, description: String? = nil, link: String? = nil) {
        self.title = title
        self.description = description
        self.link = link
    }
}

/// One manual addition: when it was made and what it says.
struct ManualAddition: Sendable, Equatable {
    var date: Date
    var content: ManualEntry
}
