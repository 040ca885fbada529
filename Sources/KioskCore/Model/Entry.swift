import Foundation

/// One item of a feed: an RSS `item`, an Atom `entry` or a JSON Feed item.
public struct Entry: Sendable, Hashable, Codable {
    /// The entry's identity as the feed gives it (`guid`, Atom `id`, JSON `id`).
    public var id: String?
    /// The title as plain text.
    public var title: String?
    /// The entry's web page; FeedBurner's `origLink` wins over the tracking link.
    public var link: String?
    public var published: Date?
    public var updated: Date?
    public var authors: [Author]
    /// The short form (RSS `description`, Atom `summary`), as the feed gives it (may be HTML).
    public var summary: String?
    /// The full form (`content:encoded`, Atom `content`), as the feed gives it (may be HTML).
    public var content: String?
    public var categories: [String]
    public var enclosures: [Enclosure]
    /// Media RSS's audio and video (`media:content`, the formats of a `media:group`), apart from
    /// `enclosures` as feedparser keeps them; nil when there are none, so older rows decode.
    public var media: [Enclosure]?
    /// A representative image URL (media thumbnail/content, itunes:image, image enclosure).
    public var image: String?
    /// What a podcast feed says of the episode (iTunes and Podcasting 2.0 tags); nil when it says
    /// nothing, so an entry without them is stored exactly as before.
    public var episode: Episode?

    public init(
        id: String? = nil, title: String? = nil, link: String? = nil, published: Date? = nil,
        updated: Date? = nil, authors: [Author] = [], summary: String? = nil, content: String? = nil,
        categories: [String] = [], enclosures: [Enclosure] = [], media: [Enclosure]? = nil, image: String? = nil,
        episode: Episode? = nil
    ) {
        self.id = id
        self.title = title
        self.link = link
        self.published = published
        self.updated = updated
        self.authors = authors
        self.summary = summary
        self.content = content
        self.categories = categories
        self.enclosures = enclosures
        self.media = media
        self.image = image
        self.episode = episode
    }

    /// The first file a player can play (audio or video): an enclosure, else a Media RSS file.
    public var playableMedia: Enclosure? {
        enclosures.first { $0.kind != nil } ?? media?.first { $0.kind != nil }
    }
}

/// A person credited with an entry.
public struct Author: Sendable, Hashable, Codable {
    public var name: String?
    public var email: String?
    public var uri: String?

    public init(name: String? = nil, email: String? = nil, uri: String? = nil) {
        self.name = name
        self.email = email
        self.uri = uri
    }
}

/// A file attached to an entry (podcast audio, an image...): RSS `enclosure`, Atom
/// `link rel="enclosure"`, JSON Feed `attachments`, Media RSS `media:content`.
public struct Enclosure: Sendable, Hashable, Codable {
    public var url: String
    public var type: String?
    public var length: Int?
    /// Media RSS `medium` ("audio", "video", "image"...), lowercased, when the feed gives it.
    public var medium: String?
    /// Seconds, when the feed gives them with the file (Media RSS `duration`, JSON Feed
    /// `duration_in_seconds`).
    public var duration: Int?

    public init(url: String, type: String? = nil, length: Int? = nil, medium: String? = nil, duration: Int? = nil) {
        self.url = url
        self.type = type
        self.length = length
        self.medium = medium
        self.duration = duration
    }

    /// Audio or video, by the MIME type, else by Media RSS's medium, else by the file's extension
    /// (feeds often leave out the type); nil for anything else (images, PDFs...).
    public var kind: MediaKind? {
        if let type = type?.lowercased() {
            if type.hasPrefix("audio/") { return .audio }
            if type.hasPrefix("video/") { return .video }
            if type == "application/ogg" || type == "application/x-mpegurl" { return .audio }
            if !type.isEmpty, type != "application/octet-stream" { return nil }
        }
        switch medium {
        case "audio": return .audio
        case "video": return .video
        case .some: return nil
        case nil: break
        }
        return MediaKind(fileExtensionOf: url)
    }
}

/// What a player does with a file.
public enum MediaKind: String, Sendable, Hashable, Codable {
    case audio
    case video

    /// By the path's extension (`.mp3`, `.m4a`, `.mp4`...), ignoring the query and fragment.
    init?(fileExtensionOf url: String) {
        let path = url.split(whereSeparator: { $0 == "?" || $0 == "#" }).first.map(String.init) ?? url
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        switch path[path.index(after: dot)...].lowercased() {
        case "mp3", "m4a", "aac", "oga", "ogg", "opus", "wav", "flac", "m4b": self = .audio
        case "mp4", "m4v", "mov", "webm", "ogv": self = .video
        default: return nil
        }
    }
}

/// A podcast episode's own facts: iTunes (`itunes:duration`, `itunes:episode`, `itunes:season`,
/// `itunes:explicit`) and Podcasting 2.0 (`podcast:chapters`, `podcast:transcript`).
public struct Episode: Sendable, Hashable, Codable {
    /// Seconds (`itunes:duration`, read by ``MediaDuration``).
    public var duration: Int?
    public var number: Int?
    public var season: Int?
    public var explicit: Bool?
    /// The chapters file (Podcasting 2.0's JSON chapters).
    public var chapters: MediaLink?
    /// Transcripts (SRT, WebVTT, JSON, HTML, text), in the feed's order.
    public var transcripts: [MediaLink]

    public init(
        duration: Int? = nil, number: Int? = nil, season: Int? = nil, explicit: Bool? = nil,
        chapters: MediaLink? = nil, transcripts: [MediaLink] = []
    ) {
        self.duration = duration
        self.number = number
        self.season = season
        self.explicit = explicit
        self.chapters = chapters
        self.transcripts = transcripts
    }

    /// Whether nothing was given (such an entry keeps `episode` nil).
    public var isEmpty: Bool {
        duration == nil && number == nil && season == nil && explicit == nil && chapters == nil && transcripts.isEmpty
    }
}

/// A file about an episode (its chapters, a transcript).
public struct MediaLink: Sendable, Hashable, Codable {
    public var url: String
    public var type: String?
    /// A transcript's language (BCP 47, as the feed gives it).
    public var language: String?
    /// `captions` for a transcript timed for display.
    public var rel: String?

    public init(url: String, type: String? = nil, language: String? = nil, rel: String? = nil) {
        self.url = url
        self.type = type
        self.language = language
        self.rel = rel
    }
}
