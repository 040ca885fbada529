import KioskCore
import KioskModel
import KioskSources

/// Which drawing each source's entries get, from its kind (`SourceKind.drawing`): every source
/// the catalogue defines by its kind's, anything else (a feed a reader added) as headlines.
public struct EntryDrawings: Sendable {
    private let bySource: [SourceID: SourceKind.Drawing]

    public init(catalogue: SourceCatalogue, kinds: SourceKinds) {
        var bySource: [SourceID: SourceKind.Drawing] = [:]
        for feed in catalogue.feeds {
            bySource[feed.id] = kinds[feed.kind]?.drawing ?? .headlines
        }
        self.bySource = bySource
    }

    /// Every source as headlines.
    public init() { bySource = [:] }

    func drawing(of source: SourceID) -> SourceKind.Drawing { bySource[source] ?? .headlines }
}

/// One entry drawn as its kind says: the part of a list row that differs by kind, and the title
/// its pages use. News rows, reader rows and both detail pages go through it.
struct EntryDrawing: Sendable {
    var style: SourceKind.Drawing
    var entry: Entry

    /// The longest post a list row shows whole; a longer one is cut at a word.
    static let postLimit = 500

    /// What a page calls the entry: its title; a post without one, its first words.
    var title: String {
        if let title = entry.title, !title.isEmpty { return title }
        if style == .posts, let words = Snippet.of(entry.content ?? entry.summary, limit: 80) { return words }
        return "Untitled"
    }

    /// The row's text: a headline's title (after `marker`, a reader row's unread dot) and a line of
    /// `summary`; a post's author and its whole text.
    func rowText(marker: Node? = nil, summary: String?) -> [Node] {
        switch style {
        case .headlines:
            return nodes {
                el("span", .class("entry-title")) {
                    if let marker { marker }
                    title
                }
                if let snippet = Snippet.of(summary) {
                    el("span", .class("entry-snippet")) { snippet }
                }
            }
        case .posts:
            let author = entry.authors.compactMap(\.name).first { !$0.isEmpty }
            return nodes {
                el("span", .class("entry-byline")) {
                    if let marker { marker }
                    author ?? ""
                }
                el("span", .class("entry-post-text")) {
                    Snippet.of(entry.content ?? entry.summary, limit: Self.postLimit) ?? entry.title ?? ""
                }
            }
        }
    }

    /// The row's class: `entry` and the drawing's own.
    var rowClass: String { style == .posts ? "entry entry-post" : "entry" }
}
