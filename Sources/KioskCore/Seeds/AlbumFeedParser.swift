import Foundation

/// Reads Apple's top-albums feeds (RSS generator v1 and v2), telling the two apart from the content.
public enum AlbumFeedParser {
    /// Parses an Apple albums feed.
    /// - Throws: ``SeedError/notJSON(_:)`` for non-JSON bytes, ``SeedError/unexpectedShape(_:)``
    ///   when there is no `feed.results` list. Albums without an id or name are skipped.
    public static func parse(_ data: Data) throws(SeedError) -> AlbumChart {
        let root = try SeedJSON.parse(data)
        guard let feed = root["feed"], feed.object != nil else {
            throw .unexpectedShape("expected an Apple albums feed, an object with a \"feed\"")
        }
        guard let results = feed["results"]?.array else {
            throw .unexpectedShape("expected an Apple albums feed with a \"results\" list")
        }
        let version = detectVersion(feed: feed, results: results)
        let feedCopyright = feed["copyright"]?.text
        return AlbumChart(
            version: version,
            title: feed["title"]?.text,
            updated: feed["updated"]?.text.flatMap(DateParser.parse),
            copyright: feedCopyright,
            albums: results.compactMap { album($0, version: version, feedCopyright: feedCopyright) }
        )
    }

    static func detectVersion(feed: SeedJSON, results: [SeedJSON]) -> AlbumFeedVersion {
        // The feed's id and self link name the API version outright.
        let links = (feed["links"]?.array ?? []).flatMap { $0.object?.values.compactMap(\.string) ?? [] }
        for address in [feed["id"]?.string].compactMap({ $0 }) + links {
            if address.contains("/api/v1/") { return .v1 }
            if address.contains("/api/v2/") { return .v2 }
        }
        // Failing that: v1 says kind "album" and gives a copyright per album; v2 says "albums".
        if let kind = results.lazy.compactMap({ $0["kind"]?.text }).first {
            return kind == "album" ? .v1 : .v2
        }
        return results.contains { $0["copyright"]?.text != nil } ? .v1 : .v2
    }

    static func album(_ row: SeedJSON, version: AlbumFeedVersion, feedCopyright: String?) -> Album? {
        guard let id = row["id"]?.identifier, let name = row["name"]?.text else { return nil }
        let rating = row["contentAdvisoryRating"]?.text?.lowercased()
        return Album(
            id: id,
            name: name,
            artistName: row["artistName"]?.text,
            artworkURL: row["artworkUrl100"]?.text,
            // Both versions give genre objects; a bare string is accepted too.
            genres: (row["genres"]?.array ?? []).compactMap { $0["name"]?.text ?? $0.text },
            releaseDate: row["releaseDate"]?.text.flatMap(DateParser.parse),
            copyright: row["copyright"]?.text ?? (version == .v2 ? feedCopyright : nil),
            // Apple's v2 generator misspells the rating "Explict".
            isExplicit: rating == "explicit" || rating == "explict",
            url: row["url"]?.text
        )
    }
}
