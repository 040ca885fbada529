import Foundation
import KioskCore
import KioskModel
import Logging
import PostgresNIO

// Appends take a transaction-level advisory lock, so ids commit in the order they are drawn: a
// reader that has seen id n has seen every id below it, and "everything after n" is the whole
// gap. Each append notifies the channel at its commit; each replica keeps one connection
// listening, and on every notification (and after every reconnect) reads what follows the last
// id it delivered.

/// The shared live log on PostgreSQL: the `SharedLog` of replicas.
public struct ChangeLog: SharedLog {
    private let client: PostgresClient
    /// This replica's name, kept with what it appends (for the logs).
    private let origin: String
    private let loadState: @Sendable (SourceID) async throws -> SourceState?
    /// Records kept for replay; older ones go.
    private let keep: Int64
    private let logger: Logger
    /// How this replica hears that the log grew.
    private let listener: ChangeLogListener
    /// How often the log is read even when nothing was heard.
    private let pollEvery: Duration

    static let channel = "kiosk_live"
    /// The advisory lock key appends are serialised on ("KIOSKLOG").
    static let appendLock: Int64 = 0x4B49_4F53_4B4C_4F47

    public init(
        client: PostgresClient, origin: String, keep: Int64 = 100_000,
        loadState: @escaping @Sendable (SourceID) async throws -> SourceState?, logger: Logger,
        listener: ChangeLogListener? = nil, pollEvery: Duration = .seconds(5)
    ) {
        self.client = client
        self.listener = listener ?? .postgres(client, channel: Self.channel)
        self.pollEvery = pollEvery
        self.origin = origin
        self.keep = keep
        self.loadState = loadState
        self.logger = logger
    }

    public func append(_ record: SharedLogRecord) async throws {
        try await client.withTransaction(logger: logger) { connection in try await append(record, on: connection) }
    }

    /// Appends `record` within the transaction open on `connection` (with a source's state:
    /// `LoggedSourceStates`): it is numbered, and replicas hear of it, only if that commits.
    public func append(_ record: SharedLogRecord, on connection: PostgresConnection) async throws {
        let kind: String
        var source: String?
        var event: String?
        var json: String?
        var audience: [Int64]?
        switch record {
        case .changed(let id, let added):
            kind = "changed"
            source = id.rawValue
            json = added.flatMap { Note(added: $0).json }
        case .failed(let id, let message):
            kind = "failed"
            source = id.rawValue
            json = message.flatMap { Note(message: $0).json }
        case .frame(let name, let body, let users):
            kind = "frame"
            event = name
            json = body
            audience = users
        }
        let at = Date().timeIntervalSince1970
        try await connection.query("SELECT pg_advisory_xact_lock(\(Self.appendLock))", logger: logger)
        try await connection.query(
            """
            INSERT INTO live_log (at, origin, kind, source, event, json, audience)
            VALUES (\(at), \(origin), \(kind), \(source), \(event), \(json), \(audience))
            """, logger: logger)
        try await connection.query("SELECT pg_notify(\(Self.channel), '')", logger: logger)
    }

    public func records(after last: Int64, through: Int64, limit: Int) async throws -> [SharedLogItem]? {
        // Pruned past `last`: the gap cannot be told exactly.
        let oldestRows = try await client.query("SELECT COALESCE(min(id), 0)::int8 FROM live_log", logger: logger)
        var oldest: Int64 = 0
        for try await id in oldestRows.decode(Int64.self) { oldest = id }
        guard oldest > 0, oldest <= last + 1 else { return nil }
        let rows = try await client.query(
            """
            SELECT id, kind, source, event, json, audience FROM live_log
            WHERE id > \(last) AND id <= \(through) ORDER BY id LIMIT \(limit + 1)
            """, logger: logger)
        var items: [SharedLogItem] = []
        var count = 0
        for try await (id, kind, source, event, json, audience) in rows.decode(
            (Int64, String, String?, String?, String?, [Int64]?).self)
        {
            count += 1
            if let item = try await item(
                id: id, kind: kind, source: source, event: event, json: json, audience: audience, needsState: { _ in false })
            {
                items.append(item)
            }
        }
        return count > limit ? nil : items
    }

    /// The newest id (0 when the log is empty).
    public func newestID() async throws -> Int64 {
        let rows = try await client.query("SELECT COALESCE(max(id), 0)::int8 FROM live_log", logger: logger)
        var newest: Int64 = 0
        for try await id in rows.decode(Int64.self) { newest = id }
        return newest
    }

    public func follow(
        needsState: @escaping @Sendable (SourceID) async -> Bool, _ deliver: @escaping @Sendable (SharedLogItem) async -> Void
    ) async {
        var failures = 0
        var start: Int64?
        while start == nil, !Task.isCancelled {
            do {
                start = try await newestID()
            } catch {
                failures += 1
                if failures == 1 { logger.warning("the live log cannot be read; retrying", metadata: ["error": "\(String(reflecting: error))"]) }
                try? await Task.sleep(for: Self.backoff(after: failures))
            }
        }
        guard let start else { return }
        await deliver(.start(start))
        // Three tasks: the listener wakes the reader at each notification, a timer wakes it
        // every few seconds whatever it hears, and the reader reads what follows the last id
        // delivered. The timer is beside the listener, not inside it, so a listener that never
        // starts or hears nothing (a connection a network dropped in silence, a LISTEN that
        // hangs while its connection closes: vapor/postgres-nio#601) delays records by at most
        // `pollEvery`, and never stops them.
        let (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        // The listener is not a child of the group: a LISTEN that hangs and ignores cancellation
        // (the same postgres-nio bug) must not hold `follow`, and so the server, at shutdown.
        let listening = Task { await listen { wake.yield() } }
        defer { listening.cancel() }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                while !Task.isCancelled {
                    try? await Task.sleep(for: pollEvery)
                    wake.yield()
                }
            }
            var last = start
            var pruned = start
            var nextPrune = Date().addingTimeInterval(3_600)
            var failures = 0
            for await _ in wakes {
                do {
                    last = try await deliverAfter(last, needsState: needsState, to: deliver)
                    failures = 0
                } catch {
                    if Task.isCancelled { break }
                    failures += 1
                    if failures == 1 {
                        logger.warning("the live log cannot be read; retrying", metadata: ["error": "\(String(reflecting: error))"])
                    }
                    // A restarting database: again soon (pages wait for this), at most every 2 s.
                    try? await Task.sleep(for: Self.backoff(after: failures))
                    wake.yield()
                    continue
                }
                // Every 1,000 records, and at least hourly: the newest `keep` records of the
                // last day stay (pages reconnecting within them are replayed from here).
                if last - pruned >= 1_000 || Date() >= nextPrune {
                    pruned = last
                    nextPrune = Date().addingTimeInterval(3_600)
                    await prune(before: last - keep, olderThan: Date().addingTimeInterval(-Self.keepFor), newest: last)
                }
            }
            group.cancelAll()
        }
    }

    /// Listens until cancelled, calling `wake` at each notification and after each (re)start
    /// of listening (whatever was appended while nobody listened is read then).
    private func listen(wake: @escaping @Sendable () -> Void) async {
        var failures = 0
        var warned = Date.distantPast
        while !Task.isCancelled {
            let began = Date()
            do {
                try await listener.listen(wake)
                throw ChangeLogError.listeningEnded
            } catch {
                if Task.isCancelled { return }
                // A connection that listened a while before it dropped starts a new streak.
                failures = Date().timeIntervalSince(began) > 10 ? 1 : failures + 1
                if Date().timeIntervalSince(warned) > 60 {
                    warned = Date()
                    logger.warning("the live log's connection dropped; reconnecting", metadata: ["error": "\(String(reflecting: error))"])
                }
            }
            try? await Task.sleep(for: Self.backoff(after: failures))
        }
    }

    /// 100 ms doubling to at most 2 s.
    static func backoff(after failures: Int) -> Duration {
        .milliseconds(min(2_000, 100 * (1 << min(max(failures, 1), 5))))
    }


    /// Delivers every record after `last`, in order; returns the last id delivered. A record
    /// whose source cannot be read throws before `last` moves past it: it is read again after
    /// the reconnect, so every replica delivers the same records.
    private func deliverAfter(
        _ last: Int64, needsState: @Sendable (SourceID) async -> Bool, to deliver: @Sendable (SharedLogItem) async -> Void
    ) async throws -> Int64 {
        var last = last
        while true {
            let rows = try await client.query(
                """
                SELECT id, kind, source, event, json, audience FROM live_log
                WHERE id > \(last) ORDER BY id LIMIT 500
                """, logger: logger)
            var records: [(Int64, String, String?, String?, String?, [Int64]?)] = []
            for try await row in rows.decode((Int64, String, String?, String?, String?, [Int64]?).self) { records.append(row) }
            for (id, kind, source, event, json, audience) in records {
                if let item = try await item(
                    id: id, kind: kind, source: source, event: event, json: json, audience: audience, needsState: needsState)
                {
                    await deliver(item)
                }
                last = id
            }
            if records.count < 500 { break }
        }
        return last
    }

    /// A record as pages need it: a source's entries or error read from the store when the
    /// reader's pages draw it, else what the record says.
    private func item(
        id: Int64, kind: String, source: String?, event: String?, json: String?, audience: [Int64]?,
        needsState: @Sendable (SourceID) async -> Bool
    ) async throws -> SharedLogItem? {
        switch kind {
        case "changed", "failed":
            guard let source else { return nil }
            let sourceID = SourceID(source)
            guard await needsState(sourceID) else {
                let note = json.flatMap(Note.init(json:))
                return .noted(
                    id: id, sourceID, kind == "changed" ? .changed(added: note?.added) : .failed(message: note?.message))
            }
            let state = try await loadState(sourceID)
            if kind == "changed" { return .changed(id: id, sourceID, state?.entries ?? []) }
            guard let error = state?.lastError else { return nil }
            return .failed(id: id, sourceID, error)
        case "frame":
            guard let event, let json else { return nil }
            return .frame(id: id, event: event, json: json, audience: audience)
        default:
            return nil
        }
    }

    /// How long records are kept at most.
    static let keepFor: TimeInterval = 24 * 3_600

    /// Deletes what is past `keep` or older than `date`, never the newest record (its id is
    /// where a replica starting later begins).
    private func prune(before id: Int64, olderThan date: Date, newest: Int64) async {
        let at = date.timeIntervalSince1970
        _ = try? await client.query(
            "DELETE FROM live_log WHERE (id < \(id) OR at < \(at)) AND id < \(newest)", logger: logger)
    }
}

/// What a change or failure record carries besides its source (in `live_log.json`), so a
/// replica that does not draw the source needs nothing else.
struct Note: Codable {
    var added: Int?
    var message: String?

    init(added: Int? = nil, message: String? = nil) {
        self.added = added
        self.message = message
    }

    init?(json: String) {
        guard let decoded = try? JSONDecoder().decode(Note.self, from: Data(json.utf8)) else { return nil }
        self = decoded
    }

    var json: String? {
        (try? JSONEncoder().encode(self)).map { String(decoding: $0, as: UTF8.self) }
    }
}

/// How a replica hears that the shared log grew: PostgreSQL's LISTEN, or (in tests) anything
/// else that calls `heard`.
public struct ChangeLogListener: Sendable {
    /// Calls `heard` once listening has begun and at each notification; returns or throws when
    /// listening ends.
    public let listen: @Sendable (_ heard: @escaping @Sendable () -> Void) async throws -> Void

    public init(listen: @escaping @Sendable (_ heard: @escaping @Sendable () -> Void) async throws -> Void) {
        self.listen = listen
    }

    /// LISTEN on `channel` on a connection of `client`'s own.
    public static func postgres(_ client: PostgresClient, channel: String) -> ChangeLogListener {
        ChangeLogListener { heard in
            try await client.withConnection { connection in
                try await connection.listen(on: channel) { notifications in
                    heard()
                    for try await _ in notifications { heard() }
                }
            }
        }
    }
}

/// Why the live log's listener starts again.
enum ChangeLogError: Error {
    /// The notifications ended (the connection closed).
    case listeningEnded
}
