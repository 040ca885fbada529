import Foundation
import KioskCore
import KioskModel
import KioskPostgres
import KioskSQLite
import KioskSources
import KioskStore
import KioskTesting
import Testing

/// `itemRefs` on PostgreSQL (a window of ids, then per-feed ranges past it) pages exactly as
/// SQLite's single walk does, for every filter, direction and page size, both when the window
/// answers a page and when it falls short.
@Suite struct ItemRefsTests {
    private let ada = UserID(1)
    private let bob = UserID(2)

    private func feed(_ name: String) throws -> Subscription {
        let url = try #require(URL(string: "https://\(name).example/feed.xml"))
        return Subscription(id: SourceID(name), url: url, feedTitle: "Feed \(name)", interval: .seconds(600))
    }

    private func entries(_ prefix: String, _ range: ClosedRange<Int>) -> [Entry] {
        range.map { number in
            Entry(
                id: "urn:\(prefix):\(number)", title: "\(prefix) \(number)", link: "https://\(prefix).example/\(number)",
                published: Date(timeIntervalSince1970: 1_700_000_000 + Double(number) * 60))
        }
    }

    /// Feeds whose entries interleave by id, some read by a mark, some flagged one by one, some
    /// kept unread under a mark, some starred; a feed Ada does not follow; Bob reads nothing.
    private func fill(_ store: SQLiteStore) async throws {
        _ = try await store.addAccount(name: "Ada", passwordHash: "h", isAdmin: true)
        _ = try await store.addAccount(name: "Bob", passwordHash: "h", isAdmin: false)
        try await store.saveSubscriptions([try feed("a"), try feed("b"), try feed("c")], user: ada)
        try await store.saveSubscriptions([try feed("b"), try feed("d")], user: bob)
        for round in 0..<4 {
            for name in ["a", "b", "c", "d"] {
                let low = round * 6 + 1
                try await store.saveSourceState(SourceState(entries: entries(name, low...(low + 5))), for: SourceID(name))
            }
        }
        let a = try await store.readingList(EntryFilter(sources: ["a"], limit: 100), user: ada).map(\.id).sorted()
        let b = try await store.readingList(EntryFilter(sources: ["b"], limit: 100), user: ada).map(\.id).sorted()
        let c = try await store.readingList(EntryFilter(sources: ["c"], limit: 100), user: ada).map(\.id).sorted()
        _ = try await store.markAllRead(sources: ["a"], upTo: a[15], user: ada)
        _ = try await store.setRead(false, ids: [a[3], a[9]], user: ada)  // kept unread under the mark
        _ = try await store.setRead(true, ids: [a[20], b[2], b[7], b[19], c[0]], user: ada)
        _ = try await store.setStarred(true, ids: [a[3], b[2], c[10], c[23]], user: ada)
        _ = try await store.markAllRead(sources: ["b"], upTo: b[5], user: ada)
        _ = try await store.setStarred(true, ids: [b[1]], user: bob)
    }

    /// Every page of `query` from `store`, following the continuation as a client does.
    private func pages(_ store: some SyncReadingStore, _ query: ItemQuery, user: UserID) async throws -> [[ItemRef]] {
        var query = query
        var pages: [[ItemRef]] = []
        while pages.count < 200 {
            let page = try await store.itemRefs(query, user: user)
            pages.append(page)
            guard page.count == query.limit, let last = page.last else { break }
            query.after = last.id
        }
        return pages
    }

    private func queries(received: Date) -> [ItemQuery] {
        var list: [ItemQuery] = []
        for sources in [nil, ["a"], ["b", "c"], ["d"]] as [[SourceID]?] {
            for state in 0..<4 {
                for limit in [1, 2, 5, 7, 100] {
                    for oldestFirst in [false, true] {
                        var query = ItemQuery(sources: sources, limit: limit)
                        query.unreadOnly = state == 1
                        query.starredOnly = state == 2
                        query.readOnly = state == 3
                        query.oldestFirst = oldestFirst
                        list.append(query)
                    }
                }
            }
        }
        var since = ItemQuery(limit: 3)
        since.receivedSince = received
        var before = ItemQuery(limit: 3)
        before.unreadOnly = true
        before.receivedBefore = received
        var later = ItemQuery(limit: 4)
        later.unreadOnly = true
        later.receivedSince = received.addingTimeInterval(3_600)
        var both = ItemQuery(limit: 2)
        both.unreadOnly = true
        both.readOnly = true
        return list + [since, before, later, both]
    }

    @Test func pagesAsInSQLite() async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("kiosk-item-refs-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("kiosk.sqlite")
        let sqlite = try SQLiteStore(path: path)
        defer { try? sqlite.close() }
        try await fill(sqlite)
        let received = try #require(try await sqlite.itemRefs(ItemQuery(), user: ada).map(\.receivedAt).min())
        try await TestDatabase.withClients(1) { clients in
            let postgres = PostgresStore(client: clients[0])
            try await SQLiteToPostgres.copy(from: path, to: postgres, client: clients[0])
            for user in [ada, bob] {
                for query in queries(received: received) {
                    let expected = try await pages(sqlite, query, user: user)
                    #expect(try await pages(postgres, query, user: user) == expected, "\(query) for \(user)")
                }
                // A continuation past every entry, and one before them all.
                var end = ItemQuery(limit: 5)
                end.unreadOnly = true
                end.after = 1
                #expect(try await postgres.itemRefs(end, user: user) == sqlite.itemRefs(end, user: user))
                end.oldestFirst = true
                end.after = Int64.max
                #expect(try await postgres.itemRefs(end, user: user) == sqlite.itemRefs(end, user: user))
            }
            // Everything read: the window finds nothing, the per-feed ranges neither.
            _ = try await postgres.markAllRead(sources: nil, upTo: Int64.max, user: ada)
            _ = try await sqlite.markAllRead(sources: nil, upTo: Int64.max, user: ada)
            var unread = ItemQuery(limit: 3)
            unread.unreadOnly = true
            #expect(try await pages(postgres, unread, user: ada) == pages(sqlite, unread, user: ada))
        }
    }
}
