import Foundation
import KioskCore

/// One file's parse result in the JSON line shape of feedcompare.py, or as a readable summary.
struct ParseReport: Encodable {
    struct FeedFields: Encodable {
        var title: String?
        var link: String?
        var language: String?
        var updated: Int?
    }

    struct EntryFields: Encodable {
        var id: String?
        var title: String?
        var link: String?
        var published: Int?
        var updated: Int?
        var author: String?
        var enclosures: [String]
        // Beyond feedcompare's fields (which it ignores); absent when the feed says nothing.
        var media: [String]?
        var duration: Int?
        var episode: Int?
        var season: Int?
        var explicit: Bool?
        var chapters: String?
        var transcripts: [String]?
    }

    var file: String
    var error: String?
    var feed: FeedFields
    var entries: [EntryFields]
    private var format: String?

    init(file: String, result: Result<Feed, FeedError>) {
        self.file = file
        switch result {
        case .success(let parsed):
            error = nil
            format = parsed.format.rawValue
            feed = FeedFields(
                title: parsed.title, link: parsed.link, language: parsed.language, updated: parsed.updated.map(Self.seconds))
            entries = parsed.entries.map { entry in
                EntryFields(
                    id: entry.id, title: entry.title, link: entry.link, published: entry.published.map(Self.seconds),
                    updated: entry.updated.map(Self.seconds), author: entry.authors.first.flatMap(Self.author),
                    enclosures: entry.enclosures.map(\.url), media: entry.media?.map(\.url),
                    duration: entry.episode?.duration, episode: entry.episode?.number, season: entry.episode?.season,
                    explicit: entry.episode?.explicit, chapters: entry.episode?.chapters?.url,
                    transcripts: entry.episode.flatMap { $0.transcripts.isEmpty ? nil : $0.transcripts.map(\.url) })
            }
        case .failure(let failure):
            error = failure.description
            feed = FeedFields()
            entries = []
        }
    }

    private enum CodingKeys: String, CodingKey { case file, error, feed, entries }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(file, forKey: .file)
        try container.encode(error, forKey: .error)  // explicit null when the file parsed
        try container.encode(feed, forKey: .feed)
        try container.encode(entries, forKey: .entries)
    }

    func jsonLine() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "{\"file\": \"\(file)\", \"error\": \"unencodable\"}" }
        return String(decoding: data, as: UTF8.self)
    }

    func summary() -> String {
        if let error { return "\(file): error: \(error)" }
        var lines = ["\(file): \(format ?? "?") \"\(feed.title ?? "")\" \(entries.count) entries"]
        for entry in entries.prefix(5) {
            lines.append("  - \(entry.title ?? "(untitled)")  \(entry.link ?? "")")
        }
        if entries.count > 5 { lines.append("  … \(entries.count - 5) more") }
        return lines.joined(separator: "\n")
    }

    private static func seconds(_ date: Date) -> Int { Int(date.timeIntervalSince1970.rounded(.down)) }

    private static func author(_ author: Author) -> String? {
        switch (author.name, author.email) {
        case let (name?, email?): "\(name) (\(email))"
        case let (name?, nil): name
        case let (nil, email?): email
        case (nil, nil): nil  // a bare URI is no name to show
        }
    }
}
