import Foundation

/// Scratch state for the entry being read; becomes an immutable ``Entry`` when its element ends.
struct MutableEntry {
    var id: String?
    var guidIsPermaLink = false
    var title: String?
    var link: String?
    var origLink: String?
    var published: Date?
    var updated: Date?
    var authors: [Author] = []
    var textAuthor: String?
    var summary: String?
    var content: String?
    var categories: [String] = []
    var enclosures: [Enclosure] = []
    var image: String?

    func finished() -> Entry {
        // FeedBurner's origLink is the article; a permalink guid stands in for a missing link.
        var link = origLink ?? link
        if link == nil, guidIsPermaLink, let id { link = id }
        var authors = authors
        if authors.isEmpty, let textAuthor { authors = [AuthorText.parse(textAuthor)] }
        var image = image
        if image == nil {
            image = enclosures.first { $0.type?.lowercased().hasPrefix("image/") ?? false }?.url
        }
        return Entry(
            id: id, title: title, link: link, published: published, updated: updated, authors: authors,
            summary: summary, content: content, categories: categories, enclosures: enclosures, image: image)
    }
}

/// Scratch state for the feed-level fields.
struct MutableFeed {
    var id: String?
    var title: String?
    var link: String?
    var language: String?
    var rootLanguage: String?
    var updated: Date?
    var image: String?
    var icon: String?
    var ttl: Int?
}
