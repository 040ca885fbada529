import Foundation
import KioskCore

/// Builds and caches the current edition of each evolving feed: new entries at the top, drawn
/// from a pool of every captured item, at most ``maximumItems`` in all.
actor FeedStore {
    static let maximumItems = 40

    private let templates: [DemoSource: RSSTemplate]
    private let timelines: [DemoSource: FeedTimeline]
    /// Items of all feeds interleaved, so one feed's new entries mix topics.
    private let pool: [String]
    private let start: Date
    /// This run of the server (its start, to the millisecond, in base 36): part of every added
    /// entry's guid and of every ETag, so a restarted server, counting from 1 again, never reuses
    /// an id or a validator of the run before.
    nonisolated let run: String
    /// Each feed's captured items with their links turned to the demo's own article pages, made
    /// once the server's address is known.
    private var captured: [DemoSource: [String]] = [:]
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
        run = String(max(0, Int64((start.timeIntervalSince1970 * 1000).rounded(.down))), radix: 36)
    }

    /// The edition of `source` at `now`, given the manual additions; nil when `source` is not a feed.
    /// Links point to article pages under `base`, the server's own address.
    func edition(of source: DemoSource, manual: [ManualAddition], now: Date, base: URL) -> FeedEdition? {
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
            let page = DemoArticlePath.added(source: source, run: run, ordinal: addition.ordinal).url(base: base)
            let rewritten = RSSItemRewriter.rewrite(
                item, source: source, run: run, ordinal: addition.ordinal, round: round, pubDate: InternetDate.rfc822(addition.date, zone: .offset(minutes: 0)),
                page: page, content: content)
            cache[addition.ordinal] = rewritten
            return rewritten
        }
        let live = Set(additions.map(\.ordinal))
        rendered[source] = cache.filter { live.contains($0.key) }
        let items = Array((fresh + capturedItems(of: source, template: template, base: base)).prefix(Self.maximumItems))
        let xml = template.render(items: items, lastBuildDate: InternetDate.rfc822(lastModified, zone: .offset(minutes: 0)))
        let edition = FeedEdition(
            version: version, etag: Self.etag(source: source, run: run, version: version), lastModified: lastModified,
            body: Array(xml.utf8))
        editions[source] = edition
        return edition
    }

    /// `"business-<run>-3"`: the run keeps a validator of an earlier run from matching.
    static func etag(source: DemoSource, run: String, version: Int) -> String {
        "\"\(source.rawValue)-\(run)-\(version)\""
    }

    private func capturedItems(of source: DemoSource, template: RSSTemplate, base: URL) -> [String] {
        if let done = captured[source] { return done }
        let items = template.items.enumerated().map { index, item in
            RSSItemRewriter.linking(item, to: DemoArticlePath.captured(source: source, index: index).url(base: base))
        }
        captured[source] = items
        return items
    }

    /// The item an article page stands behind, as the feed carries it (XML), or nil when there is
    /// none. An added entry of an earlier run, or one that has left the feed, is drawn again
    /// from the pool as it was made (manual contents are not kept across runs).
    func item(at path: DemoArticlePath) -> String? {
        switch path {
        case .captured(let source, let index):
            guard let items = templates[source]?.items, items.indices.contains(index) else { return nil }
            return items[index]
        case .added(let source, let run, let ordinal):
            if run == self.run, let made = rendered[source]?[ordinal] { return made }
            guard ordinal > 0, !pool.isEmpty, templates[source] != nil else { return nil }
            let feedIndex = DemoSource.allCases.firstIndex(of: source) ?? 0
            let offset = feedIndex * pool.count / 3
            return pool[(ordinal - 1 + offset) % pool.count]
        }
    }

    /// A few other stories of `source`'s captured items, for an article page's related links.
    func related(to path: DemoArticlePath, count: Int) -> [(title: String, path: DemoArticlePath)] {
        guard let items = templates[path.source]?.items, items.count > 1, count > 0 else { return [] }
        let start = Int(StableHash.fnv1a64(path.component) % UInt64(items.count))
        return (1...min(count, items.count - 1)).compactMap { step -> (title: String, path: DemoArticlePath)? in
            let index = (start + step) % items.count
            guard let title = CapturedXML.text(of: "title", in: items[index]) else { return nil }
            return (DemoArticle.plain(String(title)), .captured(source: path.source, index: index))
        }
    }
}
