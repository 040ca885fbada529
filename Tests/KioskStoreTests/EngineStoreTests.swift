import AsyncHTTPClient
import Foundation
import KioskCore
import KioskDemo
import KioskModel
import KioskSQLite
import KioskSources
import KioskStore
import KioskTesting
import Testing

/// The engine writing through a store: warm starts, writes only when something changed, and
/// polling that goes on when the store fails. Time bounds are generous; order is what is asserted.
@Suite struct EngineStoreTests {
    private func feed(_ id: SourceID, interval: Duration = .seconds(60)) -> PolledSource {
        PolledSource(id: id, name: id.rawValue, url: URL(fileURLWithPath: "/\(id.rawValue)"), interval: interval)
    }

    /// Runs an engine over `feeds` while `body` runs, then stops it and waits until it stopped.
    private func running(
        _ feeds: [PolledSource], fetcher: any Fetching, store: (any SourceStateStore)?,
        initialStates: [SourceID: SourceState] = [:], hub: EventHub = EventHub(), kinds: SourceKinds = .builtIn,
        _ body: (EventLog) async throws -> Void
    ) async throws {
        let (log, recorder) = await hub.record()
        let engine = Engine(
            feeds: feeds, fetcher: fetcher, hub: hub, backoff: Backoff(cap: .milliseconds(200), jitter: 0),
            kinds: kinds, initialStates: initialStates, store: store)
        let task = Task { try await engine.run() }
        do {
            try await body(log)
        } catch {
            task.cancel()
            recorder.cancel()
            throw error
        }
        task.cancel()
        recorder.cancel()
        _ = await task.result
    }

    @Test func theEngineKeepsPublishingWhenItsStoreFails() async throws {
        let plan = FetchPlan()
        await plan.set(.success(rss(["a1"], etag: "\"1\"")))
        try await running([feed("a", interval: .milliseconds(50))], fetcher: plan, store: BrokenStore()) { log in
            #expect(await log.wait { $0.contains { $0.source == "a" && $0.isChange } })
            await plan.set(.failure(.status(code: 500, message: "boom", retryAfter: nil)))
            #expect(await log.wait { $0.contains { $0.source == "a" && $0.isFailure } })
            await plan.set(.success(rss(["a1", "a2"], etag: "\"2\"")))
            #expect(await log.wait { events in events.contains { $0.kind == .changed("a", Self.titled(["a1", "a2"])) } })
        }
    }

    @Test func aChangeIsSavedBeforeItIsPublishedAndAnUnchanged304IsNotSaved() async throws {
        let plan = FetchPlan()
        let store = try CountingStore()
        await plan.set(.success(rss(["a1"], etag: "\"1\"")))
        try await running([feed("a", interval: .milliseconds(50))], fetcher: plan, store: store) { log in
            #expect(await log.wait { $0.contains { $0.source == "a" && $0.isChange } })
            // Saved before published: by the time the event is seen, the store has it.
            let saved1 = try await store.state(of: "a")
            #expect(saved1?.entries == Self.titled(["a1"]))
            let saved2 = try await store.state(of: "a")
            #expect(saved2?.validators == Validators(etag: "\"1\"", request: feed("a", interval: .milliseconds(50)).requestKey))
            let saved3 = try await store.state(of: "a")
            #expect(saved3?.lastSuccess != nil)

            await plan.set(.success(.notModified(freshFor: nil)))
            let checks = await plan.count
            #expect(await plan.waitForCount(atLeast: checks + 4))
            #expect(await store.saves["a"] == 1)  // several 304s, no write

            await plan.set(.failure(.status(code: 503, message: "later", retryAfter: nil)))
            #expect(await log.wait { $0.contains { $0.source == "a" && $0.isFailure } })
            let saved4 = try await store.state(of: "a")
            #expect(saved4?.failures ?? 0 >= 1)
            let saved5 = try await store.state(of: "a")
            #expect(saved5?.lastError?.description == "HTTP 503: later")
            let saved6 = try await store.state(of: "a")
            #expect(saved6?.lastFailure != nil)
            let saved7 = try await store.state(of: "a")
            #expect(saved7?.entries == Self.titled(["a1"]))  // the last good entries stay

            // Healing by a 304 is a change worth writing: the failure bookkeeping is reset.
            let changes = await log.changed("a").count
            await plan.set(.success(.notModified(freshFor: nil)))
            #expect(await log.wait { events in events.filter { $0.source == "a" && $0.isChange }.count > changes })
            let saved8 = try await store.state(of: "a")
            #expect(saved8?.failures == 0)
            let saved9 = try await store.state(of: "a")
            #expect(saved9?.lastError == nil)
        }
    }

    /// What pages must hear of is handed to the store with the state it belongs to (a cluster's
    /// store writes both in one transaction); the new entries are counted against the state before.
    @Test func everyOutcomePagesHearOfIsSavedWithItsAnnouncement() async throws {
        let plan = FetchPlan()
        let store = AnnouncingStore()
        await plan.set(.success(rss(["a1"], etag: "\"1\"")))
        try await running([feed("a", interval: .milliseconds(30))], fetcher: plan, store: store) { log in
            #expect(await log.wait { $0.filter { $0.source == "a" && $0.isChange }.count >= 1 })
            await plan.set(.success(rss(["a3", "a2", "a1"], etag: "\"2\"")))
            #expect(await log.wait { $0.filter { $0.source == "a" && $0.isChange }.count >= 2 })
            await plan.set(.success(.notModified(freshFor: nil)))
            let checks = await plan.count
            #expect(await plan.waitForCount(atLeast: checks + 3))
            await plan.set(.failure(.status(code: 503, message: "later", retryAfter: nil)))
            #expect(await log.wait { $0.contains { $0.source == "a" && $0.isFailure } })
            await plan.set(.success(.notModified(freshFor: nil)))
            #expect(await log.wait { $0.filter { $0.source == "a" && $0.isChange }.count >= 3 })
        }
        let announced = await store.announced
        // Failures repeat while the 503 lasts; each is a save with its own announcement.
        let failures = announced.filter { if case .failed? = $0 { true } else { false } }
        #expect(failures.first == .failed("a", message: "HTTP 503: later"))
        #expect(!failures.isEmpty)
        #expect(announced.filter { if case .changed? = $0 { true } else { false } } == [
            .changed("a", added: 1), .changed("a", added: 2), .changed("a", added: 0),
        ])
        #expect(!announced.contains(nil))  // the 304s wrote nothing
    }

    @Test func everyChangeIsOnDiskBeforeAnyClientIsTold() async throws {
        let plan = FetchPlan()
        let hub = EventHub()
        let store = PublishOrderStore(hub: hub)
        await plan.set(.success(rss(["a1"], etag: "\"1\"")))
        try await running([feed("a", interval: .milliseconds(30))], fetcher: plan, store: store, hub: hub) { log in
            #expect(await log.wait { $0.contains { $0.source == "a" && $0.isChange } })
            await plan.set(.success(rss(["a2", "a1"], etag: "\"2\"")))
            #expect(await log.wait { $0.filter { $0.source == "a" && $0.isChange }.count >= 2 })
            await plan.set(.success(rss(["a3", "a2", "a1"], etag: "\"3\"")))
            #expect(await log.wait { $0.filter { $0.source == "a" && $0.isChange }.count >= 3 })
        }
        #expect(await store.saves >= 3)
        #expect(await store.savedAfterPublishing == 0)
    }

    @Test func aWarmStartPublishesStoredEntriesAndErrorsBeforeTheFirstCheck() async throws {
        let stored = SourceState(
            entries: Self.titled(["s1", "s2"]), validators: Validators(etag: "\"s\""), failures: 1,
            lastError: .fetch(.timeout), lastFailure: Date())
        let store = try SQLiteStore.inMemoryDatabase()
        try await store.saveSourceState(stored, for: "a")
        let plan = FetchPlan()
        await plan.set(.success(.notModified(freshFor: nil)))
        let stale = SourceState(entries: Self.titled(["old"]))
        try await running([feed("a")], fetcher: plan, store: store, initialStates: ["a": stale]) { log in
            #expect(await log.wait { $0.contains { $0.source == "a" && $0.isIdle } })
            let kinds = await log.events.filter { $0.source == "a" }.map(\.kind)
            // The store wins over initialStates; entries, then the remembered error, then the check.
            #expect(kinds.prefix(3) == [.changed("a", Self.titled(["s1", "s2"])), .failed("a", .fetch(.timeout)), .checking("a")])
        }
    }

    @Test func aWarmStartFromTheSQLiteStoreShowsStoredEntriesAndTheFirstCheckIsA304() async throws {
        let server = DemoServer(
            configuration: DemoConfiguration(latencies: DemoConfiguration.uniform(.milliseconds(5)), evolveEvery: [:]))
        let serverTask = Task { try await server.run() }
        let client = HTTPFetcher.makeClient()
        defer { serverTask.cancel() }
        do {
            try await withTemporaryDirectory { directory in
                let file = directory.appendingPathComponent("kiosk.sqlite")
                let catalogue = SourceCatalogue.demo(base: await server.baseURL())
                let business = try #require(catalogue.feeds.first { $0.id == .business })

                // A cold run fills the store.
                let first = try SQLiteStore(path: file)
                var firstList: [Entry] = []
                try await running([business], fetcher: HTTPFetcher(client: client), store: first) { log in
                    #expect(await log.wait { $0.contains { $0.source == .business && $0.isChange } })
                    firstList = await log.changed(.business).first ?? []
                }
                try first.close()
                #expect(!firstList.isEmpty)
                let requestsBefore = await server.control.requestCount(for: .business)

                // A restart: a new store on the same file, a new engine.
                let store = try SQLiteStore(path: file)
                defer { try? store.close() }
                let remembered = try #require(try await store.loadSourceStates()[.business])
                #expect(remembered.entries == firstList)
                #expect(!remembered.validators.isEmpty)

                let fetcher = RecordingFetcher(HTTPFetcher(client: client))
                try await running([business], fetcher: fetcher, store: store) { log in
                    #expect(await log.wait { $0.contains { $0.source == .business && $0.isIdle } })
                    let kinds = await log.events.filter { $0.source == .business }.map(\.kind)
                    #expect(kinds.first == .changed(.business, firstList))  // before the check even began
                    #expect(kinds.dropFirst().first == .checking(.business))
                    #expect(kinds.filter { if case .changed = $0 { true } else { false } }.count == 1)
                    let exchanges = await fetcher.exchanges
                    #expect(exchanges.first?.validators == remembered.validators)
                    #expect(exchanges.first?.notModified == true)
                }
                #expect(await server.control.requestCount(for: .business) == requestsBefore + 1)
            }
        } catch {
            try? await client.shutdown()
            throw error
        }
        try await client.shutdown()
    }

    /// A restart with the source redefined (kind, headers or url) while Kiosk was stopped: the
    /// stored validators answered the old request, so the first check does not send them and
    /// reads the whole answer; with the source unchanged, they are sent as before.
    @Test(arguments: ["kind", "headers", "url", "nothing"])
    func storedValidatorsGoOnlyWithTheRequestTheyAnswered(_ change: String) async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("kiosk.sqlite")
            let before = PolledSource(
                id: "a", name: "a", url: URL(fileURLWithPath: "/a"), interval: .seconds(60), headers: ["Accept": "x"])
            let plan = FetchPlan()
            await plan.set(.success(rss(["a1"], etag: "\"1\"")))
            let first = try SQLiteStore(path: file)
            try await running([before], fetcher: plan, store: first) { log in
                #expect(await log.wait { $0.contains { $0.source == "a" && $0.isChange } })
            }
            try first.close()

            var after = before
            switch change {
            case "kind": after.kind = "lines"
            case "headers": after.headers = ["Accept": "y"]
            case "url": after.url = URL(fileURLWithPath: "/b")
            default: break
            }
            let store = try SQLiteStore(path: file)
            defer { try? store.close() }
            let remembered = try #require(try await store.loadSourceStates()["a"])
            #expect(remembered.validators == Validators(etag: "\"1\"", request: before.requestKey))
            let fetcher = RecordingFetcher(plan)
            // A second kind that reads anything as one entry, so the redefined source is fetched.
            let other = SourceKind(id: "lines", name: "Lines") { _, _, _ in .init(entries: [Entry(id: "x")]) }
            try await running([after], fetcher: fetcher, store: store, kinds: SourceKinds.builtIn.adding(other)) { _ in
                #expect(await eventually { await !fetcher.exchanges.isEmpty })
            }
            let sent = await fetcher.exchanges.first?.validators
            #expect(sent == (change == "nothing" ? remembered.validators : Validators()))
        }
    }

    static func titled(_ titles: [String]) -> [Entry] {
        titles.map { Entry(id: $0, title: $0, link: $0) }
    }
}
