import Foundation
import KioskCore

/// Feed autodiscovery: given a web page someone pasted instead of a feed address, the feeds it
/// points to. Pure functions over bytes; fetching the page and trying the candidates is the
/// caller's business.
public enum FeedDiscovery {
    /// Bytes of a page read for links. Feed links sit in the head or near the top of the body;
    /// reading no further keeps a 20 MB page as cheap as a 2 MB one.
    static let maximumScannedBytes = 2 * 1024 * 1024

    /// Candidates on an HTML page, in priority order, absolute, deduplicated (first wins):
    /// every `<link rel="alternate">` that is a feed, in document order, then every `<a href>`
    /// that looks like one.
    ///
    /// - Parameters:
    ///   - bytes: the page as fetched; only the first 2 MiB are read.
    ///   - pageURL: the page's final address (after redirects): relative links resolve against
    ///     it, or against the page's first `<base href>`.
    ///   - charsetHint: the `charset` of the HTTP `Content-Type`, which wins over `<meta>`.
    public static func candidates(
        inHTML bytes: [UInt8], pageURL: String, charsetHint: String? = nil
    ) -> [FeedCandidate] {
        let scanned = boundedPrefix(bytes)
        let charset = charsetHint ?? HTMLSniffer.declaredCharset(scanned)
        let page = PageLinks(html: TextDecoding.string(scanned, charsetHint: charset))

        let base = page.baseHref.flatMap { DiscoveryURL.absolute($0, against: pageURL) } ?? pageURL
        var seen: Set<String> = []
        // The page itself is no feed, however a link to it (`href="#"`, `href=""`) is labelled.
        if let own = DiscoveryURL.absolute(pageURL, against: nil) { seen.insert(own) }
        var found: [FeedCandidate] = []

        for link in page.links {
            guard let url = DiscoveryURL.absolute(link.href, against: base) else { continue }
            let verdict = FeedLinkRules.linkVerdict(
                url: url, type: link.type, hasHreflang: link.hasHreflang, hasMedia: link.hasMedia)
            guard case .feed(let type) = verdict, seen.insert(url).inserted else { continue }
            let title = link.title.flatMap(cleanTitle)
            found.append(FeedCandidate(url: url, title: title, type: type, source: .linkElement))
        }
        for anchor in page.anchors {
            guard let url = DiscoveryURL.absolute(anchor.href, against: base) else { continue }
            let title = cleanTitle(anchor.text) ?? anchor.title.flatMap(cleanTitle)
            let verdict = FeedLinkRules.anchorVerdict(url: url, typeAttribute: anchor.type, title: title)
            guard case .feed(let type) = verdict, seen.insert(url).inserted else { continue }
            found.append(FeedCandidate(url: url, title: title, type: type, source: .anchor))
        }
        return found
    }

    /// The common feed paths to try on a site when the page lists none, as absolute URLs on the
    /// page's origin, in this order: `/feed`, `/feed/` (WordPress), `/rss.xml`, `/atom.xml`,
    /// `/index.xml` (Hugo), `/feed.xml` (Jekyll), `/index.rss`. Empty when `siteURL` is not an
    /// absolute http(s) URL.
    public static func commonPathCandidates(for siteURL: String) -> [FeedCandidate] {
        guard let absolute = DiscoveryURL.absolute(siteURL, against: nil),
            let origin = DiscoveryURL.Parts(absolute)?.origin
        else { return [] }
        return commonPaths.map { path, type in
            FeedCandidate(url: origin + path, title: nil, type: type, source: .commonPath)
        }
    }

    /// Whether bytes look like an HTML page rather than a feed, to decide whether to parse them
    /// as a feed or look for links in them.
    ///
    /// The bytes decide first: after a BOM, whitespace, comments, processing instructions and
    /// other doctypes, `<!doctype html`, `<html`, `<head`, `<body` (or another element pages
    /// start with) mean a page, while `<rss`, `<feed`, `<rdf:RDF` or JSON mean a feed even when
    /// served as `text/html`, as misconfigured servers do. Only when the start tells nothing
    /// does a `text/html` (or XHTML) `contentType` make it a page.
    public static func looksLikeHTML(_ bytes: [UInt8], contentType: String?) -> Bool {
        switch HTMLSniffer.sniff(bytes) {
        case .html: return true
        case .notHTML: return false
        case .unknown: return HTMLSniffer.isHTMLMediaType(contentType)
        }
    }

    // MARK: - Helpers

    /// Where blog engines put their feeds, with the type the path implies.
    private static let commonPaths: [(String, String?)] = [
        ("/feed", nil), ("/feed/", nil), ("/rss.xml", "rss"), ("/atom.xml", "atom"), ("/index.xml", nil),
        ("/feed.xml", nil), ("/index.rss", "rss"),
    ]

    /// Titles longer than this are cut: a feed's name, not an essay someone put in `title`.
    static let maximumTitleBytes = 512

    /// The first ``maximumScannedBytes`` of a page, not cutting a UTF-8 sequence in two (which
    /// would make the decoder take the whole page for Latin-1).
    static func boundedPrefix(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.count > maximumScannedBytes else { return bytes }
        // UTF-16 and UTF-32 pages (a zero or a BOM up front) are cut on the even byte count as is.
        let wide = bytes.prefix(2).contains(0) || bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE])
        let end = wide ? maximumScannedBytes : characterBoundary(bytes, before: maximumScannedBytes)
        return Array(bytes[..<end])
    }

    /// `end` (an index inside `bytes`) moved back to the start of the UTF-8 sequence it falls
    /// inside, if any, so that `bytes[..<end]` ends on a whole character.
    static func characterBoundary(_ bytes: [UInt8], before end: Int) -> Int {
        var cut = end
        while cut > 0 && end - cut < 3 && cut < bytes.count && bytes[cut] & 0xC0 == 0x80 { cut -= 1 }
        return cut
    }

    /// Text as a title: whitespace (no-break spaces too) collapsed to single spaces, trimmed,
    /// cut at ``maximumTitleBytes``; nil when nothing is left.
    static func cleanTitle(_ raw: String) -> String? {
        var out = String.UnicodeScalarView()
        var byteCount = 0
        var pendingSpace = false
        for scalar in raw.unicodeScalars {
            if scalar.properties.isWhitespace || scalar.value < 0x20 {
                pendingSpace = !out.isEmpty
                continue
            }
            let length = (pendingSpace ? 1 : 0) + UTF8.width(scalar)
            guard byteCount + length <= maximumTitleBytes else { break }
            if pendingSpace { out.append(" ") }
            out.append(scalar)
            byteCount += length
            pendingSpace = false
        }
        return out.isEmpty ? nil : String(out)
    }
}
