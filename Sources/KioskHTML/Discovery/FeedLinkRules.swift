import Foundation
import KioskCore

/// What makes a link on a page a feed: declared media types for `<link>` elements, the
/// address's shape, `type` and text for `<a>` elements.
enum FeedLinkRules {
    /// Whether a link is a feed and, if so, which kind it says it is.
    enum Verdict: Equatable {
        /// A feed; `type` is `"rss"`, `"atom"`, `"json"` or nil when unknown.
        case feed(type: String?)
        case notFeed
    }

    // MARK: - <link rel="alternate">

    /// Whether a `rel` value (a space-separated token list, any case) makes a link an alternate
    /// version of the page that may be a feed: `alternate`, but not `alternate stylesheet`.
    static func isAlternate(rel: String) -> Bool {
        var alternate = false
        for token in rel.utf8.split(whereSeparator: ASCIIWhitespace.contains) {
            let name = String(decoding: token, as: UTF8.self).lowercased()
            if name == "stylesheet" { return false }
            if name == "alternate" { alternate = true }
        }
        return alternate
    }

    /// The verdict on a `<link rel="alternate">` to absolute `url`, from its `type` attribute
    /// (nil when absent).
    ///
    /// Without a type it is a feed only when nothing marks it as another version of the page:
    /// `hreflang` (a translation) and `media` (a mobile site) alternates carry no type either,
    /// and every multilingual site and YouTube page has them.
    static func linkVerdict(url: String, type: String?, hasHreflang: Bool, hasMedia: Bool) -> Verdict {
        guard let type, let mediaType = mediaType(type) else {
            return hasHreflang || hasMedia ? .notFeed : .feed(type: nil)
        }
        switch mediaType {
        case "application/json":
            // JSON Feed's older type, only trusted on a declared alternate, and not WordPress's.
            return isWordPressRESTLink(url) ? .notFeed : .feed(type: "json")
        case "text/xml", "application/xml":
            return .feed(type: nil)
        default:
            return feedMediaTypes[mediaType].map { .feed(type: $0) } ?? .notFeed
        }
    }

    /// Whether a `<link type="application/json">` is really WordPress's REST API record of the
    /// page (`/wp-json/wp/v2/posts/1`, or `?rest_route=` without pretty permalinks), which every
    /// WordPress page declares as an alternate and which is no feed.
    private static func isWordPressRESTLink(_ url: String) -> Bool {
        guard let parts = DiscoveryURL.Parts(url) else { return false }
        return parts.path.lowercased().contains("/wp-json/")
            || (parts.query?.lowercased().contains("rest_route=") ?? false)
    }

    // MARK: - <a href>

    /// The verdict on an `<a>` with absolute URL `url`, its `type` attribute and its title
    /// (text, else `title` attribute, already cleaned).
    static func anchorVerdict(url: String, typeAttribute: String?, title: String?) -> Verdict {
        let declared = typeAttribute.flatMap(mediaType).flatMap { feedMediaTypes[$0] }
        if case .feed(let shapeType) = urlShape(url) {
            return .feed(type: shapeType ?? declared)
        }
        if let declared { return .feed(type: declared) }
        if let title, anchorFeedWords.contains(title.lowercased()) { return .feed(type: nil) }
        return .notFeed
    }

    /// Whether an absolute URL looks like a feed by its path or query: `.rss`, `.rdf`, `.atom`
    /// or `.xml` (not a sitemap), a last segment `feed`, `rss` or `atom`, `/feed/` or `/rss/` in
    /// the path, WordPress's `?feed=rss2` or Squarespace's `?format=rss`, or a FeedBurner feed;
    /// the type is the one the shape implies.
    static func urlShape(_ url: String) -> Verdict {
        guard let parts = DiscoveryURL.Parts(url) else { return .notFeed }
        let path = parts.path.lowercased()
        let lastSegment = path.split(separator: "/").last.map(String.init) ?? ""
        if lastSegment.hasSuffix(".rss") || lastSegment.hasSuffix(".rdf") { return .feed(type: "rss") }
        if lastSegment.hasSuffix(".atom") { return .feed(type: "atom") }
        if lastSegment.hasSuffix(".xml") && !lastSegment.contains("sitemap") { return .feed(type: nil) }
        switch lastSegment {
        case "rss": return .feed(type: "rss")
        case "atom": return .feed(type: "atom")
        case "feed": return .feed(type: nil)
        default: break
        }
        if path.contains("/feed/") || path.contains("/rss/") { return .feed(type: nil) }
        if let query = parts.query, let type = queryFeedType(query) { return .feed(type: type) }
        // FeedBurner feeds have no telling path; `/~ff/`, `/~r/` are its sharing and tracking links.
        if feedBurnerHosts.contains(parts.host.lowercased()) && !path.hasPrefix("/~") && path.count > 1 {
            return .feed(type: nil)
        }
        return .notFeed
    }

    /// The kind of feed a query asks for with `feed=rss2` (WordPress without pretty permalinks)
    /// or `format=rss` (Squarespace); nil when no parameter asks for one.
    private static func queryFeedType(_ query: Substring) -> String? {
        for item in query.split(separator: "&") {
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2 else { continue }
            let key = pair[0].lowercased()
            if key == "feed" || key == "format", let type = queryFeedValues[pair[1].lowercased()] { return type }
        }
        return nil
    }

    // MARK: - Tables

    /// A `type` attribute's media type: parameters dropped, trimmed, lowercased; nil if empty.
    static func mediaType(_ value: String) -> String? {
        let essence = value.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let trimmed = String(essence).trimmingASCIIWhitespace.lowercased()
        return trimmed.isEmpty ? nil : trimmed
    }

    /// Media types that only ever name a feed, with the kind each names. RSS 1.0 is RDF; the
    /// `x-` forms are what pages wrote before the types were registered.
    private static let feedMediaTypes: [String: String] = [
        "application/rss+xml": "rss",
        "application/x-rss+xml": "rss",
        "application/rdf+xml": "rss",
        "application/atom+xml": "atom",
        "application/x.atom+xml": "atom",
        "application/x-atom+xml": "atom",
        "application/feed+json": "json",
    ]

    /// Query values of `feed=` / `format=` that ask for a feed, with the kind they ask for.
    private static let queryFeedValues: [String: String] = [
        "rss": "rss", "rss2": "rss", "rdf": "rss", "atom": "atom", "comments-rss2": "rss",
    ]

    /// Link texts that name the feed itself ("RSS" next to an orange icon).
    private static let anchorFeedWords: Set<String> = ["rss", "atom", "feed"]

    private static let feedBurnerHosts: Set<String> = ["feeds.feedburner.com", "feeds2.feedburner.com"]
}
