import Foundation
import KioskCore
import KioskModel
@testable import KioskSources

/// A `Fetching` double for engine logic: per URL, a delay and a scripted answer that a test can
/// change while the engine runs. (The HTTP layer itself is tested over real loopback HTTP.)
actor FetchScript {
    struct Answer: Sendable {
        var delay: Duration = .zero
        var result: Result<FetchResult, FetchError>
    }

    private var answers: [URL: Answer] = [:]
    private var counts: [URL: Int] = [:]

    func set(_ url: URL, delay: Duration = .zero, _ result: Result<FetchResult, FetchError>) {
        answers[url] = Answer(delay: delay, result: result)
    }

    func count(_ url: URL) -> Int { counts[url, default: 0] }

    /// Waits (generous deadline) until `url` was fetched at least `count` times.
    func waitForCount(_ url: URL, atLeast count: Int, timeout: Duration = .seconds(20)) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while counts[url, default: 0] < count, clock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        return counts[url, default: 0] >= count
    }

    func next(_ url: URL) -> Answer {
        counts[url, default: 0] += 1
        return answers[url] ?? Answer(result: .failure(.network("no script for \(url)")))
    }
}

struct ScriptedFetcher: Fetching {
    let script: FetchScript
    /// What the scripted delays pass on: real time, or a test's `ManualClock`.
    var clock: any Clock<Duration> = ContinuousClock()

    func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResult {
        let answer = await script.next(request.url)
        try? await clock.sleep(for: answer.delay)
        return try answer.result.get()
    }
}

/// A tiny RSS document whose items have the given titles.
func rss(_ titles: [String]) -> FetchResult {
    let items = titles.map { "<item><guid>\($0)</guid><title>\($0)</title></item>" }.joined()
    let bytes = Array("<rss version=\"2.0\"><channel><title>t</title>\(items)</channel></rss>".utf8)
    let url = URL(fileURLWithPath: "/")
    return .fetched(FetchedBody(bytes: bytes, validators: Validators(etag: "\"\(titles.count)\""), finalURL: url))
}

func url(_ path: String) -> URL {
    URL(string: "http://sources.test/\(path)") ?? URL(fileURLWithPath: path)
}
