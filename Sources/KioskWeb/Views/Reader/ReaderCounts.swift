import KioskModel
import KioskReader
import KioskSources
import KioskStore

/// Unread counts as every reader page shows them: per feed, per folder, in all, starred, saved
/// searches and labels.
struct ReaderCounts: Sendable, Encodable {
    var all: Int
    var starred: Int
    var feeds: [String: Int]
    var folders: [String: Int]
    /// Each saved search's unread entries (up to `SavedSearches.countCap`), by id.
    var searches: [String: Int]
    /// Each label's unread entries, by name (every label the user has, also at 0).
    var labels: [String: Int]

    init(
        unread: [SourceID: Int], starred: Int, subscriptions: [Subscription], searches: [Int64: Int] = [:],
        labels: [LabelCount] = []
    ) {
        var feeds: [String: Int] = [:]
        var folders: [String: Int] = [:]
        var all = 0
        for subscription in subscriptions {
            let count = unread[subscription.id] ?? 0
            feeds[subscription.id.rawValue] = count
            all += count
            if let folder = subscription.folder { folders[folder, default: 0] += count }
        }
        self.all = all
        self.starred = starred
        self.feeds = feeds
        self.folders = folders
        self.searches = Dictionary(uniqueKeysWithValues: searches.map { (String($0.key), $0.value) })
        self.labels = Dictionary(labels.map { ($0.name, $0.unread) }, uniquingKeysWith: { first, _ in first })
    }

    /// Saved searches' counts stop one past this, which reads "100+" (for the script).
    var searchCap = SavedSearches.countCap

    /// The document title with the unread count in front, as mail and feed readers do (`count`
    /// as a badge reads it).
    static func title(_ title: String, unread: Int, count: String? = nil) -> String {
        unread > 0 ? "(\(count ?? String(unread))) \(title)" : title
    }

    /// What a count reads: a saved search's past its cap reads "100+" (it was not counted further).
    static func text(_ count: Int, key: String) -> String {
        key.hasPrefix("search:") && count > SavedSearches.countCap ? "\(SavedSearches.countCap)+" : String(count)
    }
}

/// A small count beside a name, kept current by the script (`data-count-for`).
struct CountBadge: Sendable {
    var key: String
    var count: Int

    var node: Node {
        el("span", .class("count"), .data("count-for", key), .flag("hidden", count == 0),
            .aria("label", "\(ReaderCounts.text(count, key: key)) unread")) { ReaderCounts.text(count, key: key) }
    }
}
