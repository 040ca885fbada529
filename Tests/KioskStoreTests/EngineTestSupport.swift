import Foundation
import KioskCore
import KioskModel
import KioskSQLite
import KioskSources
import KioskStore
import KioskTesting

extension EngineEvent {
    var isChange: Bool { if case .changed = kind { true } else { false } }
    var isFailure: Bool { if case .failed = kind { true } else { false } }
    var isIdle: Bool { if case .idle = kind { true } else { false } }
}


/// A `Fetching` double answering every request with the answer a test set last, counting them.
actor FetchPlan: Fetching {
    private var answer: Result<FetchResult, FetchError> = .failure(.network("no answer planned"))
    private(set) var count = 0

    func set(_ answer: Result<FetchResult, FetchError>) { self.answer = answer }

    func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResult {
        count += 1
        return try answer.get()
    }

    /// Waits (generous deadline) until at least `count` requests were made.
    func waitForCount(atLeast wanted: Int) async -> Bool {
        await eventually { await self.count >= wanted }
    }
}

/// A tiny RSS document whose items have the given titles, served with `etag`.
func rss(_ titles: [String], etag: String) -> FetchResult {
    let items = titles.map { "<item><guid>\($0)</guid><title>\($0)</title></item>" }.joined()
    let bytes = Array("<rss version=\"2.0\"><channel><title>t</title>\(items)</channel></rss>".utf8)
    return .fetched(FetchedBody(bytes: bytes, validators: Validators(etag: etag), finalURL: URL(fileURLWithPath: "/")))
}

/// A real fetcher that also notes what each request sent and what came back.
actor RecordingFetcher: Fetching {
    struct Exchange: Sendable {
        var validators: Validators
        var notModified: Bool
    }

    private let inner: any Fetching
    private(set) var exchanges: [Exchange] = []

    init(_ inner: any Fetching) { self.inner = inner }

    func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResult {
        let result = try await inner.fetch(request)
        let notModified = if case .notModified = result { true } else { false }
        exchanges.append(Exchange(validators: request.validators, notModified: notModified))
        return result
    }
}

/// A store whose disk is gone: every read and write fails.
struct BrokenStore: SourceStateStore {
    func loadSourceStates() async throws -> [SourceID: SourceState] { throw StoreError.diskFull(path: "/nowhere") }
    func saveSourceState(_ state: SourceState, for id: SourceID) async throws {
        throw StoreError.readOnly(path: "/nowhere")
    }
}

/// A store (SQLite, in memory) that counts the engine's saves.
actor CountingStore: SourceStateStore {
    private let inner: SQLiteStore
    private(set) var saves: [SourceID: Int] = [:]

    init() throws {
        inner = try SQLiteStore.inMemoryDatabase()
    }

    func loadSourceStates() async throws -> [SourceID: SourceState] { try await inner.loadSourceStates() }

    func saveSourceState(_ state: SourceState, for id: SourceID) async throws {
        saves[id, default: 0] += 1
        try await inner.saveSourceState(state, for: id)
    }

    func state(of id: SourceID) async throws -> SourceState? { try await inner.loadSourceStates()[id] }
}

/// A store that checks, at every save, that the hub has not yet told anyone what is being saved.
actor PublishOrderStore: SourceStateStore {
    private let hub: EventHub
    private(set) var saves = 0
    /// Saves whose entries the hub had already published: each one breaks the promise.
    private(set) var savedAfterPublishing = 0

    init(hub: EventHub) { self.hub = hub }

    func loadSourceStates() async throws -> [SourceID: SourceState] { [:] }

    func saveSourceState(_ state: SourceState, for id: SourceID) async throws {
        saves += 1
        if let entries = state.entries, await hub.currentSnapshot().entries[id] == entries { savedAfterPublishing += 1 }
    }
}

/// A store that notes what each save announced (nil: a save pages need not hear of).
actor AnnouncingStore: SourceStateStore {
    private(set) var announced: [SharedLogRecord?] = []

    func loadSourceStates() async throws -> [SourceID: SourceState] { [:] }

    func saveSourceState(_ state: SourceState, for id: SourceID) async throws {
        announced.append(nil)
    }

    func saveSourceState(_ state: SourceState, for id: SourceID, announcing: SharedLogRecord?) async throws {
        announced.append(announcing)
    }
}
