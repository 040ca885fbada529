import Foundation
import KioskCore

/// A feed the user reads: where it is, what it is called, where it is filed and how often it is
/// checked. Subscriptions are data (the store keeps them); the three Reuters feeds of the News
/// screen are the default subscriptions, marked `isBuiltIn` so they cannot be unsubscribed.
public struct Subscription: Sendable, Hashable, Codable {
    public var id: SourceID
    public var url: URL
    /// The name the user gave it; nil shows the feed's own title.
    public var title: String?
    /// The feed's own title, as last read.
    public var feedTitle: String?
    /// The feed's web site.
    public var siteURL: String?
    /// The folder it is filed in; nil is the top level.
    public var folder: String?
    /// Time between checks while the feed answers.
    public var interval: Duration
    /// One of the sources the News screen is built from.
    public var isBuiltIn: Bool
    public var addedAt: Date
    /// The user's "Show full articles": each new entry's page is fetched on arrival and its
    /// article shown (and synced) as the entry's content.
    public var fullArticles: Bool

    public init(
        id: SourceID, url: URL, title: String? = nil, feedTitle: String? = nil, siteURL: String? = nil,
        folder: String? = nil, interval: Duration = Subscription.defaultInterval, isBuiltIn: Bool = false,
        addedAt: Date = Date(), fullArticles: Bool = false
    ) {
        self.fullArticles = fullArticles
        self.id = id
        self.url = url
        self.title = title
        self.feedTitle = feedTitle
        self.siteURL = siteURL
        self.folder = folder
        self.interval = interval
        self.isBuiltIn = isBuiltIn
        self.addedAt = addedAt
    }

    /// A polite default for the user's own feeds: a personal reader has no business checking a
    /// stranger's blog every few seconds (the built-in sources keep the seed's 5 s).
    public static let defaultInterval: Duration = .seconds(15 * 60)

    /// Bounds of a per-feed interval the user may choose.
    public static let intervalRange: ClosedRange<Duration> = .seconds(1)...(.seconds(24 * 60 * 60))

    /// What lists and headings call it.
    public var displayName: String {
        if let title = Self.nonBlank(title) { return title }
        if let feedTitle = Self.nonBlank(feedTitle) { return feedTitle }
        return url.host ?? url.absoluteString
    }

    /// The id a user's feed gets: the same URL is always the same source, so a feed followed
    /// twice (by OPML and by hand, later by two users) is fetched once.
    public static func id(for url: URL) -> SourceID {
        SourceID("feed-" + StableHash.hex(url.absoluteString))
    }

    /// What the engine polls.
    public var polledSource: PolledSource {
        PolledSource(id: id, name: displayName, url: url, interval: interval)
    }

    private static func nonBlank(_ text: String?) -> String? {
        guard let text else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }
}
