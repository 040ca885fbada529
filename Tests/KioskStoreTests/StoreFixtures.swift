import Foundation
import KioskCore
import KioskSources
import KioskStore

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
            entries: entries(ids), validators: Validators(etag: "\"v1\"", lastModified: "Tue, 01 Jul 2025 10:00:00 GMT"),
            failures: 2, lastError: .fetch(.status(code: 503, message: "down for maintenance", retryAfter: .seconds(30))),
            lastSuccess: Date(timeIntervalSince1970: 1_750_000_000.25), lastFailure: Date(timeIntervalSince1970: 1_750_000_100.5))
    }
}

/// The two stores the shared promises are checked against.
enum StoreKind: String, CaseIterable, Sendable {
    case sqlite
    case inMemory
}

/// Runs `body` with a fresh store of `kind` (a SQLite file in its own temporary directory,
/// removed afterwards).
/// `following`: feeds the local owner follows from the start (reading lists show only those).
func withStore<T>(
    _ kind: StoreKind, following: [SourceID] = [], _ body: (any KioskStore) async throws -> T
) async throws -> T {
    switch kind {
    case .inMemory:
        let store = InMemoryStore()
        try await store.follow(following)
        return try await body(store)
    case .sqlite:
        return try await withTemporaryDirectory { directory in
            let store = try SQLiteStore(path: directory.appendingPathComponent("kiosk.sqlite"))
            defer { try? store.close() }
            try await store.follow(following)
            return try await body(store)
        }
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
