import Foundation
import KioskCluster
import KioskCore
import KioskModel
import KioskSources
import KioskTesting
import PostgresNIO
import Synchronization
import Testing

/// What one replica appends, every replica reads in the same order under the same ids, also
/// after its listening connection was cut.
@Suite struct ChangeLogTests {
    /// Collects what a replica's `follow` delivers.
    final class Received: Sendable {
        private let items = Mutex<[String]>([])
        func add(_ item: SharedLogItem) {
            let line =
                switch item {
                case .start: "start"
                case .changed(let id, let source, let entries): "\(id) changed \(source) \(entries.count)"
                case .failed(let id, let source, let error): "\(id) failed \(source) \(error)"
                case .frame(let id, let event, let json, let audience): "\(id) \(event) \(json) \(audience ?? [])"
                case .noted(let id, let source, .changed(let added)): "\(id) noted \(source) changed \(added.map(String.init) ?? "-")"
                case .noted(let id, let source, .failed(let message)): "\(id) noted \(source) failed \(message ?? "-")"
                }
            items.withLock { $0.append(line) }
        }
        var lines: [String] { items.withLock { $0 } }
        /// Waits (up to 10 s) until `count` lines arrived.
        func wait(for count: Int) async throws -> [String] {
            for _ in 0..<200 where lines.count < count { try await Task.sleep(for: .milliseconds(50)) }
            return lines
        }
    }

    /// Counts the reads of a source's state.
    final class Reads: Sendable {
        private let count = Mutex(0)
        func add() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }

    private func log(
        _ client: PostgresClient, _ origin: String, reads: Reads = Reads(), listener: ChangeLogListener? = nil
    ) -> ChangeLog {
        ChangeLog(
            client: client, origin: origin,
            loadState: { id in
                reads.add()
                return SourceState(
                    entries: [Entry(id: "\(id)-1"), Entry(id: "\(id)-2")], failures: 1,
                    lastError: .fetch(.status(code: 503, message: nil, retryAfter: nil)))
            }, logger: TestDatabase.logger, listener: listener, pollEvery: listener == nil ? .seconds(5) : .milliseconds(100))
    }

    @Test func everyReplicaReadsTheSameRecordsInTheSameOrderUnderTheSameIds() async throws {
        try await TestDatabase.withSchema { configuration in
            try await TestDatabase.withClient(configuration) { client in
                try await ClusterSchema.migrate(client, logger: TestDatabase.logger)
                let a = log(client, "a")
                let b = log(client, "b")
                let (fromA, fromB) = (Received(), Received())
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { await a.follow { fromA.add($0) } }
                    group.addTask { await b.follow { fromB.add($0) } }
                    _ = try await fromA.wait(for: 1)
                    _ = try await fromB.wait(for: 1)
                    try await a.append(.changed("business"))
                    try await b.append(.frame(event: "reader", json: #"{"kind":"read"}"#, audience: [2]))
                    try await a.append(.failed("business"))
                    let expectedCount = 4
                    let linesA = try await fromA.wait(for: expectedCount)
                    let linesB = try await fromB.wait(for: expectedCount)
                    group.cancelAll()
                    #expect(linesA.count == expectedCount)
                    #expect(linesA == linesB)
                    #expect(linesA.dropFirst().map { $0.split(separator: " ")[1] } == ["changed", "reader", "failed"])
                    #expect(linesA[1].hasSuffix("changed business 2"))
                }
            }
        }
    }

    /// A burst of records for feeds no page of the reader draws is read without their state:
    /// each is delivered as the record says (new entries counted, the failure's sentence), so
    /// 100,000 first checks cost a few reads of the log, not two reads of the store each.
    @Test func recordsOfSourcesNotNeededAreDeliveredWithoutReadingTheirState() async throws {
        try await TestDatabase.withSchema { configuration in
            try await TestDatabase.withClient(configuration) { client in
                try await ClusterSchema.migrate(client, logger: TestDatabase.logger)
                let reads = Reads()
                let writer = log(client, "writer")
                let reader = log(client, "reader", reads: reads)
                let received = Received()
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { await reader.follow(needsState: { $0 == "business" }) { received.add($0) } }
                    _ = try await received.wait(for: 1)
                    for number in 0..<1_000 { try await writer.append(.changed(SourceID("feed-\(number)"), added: number % 3)) }
                    try await writer.append(.failed("feed-7", message: "HTTP 503"))
                    try await writer.append(.changed("feed-8"))
                    try await writer.append(.changed("business", added: 1))
                    let lines = try await received.wait(for: 1_004)
                    group.cancelAll()
                    #expect(lines.count == 1_004)
                    #expect(lines[1].hasSuffix("noted feed-0 changed 0"))
                    #expect(lines[3].hasSuffix("noted feed-2 changed 2"))
                    #expect(lines[1_001].hasSuffix("noted feed-7 failed HTTP 503"))
                    // A record from before records counted what was new.
                    #expect(lines[1_002].hasSuffix("noted feed-8 changed -"))
                    // The one source pages draw is read with its state, and only it.
                    #expect(lines[1_003].hasSuffix("changed business 2"))
                    #expect(reads.value == 1)
                }
            }
        }
    }

    @Test func aDroppedListeningConnectionMissesNothing() async throws {
        try await TestDatabase.withSchema { configuration in
            try await TestDatabase.withClient(configuration) { client in
                try await ClusterSchema.migrate(client, logger: TestDatabase.logger)
                let writer = log(client, "writer")
                let received = Received()
                // The reader has its own client, so cutting its connections leaves the writer's.
                var readerConfiguration = configuration
                readerConfiguration.options.additionalStartupParameters.append(("application_name", "kiosk-listener-test"))
                try await TestDatabase.withClient(readerConfiguration) { readerClient in
                    let reader = log(readerClient, "reader")
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask { await reader.follow { received.add($0) } }
                        _ = try await received.wait(for: 1)
                        try await writer.append(.changed("a"))
                        _ = try await received.wait(for: 2)
                        // Cut every connection of the reader's, then append while it is away.
                        try await client.query(
                            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'kiosk-listener-test'",
                            logger: TestDatabase.logger)
                        for source in ["b", "c", "d"] { try await writer.append(.changed(SourceID(source))) }
                        let lines = try await received.wait(for: 5)
                        group.cancelAll()
                        #expect(lines.dropFirst().map { $0.split(separator: " ")[2] } == ["a", "b", "c", "d"])
                        let ids = lines.dropFirst().compactMap { Int64($0.split(separator: " ")[0]) }
                        #expect(ids == Array(ids[0]..<(ids[0] + 4)))
                    }
                }
            }
        }
    }

    /// A listener that never starts (postgres-nio's LISTEN can hang when its connection closes
    /// while it starts, vapor/postgres-nio#601) or never hears anything only delays records
    /// until the next read of the log; before, the reads ran inside the listener and stopped
    /// with it (the cluster's "first change was never announced").
    @Test func aListenerThatNeverStartsDelaysRecordsButLosesNone() async throws {
        try await TestDatabase.withSchema { configuration in
            try await TestDatabase.withClient(configuration) { client in
                try await ClusterSchema.migrate(client, logger: TestDatabase.logger)
                let writer = log(client, "writer")
                let hung = ChangeLogListener { _ in try await Task.sleep(for: .seconds(3_600)) }
                let reader = log(client, "reader", listener: hung)
                let received = Received()
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { await reader.follow { received.add($0) } }
                    _ = try await received.wait(for: 1)
                    for source in ["a", "b", "c"] { try await writer.append(.changed(SourceID(source))) }
                    let lines = try await received.wait(for: 4)
                    group.cancelAll()
                    #expect(lines.dropFirst().map { $0.split(separator: " ")[2] } == ["a", "b", "c"])
                }
            }
        }
    }
}
