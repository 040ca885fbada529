import Foundation

/// One album of an Apple top-albums chart (RSS generator v1 or v2).
public struct Album: Sendable, Hashable, Codable, Identifiable {
    /// Apple's catalogue id of the album.
    public var id: String
    /// The album's title.
    public var name: String
    /// The credited artist(s), as one display string.
    public var artistName: String?
    /// The artwork as the feed gives it (v1 200x200 png, v2 100x100 jpg); see ``artworkURL(size:)``.
    public var artworkURL: String?
    /// Genre names in feed order (Apple lists the catch-all "Music" among them).
    public var genres: [String]
    /// The release day (the feeds give `YYYY-MM-DD`, read as midnight UTC).
    public var releaseDate: Date?
    /// The album's copyright line; for v2, which has none per album, the feed's copyright.
    public var copyright: String?
    /// True when Apple rates the album explicit (v2 spells the rating `Explict`).
    public var isExplicit: Bool
    /// The album's page in the Apple Music / iTunes store.
    public var url: String?

    /// Creates an album; the parser fills every field it could read.
    public init(
        id: String, name: String, artistName: String? = nil, artworkURL: String? = nil, genres: [String] = [],
        releaseDate: Date? = nil, copyright: String? = nil, isExplicit: Bool = false, url: String? = nil
    ) {
        self.id = id
        self.name = name
        self.artistName = artistName
        self.artworkURL = artworkURL
        self.genres = genres
        self.releaseDate = releaseDate
        self.copyright = copyright
        self.isExplicit = isExplicit
        self.url = url
    }

    /// The artwork at `size`x`size` pixels: Apple's image server renders whatever the last path
    /// segment `{w}x{h}bb.{ext}` asks for. Nil without artwork; unchanged when the URL has no such segment.
    public func artworkURL(size: Int) -> String? {
        guard let artworkURL else { return nil }
        return Self.resized(artworkURL, to: size)
    }

    /// Replaces the `{w}x{h}` at the start of the last path segment with `{size}x{size}`.
    static func resized(_ url: String, to size: Int) -> String {
        guard size > 0 else { return url }
        let segmentStart = url.lastIndex(of: "/").map { url.index(after: $0) } ?? url.startIndex
        let segment = url[segmentStart...]
        let width = segment.prefix(while: \.isASCIIDigit)
        guard !width.isEmpty, segment[width.endIndex...].first == "x" else { return url }
        let afterX = segment.index(after: width.endIndex)
        let height = segment[afterX...].prefix(while: \.isASCIIDigit)
        guard !height.isEmpty else { return url }
        return String(url[..<segmentStart]) + "\(size)x\(size)" + String(segment[height.endIndex...])
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
