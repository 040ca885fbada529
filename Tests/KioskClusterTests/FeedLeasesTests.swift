import Foundation
import KioskCluster
import KioskCore
import KioskModel
import KioskSources
import KioskTesting
import PostgresNIO
import Testing

/// Replicas claiming the same feeds: one check per interval, and a dead replica's feeds taken over.
@Suite struct FeedLeasesTests {
    private func feed(_ id: SourceID, host: String = "example.com") -> PolledSource {
        PolledSource(id: id, name: id.rawValue, url: URL(string: "https://\(host)/\(id.rawValue).xml")!, interval: .seconds(60))
    }

    private func leases(_ client: PostgresClient, _ owner: String, lease: Duration = .seconds(30), state: SourceState? = nil)
        -> FeedLeases
    {
        FeedLeases(client: client, owner: owner, leaseDuration: lease, loadState: { _ in state }, logger: TestDatabase.logger)
    }

    @Test func onlyOneOfThreeReplicasClaimingAtOnceGetsTheFeed() async throws {
        try await TestDatabase.withSchema { configuration in
            try await TestDatabase.withClient(configuration) { client in
                try await ClusterSchema.migrate(client, logger: TestDatabase.logger)
                let replicas = ["a", "b", "c"].map { leases(client, $0) }
                for round in 0..<20 {
                    let source = feed(SourceID("feed-\(round)"))
                    let claims = await withTaskGroup(of: CheckClaim.self) { group in
                        for replica in replicas { group.addTask { await replica.claim(source, holdsState: true) } }
                        return await group.reduce(into: []) { $0.append($1) }
                    }
                    #expect(claims.filter { if case .granted = $0 { true } else { false } }.count == 1)
                }
            }
        }
    }

    @Test func aCheckedFeedIsNotDueForAnyReplicaUntilItsNextCheck() async throws {
        try await TestDatabase.withSchema { configuration in
            try await TestDatabase.withClient(configuration) { client in
                try await ClusterSchema.migrate(client, logger: TestDatabase.logger)
                let stored = SourceState(entries: [Entry(id: "x", title: "stored by another replica")])
                let a = leases(client, "a", state: stored)
                let b = leases(client, "b")
                guard case .granted(let state) = await a.claim(feed("news"), holdsState: true) else {
                    Issue.record("the first claim should be granted")
                    return
                }
                #expect(state == stored)  // the stored state comes with the lease
                // Held: the other replica waits about the lease's length.
                guard case .notBefore(let held) = await b.claim(feed("news"), holdsState: true) else {
                    Issue.record("a held feed was granted twice")
                    return
                }
                #expect(held > .seconds(20) && held <= .seconds(31))
                await a.finished("news", nextIn: .seconds(60))
                // Released, and due in a minute: still nobody's.
                guard case .notBefore(let wait) = await b.claim(feed("news"), holdsState: true) else {
                    Issue.record("a feed checked a moment ago was granted again")
                    return
                }
                #expect(wait > .seconds(50) && wait <= .seconds(61))
                await a.finished("news", nextIn: .zero)  // not a's any more: changes nothing
                guard case .notBefore = await a.claim(feed("news"), holdsState: true) else {
                    Issue.record("a release by a replica without the lease counted")
                    return
                }
            }
        }
    }

    @Test func theLastCheckerKeepsWhatItHoldsUnlessItForgotIt() async throws {
        try await TestDatabase.withSchema { configuration in
            try await TestDatabase.withClient(configuration) { client in
                try await ClusterSchema.migrate(client, logger: TestDatabase.logger)
                let stored = SourceState(entries: [Entry(id: "x", title: "as stored")])
                let a = leases(client, "a", state: stored)
                guard case .granted(let first) = await a.claim(feed("news"), holdsState: false) else {
                    Issue.record("the first claim should be granted")
                    return
                }
                #expect(first == stored)
                await a.finished("news", nextIn: .zero)
                // a checked it last and holds its state: nothing to read back...
                guard case .granted(let kept) = await a.claim(feed("news"), holdsState: true) else {
                    Issue.record("a due feed was refused")
                    return
                }
                #expect(kept == nil)
                await a.finished("news", nextIn: .zero)
                // ...but after forgetting it (unsubscribed, subscribed again) it gets the stored one.
                guard case .granted(let again) = await a.claim(feed("news"), holdsState: false) else {
                    Issue.record("a due feed was refused")
                    return
                }
                #expect(again == stored)
            }
        }
    }

    @Test func aReplicaThatDiesLosesItsFeedsWhenTheLeaseExpires() async throws {
        try await TestDatabase.withSchema { configuration in
            try await TestDatabase.withClient(configuration) { client in
                try await ClusterSchema.migrate(client, logger: TestDatabase.logger)
                let dead = leases(client, "dead", lease: .milliseconds(700))
                let alive = leases(client, "alive")
                guard case .granted = await dead.claim(feed("feed"), holdsState: true) else {
                    Issue.record("the first claim should be granted")
                    return
                }
                // "dead" never finishes its check.
                guard case .notBefore(let wait) = await alive.claim(feed("feed"), holdsState: true) else {
                    Issue.record("a leased feed was granted twice")
                    return
                }
                try await Task.sleep(for: max(wait, .milliseconds(750)))
                guard case .granted = await alive.claim(feed("feed"), holdsState: true) else {
                    Issue.record("an expired lease was not taken over")
                    return
                }
            }
        }
    }

    @Test func aHostIsCheckedByAtMostItsShareOfReplicasAtOnce() async throws {
        try await TestDatabase.withSchema { configuration in
            try await TestDatabase.withClient(configuration) { client in
                try await ClusterSchema.migrate(client, logger: TestDatabase.logger)
                let replicas = ["a", "b", "c"].map {
                    FeedLeases(client: client, owner: $0, perHost: 2, loadState: { _ in nil }, logger: TestDatabase.logger)
                }
                var granted = 0
                for number in 0..<6 {
                    if case .granted = await replicas[number % 3].claim(feed(SourceID("busy-\(number)"), host: "busy.example"), holdsState: true) {
                        granted += 1
                    }
                }
                #expect(granted == 2)  // two leases held on busy.example, by any replicas
                // Another host is not held back.
                guard case .granted = await replicas[0].claim(feed("calm", host: "calm.example"), holdsState: true) else {
                    Issue.record("a quiet host was held back by a busy one")
                    return
                }
                // A finished check frees its slot.
                await replicas[0].finished("busy-0", nextIn: .seconds(60))
                await replicas[1].finished("busy-1", nextIn: .seconds(60))
                guard case .granted = await replicas[2].claim(feed("busy-2", host: "busy.example"), holdsState: true) else {
                    Issue.record("a freed slot was not taken")
                    return
                }
            }
        }
    }

    /// A News feed (checked every few seconds) shares a host with a thousand others; their claims
    /// take turns on the host's lock, and on a busy machine the line grew faster than it moved.
    @Test func aFeedOutsideTheHostCapNeverWaitsForTheHostsTurn() async throws {
        try await TestDatabase.withSchema { configuration in
            try await TestDatabase.withClient(configuration) { client in
                try await ClusterSchema.migrate(client, logger: TestDatabase.logger)
                let replica = leases(client, "a")
                let news = PolledSource(
                    id: "business", name: "Business", url: URL(string: "https://busy.example/news.xml")!, interval: .seconds(5))
                let (locked, lockHeld) = AsyncStream<Void>.makeStream()
                let (release, released) = AsyncStream<Void>.makeStream()
                let outcome = try await withThrowingTaskGroup(of: String.self) { group in
                    // Another claim of busy.example, holding the host's turn until told (at most 20 s).
                    group.addTask {
                        try await client.withTransaction(logger: TestDatabase.logger) { connection in
                            try await connection.query(
                                "SELECT pg_advisory_xact_lock(\(FeedLeases.hostLockClass), hashtext('busy.example'))",
                                logger: TestDatabase.logger)
                            lockHeld.yield()
                            await withTaskGroup(of: Void.self) { wait in
                                wait.addTask { for await _ in release { break } }
                                wait.addTask { try? await Task.sleep(for: .seconds(20)) }
                                await wait.next()
                                wait.cancelAll()
                            }
                        }
                        return "the host's turn ended"
                    }
                    for await _ in locked { break }
                    group.addTask {
                        if case .granted = await replica.claim(news, holdsState: true) { return "granted" }
                        return "refused"
                    }
                    let first = try await group.next() ?? ""
                    released.yield()
                    try await group.waitForAll()
                    return first
                }
                #expect(outcome == "granted")  // while the host's turn was still held
            }
        }
    }

    @Test func migratingTwiceAndConcurrentlyIsSafe() async throws {
        try await TestDatabase.withSchema { configuration in
            try await TestDatabase.withClient(configuration) { client in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 0..<3 { group.addTask { try await ClusterSchema.migrate(client, logger: TestDatabase.logger) } }
                    try await group.waitForAll()
                }
                try await ClusterSchema.migrate(client, logger: TestDatabase.logger)
            }
        }
    }
}
