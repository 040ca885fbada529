import KioskSources

/// The News screen's segmented control: Business, or Entertainment + Environment merged.
enum NewsFeed: String, Sendable, CaseIterable {
    case business
    case entertainmentEnvironment = "entertainment-environment"

    /// `/news?feed=<slug>`; anything unknown reads as Business.
    init(slug: String?) {
        self = slug.flatMap(NewsFeed.init(rawValue:)) ?? .business
    }

    var label: String {
        switch self {
        case .business: "Business"
        case .entertainmentEnvironment: "Entertainment + Environment"
        }
    }

    /// The hub source whose entries the list shows.
    var source: SourceID {
        switch self {
        case .business: .business
        case .entertainmentEnvironment: .entertainmentAndEnvironment
        }
    }

    /// The polled feeds behind the list (their checks drive the activity indicator).
    var parts: [SourceID] {
        switch self {
        case .business: [.business]
        case .entertainmentEnvironment: [.entertainment, .environment]
        }
    }

    /// The feed a hub source is shown by, if any.
    init?(source: SourceID) {
        guard let feed = NewsFeed.allCases.first(where: { $0.source == source }) else { return nil }
        self = feed
    }

    static func partName(_ id: SourceID) -> String {
        switch id {
        case .business: "Business"
        case .entertainment: "Entertainment"
        case .environment: "Environment"
        default: id.rawValue
        }
    }
}
