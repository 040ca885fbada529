import Foundation
import KioskCore
import KioskModel
@testable import KioskReader
import KioskSQLite
import KioskSources
import KioskStore
import KioskTesting
import Testing

/// The reader: subscriptions as data, OPML, read and star state, each change announced.
@Suite struct ReaderTests {
    private struct Setup {
        let reader: Reader
        let store: SQLiteStore
        let scheduler: RecordingScheduler
        let log: AnnouncedChanges
    }

    private func makeReader(
        web: [String: (body: String, contentType: String)] = [:], limits: ReaderLimits = ReaderLimits(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) throws -> Setup {
        let store = try SQLiteStore.inMemoryDatabase()
        let scheduler = RecordingScheduler()
        let log = AnnouncedChanges()
        let policy = AddressPolicy()
        let reader = Reader(
            store: store, scheduler: scheduler, finder: FeedFinder(fetcher: CannedWeb(pages: web), policy: policy),
            policy: policy, limits: limits, now: now, onChange: { await log.append($0) })
        return Setup(reader: reader, store: store, scheduler: scheduler, log: log)
    }

    private var builtIn: [PolledSource] {
        get throws {
            [
                PolledSource(id: .business, name: "Business", url: try #require(URL(string: "https://news.example/business"))),
                PolledSource(id: .entertainment, name: "Entertainment", url: try #require(URL(string: "https://news.example/ent"))),
            ]
        }
    }

    /// A subscription keeps the address, the names and the interval; the engine is also given
    /// each configured source's kind and request headers, however it is told of the source.
    @Test func theEngineIsGivenEachConfiguredSourcesKindAndHeaders() async throws {
        let setup = try makeReader()
        let url = try #require(URL(string: "https://notes.example/list.txt"))
        let notes = PolledSource(id: "notes", name: "Notes", url: url, headers: ["Authorization": "Bearer t"], kind: "lines")
        try await setup.reader.start(builtIn: builtIn, configured: [notes])
        #expect(await setup.scheduler.polled["notes"]?.kind == "lines")
        #expect(await setup.scheduler.polled["notes"]?.headers == ["Authorization": "Bearer t"])
        #expect(await setup.scheduler.polled[.business]?.kind == .feed)
        // Read again (another replica changed the subscriptions): still the same.
        await setup.scheduler.unsubscribe("notes")
        try await setup.reader.reload()
        #expect(await setup.scheduler.polled["notes"]?.kind == "lines")
        #expect(await setup.scheduler.polled["notes"]?.headers == ["Authorization": "Bearer t"])
    }

    @Test func theNewsSourcesAreTheDefaultSubscriptionsAndKeepTheUsersNames() async throws {
        let setup = try makeReader()
        let configured = try #require(URL(string: "https://blog.example/feed"))
        try await setup.reader.start(builtIn: builtIn, configured: [PolledSource(id: "blog", name: "Blog", url: configured)])
        var list = try await setup.reader.subscriptions(user: .owner)
        #expect(list.map(\.id) == [.business, .entertainment, "blog"])
        #expect(list.map(\.folder) == ["News", "News", nil])
        #expect(list.map(\.isBuiltIn) == [true, true, false])
        #expect(await setup.scheduler.polled.count == 3)
        #expect(await setup.scheduler.polled[.business]?.interval == .seconds(5))

        try await setup.reader.update(.business, title: "Markets", folder: "Money", user: .owner)
        // A restart (a new reader on the same store) keeps the user's name and folder.
        let again = Reader(
            store: setup.store, scheduler: RecordingScheduler(),
            finder: FeedFinder(fetcher: CannedWeb(pages: [:]), policy: AddressPolicy()), policy: AddressPolicy())
        try await again.start(builtIn: builtIn, configured: [])
        list = try await again.subscriptions(user: .owner)
        #expect(list.first?.displayName == "Markets")
        #expect(list.first?.folder == "Money")
        await #expect(throws: ReaderError.builtInFeed("Markets")) { try await again.unsubscribe(.business, user: .owner) }
    }

    @Test func subscribingPollsTheFeedAndAnnouncesIt() async throws {
        let setup = try makeReader(web: ["https://example.com/feed.xml": Pages.rss("Example")])
        try await setup.reader.start(builtIn: [], configured: [])
        let search = try await setup.reader.find("https://example.com/feed.xml")
        let found = try #require(search.feeds.first)
        let subscription = try await setup.reader.subscribe(to: found, folder: "  Tech ", user: .owner)
        #expect(subscription.displayName == "Example")
        #expect(subscription.folder == "Tech")
        #expect(subscription.interval == Subscription.defaultInterval)
        #expect(await setup.scheduler.polled[subscription.id]?.url == found.url)
        #expect(await setup.log.changes == [.subscriptions(user: .owner)])
        await #expect(throws: ReaderError.alreadySubscribed(subscription.id)) {
            try await setup.reader.subscribe(to: found, user: .owner)
        }

        try await setup.reader.update(subscription.id, interval: .seconds(60), user: .owner)
        #expect(await setup.scheduler.polled[subscription.id]?.interval == .seconds(60))
        try await setup.reader.unsubscribe(subscription.id, user: .owner)
        #expect(await setup.scheduler.polled[subscription.id] == nil)
        #expect(try await setup.reader.subscriptions(user: .owner).isEmpty)
    }

    /// main: right after subscribing, the badge said 0 while the feed's list had 21 unread: the
    /// counts, cached for 2 s, were asked again (on the first check's live event) before they ran out.
    @Test func countsNeverLagEntriesThatArrivedSinceTheyWereCounted() async throws {
        let setup = try makeReader(web: ["https://example.com/feed.xml": Pages.rss("Example")])
        try await setup.reader.start(builtIn: [], configured: [])
        let found = try #require(try await setup.reader.find("https://example.com/feed.xml").feeds.first)
        let subscription = try await setup.reader.subscribe(to: found, user: .owner)
        #expect(try await setup.reader.counts(user: .owner).unread[subscription.id, default: 0] == 0)
        // The feed's first check saves its entries (the engine writes to the store, not through
        // the reader), well within the counts' lifetime.
        let entries = (1...21).map { Entry(id: "e\($0)", title: "Entry \($0)") }
        try await setup.store.saveSourceState(SourceState(entries: entries), for: subscription.id)
        #expect(try await setup.reader.counts(user: .owner).unread[subscription.id] == 21)
    }

    /// main: one OPML import took an account from 4 to 10,003 subscriptions in a second, and
    /// imports repeated without end.
    @Test func anAccountsFeedsAndImportsHaveLimitsSaidPlainly() async throws {
        let clock = ManualDate(Date(timeIntervalSince1970: 1_760_000_000))
        let setup = try makeReader(
            web: ["https://example.com/feed.xml": Pages.rss("Example")],
            limits: ReaderLimits(subscriptionsPerAccount: 5, importsPerHour: 2), now: { clock.now })
        try await setup.reader.start(builtIn: [], configured: [])
        let outlines = (1...8).map { #"<outline text="F\#($0)" xmlUrl="https://feeds.example/\#($0).xml"/>"# }.joined()
        let opml = Array(#"<?xml version="1.0"?><opml version="2.0"><body>\#(outlines)</body></opml>"#.utf8)
        let report = try await setup.reader.importOPML(opml, user: .owner)
        #expect(report.added.count == 5)
        #expect(report.failed.count == 3)
        #expect(report.failed.allSatisfy { $0.1.contains("One account may follow 5 feeds") })
        #expect(try await setup.reader.subscriptions(user: .owner).count == 5)

        // At the limit, one more subscription is refused with the same sentence.
        let found = try #require(try await setup.reader.find("https://example.com/feed.xml").feeds.first)
        await #expect(throws: ReaderError.limit(Reader.feedLimit(ReaderLimits(subscriptionsPerAccount: 5)))) {
            try await setup.reader.subscribe(to: found, user: .owner)
        }
        // Another account has its own five.
        #expect(try await setup.reader.subscribe(to: found, user: UserID(2)).displayName == "Example")

        // Two imports an hour: the third is refused and says when to try again; an hour later, fine.
        _ = try await setup.reader.importOPML(opml, user: .owner)
        do {
            _ = try await setup.reader.importOPML(opml, user: .owner)
            Issue.record("a third import within the hour was taken")
        } catch {
            #expect(error.message.contains("One account may import 2 OPML files an hour; try again in 60 minutes"))
        }
        clock.now += 3_601
        #expect(try await setup.reader.importOPML(opml, user: .owner).skipped.count == 5)
    }

    /// The hourly import count lives in the store: a second Reader on the same database (another
    /// replica, or this one after a restart) sees the imports the first counted. (It was counted
    /// in each Reader's memory: a restart cleared it, N replicas allowed N times as many.)
    @Test func theImportCountIsSharedByEveryReaderOfTheStore() async throws {
        let clock = ManualDate(Date(timeIntervalSince1970: 1_760_000_000))
        let first = try makeReader(limits: ReaderLimits(importsPerHour: 1), now: { clock.now })
        let opml = Array(#"<?xml version="1.0"?><opml version="2.0"><body><outline text="F" xmlUrl="https://feeds.example/f.xml"/></body></opml>"#.utf8)
        _ = try await first.reader.importOPML(opml, user: .owner)
        let policy = AddressPolicy()
        let second = Reader(
            store: first.store, scheduler: RecordingScheduler(), finder: FeedFinder(fetcher: CannedWeb(pages: [:]), policy: policy),
            policy: policy, limits: ReaderLimits(importsPerHour: 1), now: { clock.now }, onChange: { _ in })
        clock.now += 600
        await #expect(throws: ReaderError.self) { try await second.importOPML(opml, user: .owner) }
        // Another account has its own count, on either.
        #expect(try await second.importOPML(opml, user: UserID(2)).added.count == 1)
    }

    @Test func opmlImportFilesFeedsInFoldersSkipsDuplicatesAndReportsFailures() async throws {
        let setup = try makeReader()
        try await setup.reader.start(builtIn: builtIn, configured: [])
        let opml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <opml version="2.0"><head><title>Mine</title></head><body>
              <outline text="Tech"><outline text="Swift" title="Swift.org" type="rss" xmlUrl="https://swift.org/atom.xml" htmlUrl="https://swift.org/"/>
                <outline text="Deeper"><outline text="Nested" xmlUrl="https://nested.example/feed"/></outline></outline>
              <outline text="Business again" xmlUrl="https://news.example/business"/>
              <outline text="Twice" xmlUrl="https://swift.org/atom.xml"/>
              <outline text="Local" xmlUrl="http://10.0.0.1/feed"/>
              <outline text="Mail" xmlUrl="mailto:someone@example.com"/>
            </body></opml>
            """
        let report = try await setup.reader.importOPML(Array(opml.utf8), user: .owner)
        #expect(report.added.map(\.displayName) == ["Swift.org", "Nested"])
        #expect(report.added.map(\.folder) == ["Tech", "Tech / Deeper"])
        #expect(report.skipped.map(\.feedURL).sorted() == ["https://news.example/business", "https://swift.org/atom.xml"])
        #expect(report.failed.map(\.0.feedURL) == ["http://10.0.0.1/feed", "mailto:someone@example.com"])
        #expect(await setup.scheduler.polled.count == 4)

        // Export, then import into a fresh reader: every URL, title and folder comes back.
        let exported = try await setup.reader.exportOPML(user: .owner)
        let other = try makeReader()
        try await other.reader.start(builtIn: [], configured: [])
        _ = try await other.reader.importOPML(Array(exported.utf8), user: .owner)
        let before = try await setup.reader.subscriptions(user: .owner).map { [$0.url.absoluteString, $0.displayName, $0.folder ?? ""] }
        let after = try await other.reader.subscriptions(user: .owner).map { [$0.url.absoluteString, $0.displayName, $0.folder ?? ""] }
        #expect(before == after)
    }

    @Test func aBrokenOPMLFileImportsNothing() async throws {
        let setup = try makeReader()
        try await setup.reader.start(builtIn: [], configured: [])
        await #expect(throws: ReaderError.opml(.notOPML)) {
            try await setup.reader.importOPML(Array("<rss version=\"2.0\"><channel/></rss>".utf8), user: .owner)
        }
        #expect(try await setup.reader.subscriptions(user: .owner).isEmpty)
    }

    @Test func readStarAndMarkAllReadWithUndoAreSavedAndAnnounced() async throws {
        let setup = try makeReader()
        try await setup.reader.start(builtIn: builtIn, configured: [])
        let entries = (1...4).map { Entry(id: "urn:\($0)", title: "Entry \($0)") }
        try await setup.store.saveSourceState(SourceState(entries: entries), for: .business)
        let stored = try await setup.store.readingList(EntryFilter(), user: .owner)
        let first = try #require(stored.first)

        #expect(try await setup.reader.counts(user: .owner).unread == [.business: 4])
        try await setup.reader.setRead(true, ids: [first.id], user: .owner)
        try await setup.reader.setStarred(true, ids: [first.id], user: .owner)
        #expect(try await setup.store.unreadCounts(user: .owner) == [.business: 3])
        // The reader's cached counts follow its own changes at once.
        #expect(try await setup.reader.counts(user: .owner).unread == [.business: 3])
        #expect(try await setup.reader.counts(user: .owner).starred == 1)
        let upTo = stored.map(\.id).max() ?? 0
        let marked = try await setup.reader.markAllRead(.folder("News"), upTo: upTo, user: .owner)
        #expect(marked.count == 3)
        #expect(try await setup.store.unreadCounts(user: .owner).isEmpty)
        try await setup.reader.undo(marked.undo, user: .owner)
        #expect(try await setup.store.unreadCounts(user: .owner) == [.business: 3])
        await #expect(throws: ReaderError.undoExpired) { try await setup.reader.undo(marked.undo, user: .owner) }

        let changes = await setup.log.changes
        #expect(changes.first == .read(user: .owner, ids: [first.id], isRead: true))
        #expect(changes.contains(.starred(user: .owner, ids: [first.id], isStarred: true)))
        #expect(changes.last.map { if case .read(_, let ids, false) = $0 { ids.count == 3 } else { false } } == true)
    }

    @Test func aSharedFeedIsPolledOnceAndItsIntervalIsNotOneUsersToChange() async throws {
        let setup = try makeReader()
        try await setup.reader.start(builtIn: [], configured: [])
        let url = try #require(URL(string: "https://blog.example/feed.xml"))
        let mine = try await setup.reader.subscribe(url: url, feedTitle: "Blog", siteURL: nil, user: .owner)
        let theirs = try await setup.reader.subscribe(url: url, feedTitle: "Other", siteURL: nil, title: "Theirs", user: UserID(2))
        #expect(theirs.id == mine.id, "one feed, followed twice")
        #expect(try await setup.store.feeds().count == 1)
        #expect(try await setup.reader.subscription(mine.id, user: .owner)?.displayName == "Blog")
        await #expect(throws: ReaderError.sharedFeed("Blog")) {
            try await setup.reader.update(mine.id, interval: .seconds(60), user: .owner)
        }
        // The other follower leaves: the feed stays, polled, and its interval is the owner's to set.
        try await setup.reader.unsubscribe(mine.id, user: UserID(2))
        #expect(await setup.scheduler.polled[mine.id] != nil)
        try await setup.reader.update(mine.id, interval: .seconds(60), user: .owner)
        #expect(await setup.scheduler.polled[mine.id]?.interval == .seconds(60))
        // The last follower leaves: the feed is forgotten and no longer polled.
        try await setup.reader.unsubscribe(mine.id, user: .owner)
        #expect(await setup.scheduler.polled[mine.id] == nil)
        #expect(try await setup.store.feeds().isEmpty)
    }
}


/// "Matched N entries in the last 7 days" counts seven days of matches, today's included.
@Suite struct RuleWeekTests {
    @Test func theLastSevenDaysAreTodayAndTheSixBefore() {
        let now = Date(timeIntervalSince1970: 20_000 * 86_400 + 3_600 * 15)  // a day's 15:00 UTC
        let start = Rules.weekStart(now)
        #expect(start == Date(timeIntervalSince1970: 19_994 * 86_400))
        // Counted by day: days 19,994 to 20,000 are seven.
        #expect(Int((now.timeIntervalSince1970 / 86_400).rounded(.down)) - Int(start.timeIntervalSince1970 / 86_400) + 1 == 7)
    }
}
