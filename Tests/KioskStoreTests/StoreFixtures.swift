import Foundation
import KioskCore
import KioskModel
import KioskPostgres
import KioskSQLite
import KioskSources
import KioskStore
import KioskTesting
import PostgresNIO

/// Entries and states shared by the store tests.
enum Fixtures {
    static func entry(_ id: String, title: String? = nil, summary: String? = nil) -> Entry {
        Entry(
            id: id, title: title ?? "Title \(id)", link: "https://example.com/\(id)",
            published: Date(timeIntervalSinceReferenceDate: 700_000_000.123_456),
            authors: [Author(name: "Ann Writer")], summary: summary ?? "<p>Summary of <b>\(id)</b></p>",
            categories: ["World"], enclosures: [Enclosure(url: "https://example.com/\(id).png", type: "image/png")],
            image: "https://example.com/\(id).jpg")
    }

    static func entries(_ ids: [String]) -> [Entry] { ids.map { entry($0) } }

    /// A state with every field set, an error with a payload included.
    static func fullState(_ ids: [String] = ["a", "b", "c"]) -> SourceState {
        SourceState(
            entries: entries(ids),
            validators: Validators(etag: "\"v1\"", lastModified: "Tue, 01 Jul 2025 10:00:00 GMT", request: "fedcba9876543210"),
            failures: 2, lastError: .fetch(.status(code: 503, message: "down for maintenance", retryAfter: .seconds(30))),
            lastSuccess: Date(timeIntervalSince1970: 1_750_000_000.25), lastFailure: Date(timeIntervalSince1970: 1_750_000_100.5))
    }
}

/// The stores the shared promises are checked against.
enum StoreKind: String, CaseIterable, Sendable {
    case sqlite
    /// PostgreSQL at `KIOSK_TEST_DATABASE_URL`, each test in a schema of its own.
    case postgres
}

/// Runs `body` with a fresh store of `kind` (a SQLite file in its own temporary directory, or
/// a PostgreSQL schema of its own, removed afterwards).
/// `following`: feeds the local owner follows from the start (reading lists show only those).
func withStore<T>(
    _ kind: StoreKind, following: [SourceID] = [], _ body: (any KioskStore) async throws -> T
) async throws -> T {
    switch kind {
    case .sqlite:
        return try await withTemporaryDirectory { directory in
            let store = try SQLiteStore(path: directory.appendingPathComponent("kiosk.sqlite"))
            defer { try? store.close() }
            try await store.follow(following)
            return try await body(store)
        }
    case .postgres:
        return try await withPostgresStore { store in
            try await store.follow(following)
            return try await body(store)
        }
    }
}

/// At most this many PostgreSQL tests hold a database schema at once: the suite runs ~150 in
/// parallel, and the test server allows 300 connections.
private let postgresTestSlots = TestSlots(count: 24)

/// A counting semaphore for tests.
actor TestSlots {
    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(count: Int) { free = count }

    func acquire() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty {
            free += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}

/// Runs `body` with a `PostgresStore` on a schema of its own (`kiosk_test_<random>`) in the
/// database at `KIOSK_TEST_DATABASE_URL`: its client's connections start with that schema as
/// their `search_path`, so every table the store makes and reads is the test's alone. The schema
/// is dropped afterwards, whatever happened. Fails (never skips) when the URL is not set.
func withPostgresStore<T>(_ body: (PostgresStore) async throws -> T) async throws -> T {
    _ = try TestDatabase.url()
    await postgresTestSlots.acquire()
    do {
        let result = try await TestDatabase.withClients(1) { clients in
            let store = PostgresStore(client: clients[0])
            try await store.migrate()
            return try await body(store)
        }
        await postgresTestSlots.release()
        return result
    } catch {
        await postgresTestSlots.release()
        throw error
    }
}

extension KioskStore {
    /// Has `user` follow feeds with these ids (at made-up addresses).
    func follow(_ ids: [SourceID], user: UserID = .owner) async throws {
        guard !ids.isEmpty else { return }
        try await saveSubscriptions(
            ids.map { Subscription(id: $0, url: URL(string: "https://\($0.rawValue).example/feed.xml")!) }, user: user)
    }
}

/// Dates written as Unix seconds in SQLite may differ from the original in the last bit.
func nearlyEqual(_ a: Date?, _ b: Date?) -> Bool {
    switch (a, b) {
    case (nil, nil): true
    case (let a?, let b?): abs(a.timeIntervalSince(b)) < 0.001
    default: false
    }
}

/// Two states equal but for sub-millisecond differences in their dates.
func sameState(_ a: SourceState?, _ b: SourceState?) -> Bool {
    guard let a, let b else { return a == nil && b == nil }
    return a.entries == b.entries && a.validators == b.validators && a.failures == b.failures
        && a.lastError == b.lastError && nearlyEqual(a.lastSuccess, b.lastSuccess)
        && nearlyEqual(a.lastFailure, b.lastFailure)
}
