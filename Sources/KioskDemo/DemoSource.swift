/// One of the sample sources the demo server plays. Each has its own latency, fault and counters.
public enum DemoSource: String, CaseIterable, Sendable {
    /// Reuters business news RSS (captured 2019), evolving.
    case business
    /// Reuters entertainment RSS, evolving.
    case entertainment
    /// Reuters environment RSS, evolving.
    case environment
    /// The "About Canada" facts JSON, with its original Latin-1 byte.
    case facts
    /// Apple's v2 most-played albums chart, artwork on this server.
    case albums
    /// NewsAPI v2 `top-headlines` and `everything`.
    case newsAPI
    /// The Switter joke API.
    case jokes
    /// Generated PNG artwork and news images.
    case images
    /// Many small generated feeds (`/samples/N.xml`), for clusters and benchmarks that need a
    /// thousand feeds; counted per path.
    case samples
    /// Each kind of source's demo sample (`/kinds/<kind>`, `SourceKind.DemoSample`); counted per path.
    case kinds

    /// Where the source lives on the demo server; for `newsAPI` and `images`, the prefix of its paths.
    public var path: String {
        switch self {
        case .business: "/reuters/business.xml"
        case .entertainment: "/reuters/entertainment.xml"
        case .environment: "/reuters/environment.xml"
        case .facts: "/facts.json"
        case .albums: "/apple/v2/us/music/most-played/100/albums.json"
        case .newsAPI: "/newsapi/v2/"
        case .jokes: "/switter/api/joke"
        case .images: "/images/"
        case .samples: "/samples/"
        case .kinds: "/kinds/"
        }
    }

    /// Whether the source is one of the evolving RSS feeds.
    public var isFeed: Bool {
        switch self {
        case .business, .entertainment, .environment: true
        default: false
        }
    }

    /// The source a request path belongs to, or nil when no source serves it.
    public init?(path: String) {
        if path.hasPrefix(DemoSource.newsAPI.path) {
            self = .newsAPI
        } else if path.hasPrefix(DemoSource.images.path) {
            self = .images
        } else if path.hasPrefix(DemoSource.samples.path) {
            self = .samples
        } else if path.hasPrefix(DemoSource.kinds.path) {
            self = .kinds
        } else if let source = DemoSource.allCases.first(where: { $0.path == path }) {
            self = source
        } else {
            return nil
        }
    }

    /// The source named `name`, case-insensitively (`newsapi` finds `newsAPI`).
    public init?(name: String) {
        let lowered = name.lowercased()
        guard let source = DemoSource.allCases.first(where: { $0.rawValue.lowercased() == lowered }) else { return nil }
        self = source
    }
}
