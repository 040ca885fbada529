import Foundation
import KioskCore
import KioskModel
@testable import KioskSources
import NIOHTTP1
import Testing

/// Freshness hints read from `Cache-Control` and `Expires` (the loopback test of a real answer is
/// in `HTTPFetcherTests`).
@Suite struct FreshnessHeaderTests {
    private let date = "Sat, 22 Nov 2025 10:00:00 GMT"
    /// The instant `date` names.
    private let dateInstant = Date(timeIntervalSince1970: 1_763_805_600)

    private func parse(_ cacheControl: String?, expires: String? = nil, date: String? = nil, now: Date? = nil) -> Duration? {
        Freshness.parse(cacheControl: cacheControl, expires: expires, date: date, now: now ?? dateInstant)
    }

    @Test func maxAgeIsTheHint() {
        #expect(parse("max-age=600") == .seconds(600))
        #expect(parse("public, MAX-AGE=\"120\", must-revalidate") == .seconds(120))
        #expect(parse("max-age=0") == .zero)
    }

    @Test func sMaxAgeWinsOverMaxAge() {
        #expect(parse("max-age=60, s-maxage=900") == .seconds(900))
        #expect(parse("s-maxage=30,max-age=60") == .seconds(30))
    }

    @Test func noStoreAndNoCacheMeanNoHint() {
        #expect(parse("no-store, max-age=600") == nil)
        #expect(parse("max-age=600, no-cache") == nil)
        #expect(parse("no-cache", expires: "Sat, 22 Nov 2025 11:00:00 GMT", date: date) == nil)
        // A no-cache naming fields concerns those fields, not the answer.
        #expect(parse("no-cache=\"Set-Cookie\", max-age=60") == .seconds(60))
    }

    @Test func expiresCountsFromTheAnswersDate() {
        // The server's clock is an hour off ours; the lifetime it meant is still 30 minutes.
        let later = dateInstant.addingTimeInterval(3_600)
        #expect(parse(nil, expires: "Sat, 22 Nov 2025 10:30:00 GMT", date: date, now: later) == .seconds(1_800))
    }

    @Test func expiresWithoutADateCountsFromNow() {
        #expect(parse(nil, expires: "Sat, 22 Nov 2025 10:01:30 GMT") == .seconds(90))
        #expect(parse(nil, expires: "Sat, 22 Nov 2025 10:01:30 GMT", date: "not a date") == .seconds(90))
        #expect(parse(nil, expires: "Sat, 22 Nov 2025 09:00:00 GMT") == .zero)  // already stale
    }

    @Test func maxAgeWinsOverExpires() {
        #expect(parse("max-age=60", expires: "Sat, 22 Nov 2025 12:00:00 GMT", date: date) == .seconds(60))
    }

    @Test func garbageGivesNoHint() {
        #expect(parse(nil) == nil)
        #expect(parse("") == nil)
        #expect(parse(",,, ;") == nil)
        #expect(parse("max-age=soon") == nil)
        #expect(parse("max-age=-5") == nil)
        #expect(parse("max-age=1e3") == nil)
        #expect(parse("max-age") == nil)
        #expect(parse("private=\"x, max-age=5\"") == nil)  // quoted: not a directive
        #expect(parse(nil, expires: "0") == nil)
        #expect(parse(nil, expires: "-1", date: date) == nil)
    }

    @Test func hugeValuesStopAtADay() {
        #expect(parse("max-age=99999999999999999999999999") == .seconds(86_400))
        #expect(parse("max-age=31536000") == .seconds(86_400))
        #expect(parse(nil, expires: "Fri, 01 Jan 2100 00:00:00 GMT", date: date) == .seconds(86_400))
    }

    @Test func repeatedCacheControlLinesAreOneList() {
        var headers = HTTPHeaders()
        headers.add(name: "Cache-Control", value: "public")
        headers.add(name: "cache-control", value: "max-age=300")
        #expect(HTTPFetcher.freshness(of: headers) == .seconds(300))
        #expect(HTTPFetcher.freshness(of: HTTPHeaders()) == nil)
    }
}

/// How long the engine waits after a success, given what the source asked.
@Suite struct PoliteWaitTests {
    @Test func aHintLongerThanTheIntervalIsHonoured() {
        #expect(Engine.nextWait(interval: .seconds(900), hint: .seconds(3_600)) == .seconds(3_600))
        #expect(Engine.nextWait(interval: .seconds(60), hint: .seconds(120)) == .seconds(120))
    }

    @Test func aShorterHintOrNoneLeavesTheInterval() {
        #expect(Engine.nextWait(interval: .seconds(900), hint: .seconds(300)) == .seconds(900))
        #expect(Engine.nextWait(interval: .seconds(900), hint: .zero) == .seconds(900))
        #expect(Engine.nextWait(interval: .seconds(900), hint: nil) == .seconds(900))
    }

    @Test func fastSourcesAreNeverSlowed() {
        #expect(Engine.nextWait(interval: .seconds(5), hint: .seconds(3_600)) == .seconds(5))
        #expect(Engine.nextWait(interval: .seconds(59), hint: .seconds(3_600)) == .seconds(59))
    }

    @Test func aHintIsCappedAtADay() {
        #expect(Engine.nextWait(interval: .seconds(900), hint: .seconds(3 * 86_400)) == .seconds(86_400))
        // An interval the user chose longer than a day is theirs.
        #expect(Engine.nextWait(interval: .seconds(2 * 86_400), hint: .seconds(3 * 86_400)) == .seconds(2 * 86_400))
    }

    @Test func theLongerOfHeadersAndTTLIsTheHint() {
        typealias Hint = FeedChecker.FreshnessHint
        #expect(Hint(headers: .seconds(600), feed: .seconds(3_600)).wait == .seconds(3_600))
        #expect(Hint(headers: .seconds(600), feed: nil).wait == .seconds(600))
        #expect(Hint(headers: nil, feed: .seconds(60)).wait == .seconds(60))
        #expect(Hint().wait == nil)
        #expect(FeedChecker.duration(minutes: 90) == .seconds(5_400))
        #expect(FeedChecker.duration(minutes: .max) == .seconds(86_400))
    }
}

/// The hint's way through the engine: fetch result and `<ttl>`, `FeedChecker`, `record`, the
/// pause. The clock records every pause the engine asks for and lets it pass in 10 ms, so the
/// tests read the planned waits without waiting them.
@Suite struct EngineFreshnessTests {
    /// A clock on real time whose sleeps report what was asked and last a few milliseconds.
    struct RecordingClock: Clock {
        typealias Instant = ContinuousClock.Instant
        let base = ContinuousClock()
        let asked: AsyncStream<Duration>.Continuation
        var now: Instant { base.now }
        var minimumResolution: Duration { base.minimumResolution }

        func sleep(until deadline: Instant, tolerance: Duration?) async throws {
            asked.yield(now.duration(to: deadline))
            try await base.sleep(for: .milliseconds(10))
        }
    }

    /// Answers in order, repeating the last.
    actor Answers: Fetching {
        private var queue: [FetchResult]
        init(_ answers: [FetchResult]) { queue = answers }

        func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResult {
            queue.count > 1 ? queue.removeFirst() : queue[0]
        }
    }

    private static func body(ttl: Int? = nil, freshFor: Duration? = nil) -> FetchResult {
        let ttlElement = ttl.map { "<ttl>\($0)</ttl>" } ?? ""
        let xml = "<rss version=\"2.0\"><channel><title>t</title>\(ttlElement)<item><guid>1</guid></item></channel></rss>"
        return .fetched(FetchedBody(bytes: Array(xml.utf8), finalURL: url("polite"), freshFor: freshFor))
    }

    /// The first `count` pauses an engine polling one feed asks its clock for.
    private func pauses(interval: Duration, answers: [FetchResult], count: Int) async -> [Duration] {
        let (asked, sink) = AsyncStream.makeStream(of: Duration.self, bufferingPolicy: .bufferingOldest(count))
        let feed = PolledSource(id: "polite", name: "Polite", url: url("polite"), interval: interval)
        let engine = Engine(feeds: [feed], fetcher: Answers(answers), hub: EventHub(), clock: RecordingClock(asked: sink))
        let task = Task { try await engine.run() }
        // Should the engine never pause again, the test ends with what it has instead of hanging.
        let timeout = Task {
            try? await Task.sleep(for: .seconds(20))
            sink.finish()
        }
        defer {
            task.cancel()
            timeout.cancel()
        }
        var waits: [Duration] = []
        for await wait in asked {
            waits.append(wait)
            if waits.count == count { break }
        }
        return waits
    }

    /// A wait as planned: the pause subtracts the moment between the check's end and its start.
    private func about(_ wait: Duration, _ expected: Duration) -> Bool {
        wait <= expected && wait > expected - .seconds(5)
    }

    @Test func cacheControlAndTTLLengthenAFifteenMinuteInterval() async {
        let waits = await pauses(
            interval: .seconds(900),
            answers: [Self.body(freshFor: .seconds(3_600)), Self.body(ttl: 120), .notModified(freshFor: nil),
                Self.body(), .notModified(freshFor: .seconds(4 * 86_400))],
            count: 5)
        #expect(waits.count == 5)
        guard waits.count == 5 else { return }
        #expect(about(waits[0], .seconds(3_600)))  // max-age
        #expect(about(waits[1], .seconds(7_200)))  // <ttl>120</ttl>
        #expect(about(waits[2], .seconds(7_200)))  // a 304 keeps the feed's ttl
        #expect(about(waits[3], .seconds(900)))  // a body without one clears it
        #expect(about(waits[4], .seconds(86_400)))  // at most a day
    }

    @Test func theBuiltInFiveSecondSourcesIgnoreHints() async {
        let waits = await pauses(interval: .seconds(5), answers: [Self.body(ttl: 60, freshFor: .seconds(3_600))], count: 2)
        #expect(waits.count == 2 && waits.allSatisfy { about($0, .seconds(5)) })
    }
}
