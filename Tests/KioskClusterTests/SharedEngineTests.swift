import Foundation
import KioskCluster
import KioskCore
import KioskModel
import KioskSources
import KioskTesting
import PostgresNIO
import Synchronization
import Testing

/// Three engines (as three replicas would run) sharing feed leases: each feed is fetched once per
/// interval between them, not three times.
@Suite struct SharedEngineTests {
    /// Answers every feed with the same small RSS, counting fetches per URL.
    final class CountingFetcher: Fetching {
        private let counts = Mutex<[URL: Int]>([:])
        func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResult {
            counts.withLock { $0[request.url, default: 0] += 1 }
            let body = "<rss version=\"2.0\"><channel><title>t</title><item><guid>1</guid><title>one</title></item></channel></rss>"
            return .fetched(FetchedBody(bytes: Array(body.utf8), finalURL: request.url))
        }
        var total: Int { counts.withLock { $0.values.reduce(0, +) } }
        var perURL: [URL: Int] { counts.withLock { $0 } }
    }

    @Test func threeEnginesCheckEachFeedOncePerInterval() async throws {
        try await TestDatabase.withSchema { configuration in
            try await TestDatabase.withClient(configuration) { client in
                try await ClusterSchema.migrate(client, logger: TestDatabase.logger)
                let feeds = (0..<10).map { index in
                    PolledSource(
                        id: SourceID("f\(index)"), name: "f\(index)", url: URL(string: "https://f\(index).example/rss")!,
                        interval: .milliseconds(1_000))
                }
                let fetcher = CountingFetcher()
                let engines = (0..<3).map { replica in
                    Engine(
                        feeds: feeds, fetcher: fetcher, hub: EventHub(),
                        coordinator: FeedLeases(
                            client: client, owner: "replica-\(replica)", loadState: { _ in nil }, logger: TestDatabase.logger))
                }
                let started = ContinuousClock.now
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for engine in engines { group.addTask { try await engine.run() } }
                    try await Task.sleep(for: .milliseconds(3_500))
                    group.cancelAll()
                }
                let elapsed = ContinuousClock.now - started
                // One check at the start and one per second after: at most 1 + elapsed/1 s per feed
                // (three engines on their own would make three times that).
                let most = 1 + Int(elapsed / .seconds(1))
                for (url, count) in fetcher.perURL {
                    #expect(count <= most, "\(url) was fetched \(count) times in \(elapsed)")
                }
                #expect(fetcher.perURL.count == feeds.count)
                #expect(fetcher.total >= feeds.count * 2)  // and they do keep being checked
            }
        }
    }
}
