import Foundation
import KioskCore
import KioskDemo
import KioskModel
import KioskSources
import KioskTesting
import Testing

extension SourceKind {
    /// A kind that exists only in this test target: one entry per non-blank line of a text
    /// answer. It is the walk-through of docs/ARCHITECTURE.md ("Adding a kind of source"), done
    /// for real: defined here, registered with one `adding`, polled by the real engine over HTTP.
    static let lines = SourceKind(
        id: "lines", name: "Lines",
        demo: DemoSample(contentType: "text/plain; charset=utf-8") { Array("a demo note\nanother demo note\n".utf8) }
    ) { bytes, _, limits in
        guard let text = String(validating: bytes, as: UTF8.self) else { throw LinesError.notText }
        let lines = text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
            .prefix(limits.maxEntries)
        return Reading(entries: lines.map { Entry(id: $0, title: $0) })
    }

    enum LinesError: Error, CustomStringConvertible {
        case notText
        var description: String { "not UTF-8 text" }
    }
}

/// Kinds of source: the engine reads each answer with its source's kind, a kind defined outside
/// Kiosk is polled like any feed, and a kind the engine does not know is a typed failure that
/// never reaches the network.
@Suite struct SourceKindTests {
    /// The engine over the test server with `kinds`, polling one source of kind `lines` at
    /// `path`, its clock moved by the test.
    private func polling(
        _ path: String, kinds: SourceKinds, _ body: (TestServer, ManualClock, EventLog) async throws -> Void
    ) async throws {
        let client = HTTPFetcher.makeClient()
        do {
            try await TestServer.run { server in
                let clock = ManualClock()
                let hub = EventHub()
                let notes = PolledSource(id: "notes", name: "Notes", url: try server.url(path), interval: .seconds(60), kind: "lines")
                let engine = Engine(
                    feeds: [notes], fetcher: HTTPFetcher(client: client), hub: hub, clock: clock,
                    backoff: Backoff(cap: .seconds(60), jitter: 0), kinds: kinds)
                let (log, recorder) = await hub.record()
                defer { recorder.cancel() }
                let task = Task { try await engine.run() }
                defer { task.cancel() }
                try await body(server, clock, log)
            }
        } catch {
            try? await client.shutdown()
            throw error
        }
        try await client.shutdown()
    }

    @Test(.timeLimit(.minutes(2))) func aKindDefinedInATestIsPolledEndToEnd() async throws {
        try await polling("/lines", kinds: SourceKinds.builtIn.adding(.lines)) { server, clock, log in
            #expect(await log.wait { $0.contains { $0.source == "notes" && $0.isChange } })
            #expect(await log.changed("notes").first?.map(\.title) == ["first note", "second note", "third note"])
            // Its next check, on the engine's clock, revalidates with the answer's ETag: a 304 is
            // no change, for this kind as for a feed.
            #expect(await clock.waitForSleepers(atLeast: 1))
            clock.advance(by: .seconds(60))
            #expect(await log.wait { $0.filter { $0.kind == .idle("notes") }.count >= 2 })
            #expect(await server.log.count("/lines") == 2)
            #expect(await server.log.headers("/lines").last?["if-none-match"] == [TestServer.etag])
            #expect(await log.changed("notes").count == 1)
            #expect(await log.failures("notes").isEmpty)
        }
    }

    @Test(.timeLimit(.minutes(2))) func aKindsOwnErrorIsShownAsItsDescription() async throws {
        try await polling("/garbage", kinds: SourceKinds.builtIn.adding(.lines)) { _, _, log in
            #expect(await log.wait { $0.contains { $0.source == "notes" && $0.isFailure } })
            // Not a network error: the answer came, and the kind could not read it.
            #expect(await log.failures("notes").first == .unreadable("not UTF-8 text"))
        }
    }

    @Test(.timeLimit(.minutes(2))) func aKindTheEngineDoesNotKnowFailsWithoutAFetch() async throws {
        try await polling("/lines", kinds: .builtIn) { server, _, log in
            #expect(await log.wait { $0.contains { $0.source == "notes" && $0.isFailure } })
            #expect(await log.failures("notes").first == .notConfigured("the kind of source “lines”"))
            #expect(await server.log.count("/lines") == 0)
        }
    }

    /// The kind's own demo payload: served by the sample-sources server, listed by the demo
    /// catalogue, polled like the rest, revalidated with a 304.
    @Test(.timeLimit(.minutes(2))) func aKindBringsItsDemoSampleAndDemoModePollsIt() async throws {
        let kinds = SourceKinds.builtIn.adding(.lines)
        let server = DemoServer(
            configuration: DemoConfiguration(latencies: DemoConfiguration.uniform(.milliseconds(1)), evolveEvery: [:], kinds: kinds))
        let serverTask = Task { try await server.run() }
        defer { serverTask.cancel() }
        let catalogue = SourceCatalogue.demo(base: await server.baseURL(), kinds: kinds)
        let notes = try #require(catalogue.feeds.first { $0.kind == "lines" })
        #expect(notes.id == "demo-lines")
        #expect(notes.url.path == "/kinds/lines")
        // Only a kind with a sample adds a source: the built-in catalogue is the News feeds alone.
        #expect(SourceCatalogue.demo(base: await server.baseURL()).feeds.map(\.id) == [.business, .entertainment, .environment])

        let client = HTTPFetcher.makeClient()
        let clock = ManualClock()
        let hub = EventHub()
        let engine = Engine(feeds: [notes], fetcher: HTTPFetcher(client: client), hub: hub, clock: clock, kinds: kinds)
        let (log, recorder) = await hub.record()
        let task = Task { try await engine.run() }
        #expect(await log.wait { $0.contains { $0.source == notes.id && $0.isChange } })
        #expect(await log.changed(notes.id).first?.map(\.title) == ["a demo note", "another demo note"])
        #expect(await clock.waitForSleepers(atLeast: 1))
        clock.advance(by: .seconds(60))
        #expect(await log.wait { $0.filter { $0.kind == .idle(notes.id) }.count >= 2 })
        #expect(await log.changed(notes.id).count == 1)  // the second answer was a 304
        task.cancel()
        _ = await task.result
        recorder.cancel()
        try await client.shutdown()
    }

    @Test func feedsAreTheBuiltInKindAndTheDefault() throws {
        #expect(SourceKinds.builtIn.all.map(\.id) == [.feed])
        let source = PolledSource(id: "a", name: "A", url: try #require(URL(string: "https://example.org/feed")))
        #expect(source.kind == .feed)
        let reading = try SourceKind.feed.read(Array(TestServer.feedXML.utf8), "utf-8", .polled)
        #expect(reading.entries.map(\.title) == ["One"])
        // A source written before kinds existed reads back as a feed.
        var written = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(source)) as? [String: Any])
        #expect(written.removeValue(forKey: "kind") != nil)
        let old = try JSONSerialization.data(withJSONObject: written)
        #expect(try JSONDecoder().decode(PolledSource.self, from: old) == source)
    }
}
