extension SourceKind {
    /// Syndication feeds: RSS 0.9x-2.0, RDF, Atom and JSON Feed, told apart by `FeedParser`
    /// from the content itself (every News source and every feed a user subscribes to).
    public static let feed = SourceKind(id: .feed, name: "Feed") { bytes, charset, limits in
        let feed = try FeedParser.parse(bytes, charsetHint: charset, limits: limits)
        return Reading(entries: feed.entries, ttlMinutes: feed.ttl)
    }
}
