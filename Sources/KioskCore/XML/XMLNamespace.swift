/// The namespaces whose elements mean something to a feed reader. Elements of any other
/// namespace are ignored, so an extension's `<s:title>` never clobbers the core title.
enum XMLNamespace: Sendable, Hashable {
    /// RSS 0.9x/2.0 (no namespace), RSS 1.0, RSS 0.90 and Atom: the core of each format, and
    /// unprefixed elements of namespaces we don't know (liberal readers treat those as core).
    case core
    case atom
    case rdf
    case dc
    case dcterms
    case content
    case media
    case itunes
    case feedburner
    /// Podcasting 2.0 (`podcast:chapters`, `podcast:transcript`...).
    case podcast
    case xhtml
    case xml
    /// A namespace we know nothing of.
    case other

    /// The namespace a URI names; `atom` is separated from `core` because RSS feeds embed it.
    init(uri: String) {
        var key = uri.lowercased()
        while key.hasSuffix("/") || key.hasSuffix("#") { key.removeLast() }
        self = Self.byURI[key] ?? .other
    }

    /// The namespace a prefix conventionally names, for feeds that use it without declaring it.
    init(conventionalPrefix prefix: String) {
        self = Self.byPrefix[prefix.lowercased()] ?? .other
    }

    /// Whether an unprefixed element whose default namespace is this one is a core element.
    var isCoreWhenDefault: Bool {
        switch self {
        case .core, .atom, .other: true
        default: false
        }
    }

    private static let byURI: [String: XMLNamespace] = [
        "http://www.w3.org/2005/atom": .atom,
        "http://purl.org/atom/ns": .atom,
        "http://purl.org/rss/1.0": .core,
        "http://my.netscape.com/rdf/simple/0.9": .core,
        "http://backend.userland.com/rss2": .core,
        "http://backend.userland.com/rss": .core,
        "http://blogs.law.harvard.edu/tech/rss": .core,
        "http://www.w3.org/1999/02/22-rdf-syntax-ns": .rdf,
        "http://purl.org/dc/elements/1.1": .dc,
        "http://purl.org/dc/elements/1.0": .dc,
        "http://purl.org/dc/terms": .dcterms,
        "http://purl.org/rss/1.0/modules/content": .content,
        "http://search.yahoo.com/mrss": .media,
        "http://www.itunes.com/dtds/podcast-1.0.dtd": .itunes,
        "http://rssnamespace.org/feedburner/ext/1.0": .feedburner,
        "https://podcastindex.org/namespace/1.0": .podcast,
        "https://github.com/podcastindex-org/podcast-namespace/blob/main/docs/1.0.md": .podcast,
        "http://www.w3.org/1999/xhtml": .xhtml,
        "http://www.w3.org/xml/1998/namespace": .xml,
    ]

    private static let byPrefix: [String: XMLNamespace] = [
        "atom": .atom, "atom03": .atom, "atom10": .atom, "rdf": .rdf, "dc": .dc, "dcterms": .dcterms,
        "content": .content, "media": .media, "itunes": .itunes, "feedburner": .feedburner, "podcast": .podcast,
        "xhtml": .xhtml, "xml": .xml, "rss": .core,
    ]
}
