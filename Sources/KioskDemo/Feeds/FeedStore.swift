import Foundation

/// Builds and caches the current edition of each evolving feed: new entries at the top, drawn
/// from a pool of every captured item, at most ``maximumItems`` in all.
actor FeedStore {
    static let maximumItems = 40

    private let templates: [DemoSource: RSSTemplate]
    private let timelines: [DemoSource: FeedTimeline]
    /// Items of all feeds interleaved, so one feed's new entries mix topics.
    private let pool: [String]
    private let start: Date
    private var editions: [DemoSource: FeedEdition] = [:]
    /// Rewritten items by ordinal: an addition never changes once made, so a new edition rewrites
    /// only its newest items (rewriting all forty on every version was most of the server's time).
    private var rendered: [DemoSource: [Int: String]] = [:]

    init(feeds: [DemoSource: String], evolveEvery: [DemoSource: Duration], start: Date) throws(DemoError) {
        var templates: [DemoSource: RSSTemplate] = [:]
        var timelines: [DemoSource: FeedTimeline] = [:]
        for (source, xml) in feeds {
            templates[source] = try RSSTemplate(xml: xml, name: source.rawValue)
            timelines[source] = FeedTimeline(start: start, period: evolveEvery[source])
        }
        let ordered = DemoSource.allCases.compactMap { templates[$0]?.items }
        let longest = ordered.map(\.count).max() ?? 0
        pool = (0..<longest).flatMap { index in ordered.compactMap { index < $0.count ? $0[index] : nil } }
        self.templates = templates
        self.timelines = timelines
        self.start = Date(timeIntervalSince1970: start.timeIntervalSince1970.rounded(.down))
    }

    /// The edition of `source` at `now`, given the manual additions; nil when `source` is not a feed.
    func edition(of source: DemoSource, manual: [ManualAddition], now: Date) -> FeedEdition? {
        guard let template = templates[source], let timeline = timelines[source] else { return nil }
        let (version, additions) = timeline.additions(manual: manual.map(\.date), now: now, limit: Self.maximumItems)
        let previous = editions[source]
        if let previous, previous.version == version { return previous }

        let newestDate = additions.last.map { Date(timeIntervalSince1970: $0.date.timeIntervalSince1970.rounded(.down)) }
        let earliest = previous.map { $0.lastModified.addingTimeInterval(1) } ?? start.addingTimeInterval(version > 0 ? 1 : 0)
        let lastModified = max(newestDate ?? start, earliest)

        let feedIndex = DemoSource.allCases.firstIndex(of: source) ?? 0
        let offset = pool.isEmpty ? 0 : feedIndex * pool.count / 3
        var cache = rendered[source] ?? [:]
        let fresh = additions.reversed().map { addition in
            if let done = cache[addition.ordinal] { return done }
            let slot = pool.isEmpty ? 0 : (addition.ordinal - 1 + offset) % pool.count
            let round = pool.isEmpty ? 1 : (addition.ordinal - 1) / pool.count + 1
            let item = pool.isEmpty ? "" : pool[slot]
            let content = addition.manualIndex.map { manual[$0].content } ?? ManualEntry()
            let rewritten = RSSItemRewriter.rewrite(
                item, source: source, ordinal: addition.ordinal, round: round, pubDate: DateText.rfc822(addition.date),
                content: content)
            cache[addition.ordinal] = rewritten
            return rewritten
        }
        let live = Set(additions.map(\.ordinal))
        rendered[source] = cache.filter { live.contains($0.key) }
        let items = Array((fresh + template.items).prefix(Self.maximumItems))
        let xml = template.render(items: items, lastBuildDate: DateText.rfc822(lastModified))
        let edition = FeedEdition(
            version: version, etag: "\"\(source.rawValue)-\(version)\"", lastModified: lastModified, body: Array(xml.utf8))
        editions[source] = edition
        return edition
    }
}
