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
    var media: [Enclosure] = []
    var image: String?
    var duration: Int?
    var episodeNumber: Int?
    var season: Int?
    var explicit: Bool?
    var chapters: MediaLink?
    var transcripts: [MediaLink] = []

    /// Files kept per entry: a podcast lists one or a few formats, a hostile feed thousands.
    static let maxEnclosures = 256
    /// Transcripts kept per entry (one per language and format is plenty).
    static let maxTranscripts = 8

    /// Adds a file, repeats included, as feedparser keeps them, up to as many as it keeps.
    mutating func add(_ enclosure: Enclosure) {
        guard enclosures.count < Self.maxEnclosures else { return }
        enclosures.append(enclosure)
    }

    /// Adds a Media RSS file the same way (a `media:content` often names an enclosure's file
    /// again: that one is kept once, as the enclosure).
    mutating func add(media file: Enclosure) {
        guard media.count < Self.maxEnclosures, !media.contains(where: { $0.url == file.url }) else { return }
        media.append(file)
    }

    mutating func add(transcript: MediaLink) {
        guard transcripts.count < Self.maxTranscripts, !transcripts.contains(where: { $0.url == transcript.url }) else { return }
        transcripts.append(transcript)
    }

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
        let episode = Episode(
            duration: duration, number: episodeNumber, season: season, explicit: explicit, chapters: chapters,
            transcripts: transcripts)
        return Entry(
            id: id, title: title, link: link, published: published, updated: updated, authors: authors,
            summary: summary, content: content, categories: categories, enclosures: enclosures,
            media: Self.media(media, besides: enclosures), image: image, episode: episode.isEmpty ? nil : episode)
    }
}

extension MutableEntry {
    fileprivate static func media(_ media: [Enclosure], besides enclosures: [Enclosure]) -> [Enclosure]? {
        let files = media.filter { file in !enclosures.contains { $0.url == file.url } }
        return files.isEmpty ? nil : files
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
