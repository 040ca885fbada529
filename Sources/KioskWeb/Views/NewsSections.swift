import KioskModel
import KioskSources

/// One choice of the News screen's segmented control: a feed, or a merged source shown as one list.
struct NewsSection: Sendable, Hashable {
    /// `/news?feed=<slug>`.
    var slug: String
    var label: String
    /// The hub source whose entries the list shows.
    var source: SourceID
    /// The polled feeds behind the list (their checks drive the activity indicator).
    var parts: [SourceID]

    /// What News shows when the catalogue has no News sections: an empty list.
    static let none = NewsSection(slug: "", label: "News", source: "", parts: [])
}

/// The News screen's sections, from the catalogue (`SourceCatalogue.news`), with the names of the
/// feeds behind them (the subscriptions' names): nothing about News is written into a view.
public struct NewsSections: Sendable {
    let sections: [NewsSection]
    private let names: [SourceID: String]
    /// How each feed's entries are drawn.
    let drawings: EntryDrawings

    public init(catalogue: SourceCatalogue, names: [SourceID: String], drawings: EntryDrawings = EntryDrawings()) {
        self.names = names
        self.drawings = drawings
        sections = catalogue.news.map { id in
            let merged = catalogue.merged.first(where: { $0.id == id })
            return NewsSection(
                slug: Self.slug(id), label: names[id] ?? merged?.name ?? id.rawValue, source: id,
                parts: merged?.parts ?? [id])
        }
    }

    /// The section for `slug`; anything unknown reads as the first.
    func section(slug: String?) -> NewsSection? {
        sections.first(where: { $0.slug == slug }) ?? sections.first
    }

    /// The section whose list is `source`, if any.
    func section(showing source: SourceID) -> NewsSection? {
        sections.first(where: { $0.source == source })
    }

    /// The section a feed's entries appear in, if any.
    func section(containing feed: SourceID) -> NewsSection? {
        sections.first(where: { $0.parts.contains(feed) })
    }

    /// Whether News shows `feed` (its detail pages live under `/news/<feed>/`).
    func shows(_ feed: SourceID) -> Bool { section(containing: feed) != nil }

    /// Whether `source` is one of News' lists or feeds: everyone's, not a reader's own feed.
    func isNews(_ source: SourceID) -> Bool { section(showing: source) != nil || shows(source) }

    /// A feed's name for labels and messages.
    func name(of feed: SourceID) -> String { names[feed] ?? feed.rawValue }

    /// URL-safe: "entertainment+environment" is "entertainment-environment".
    static func slug(_ id: SourceID) -> String {
        String(id.rawValue.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "-" })
    }
}
