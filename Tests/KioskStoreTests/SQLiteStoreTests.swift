import Foundation
import GRDB
import KioskCore
import KioskModel
@testable import KioskSQLite
import KioskSources
@testable import KioskStore
import Testing

/// What only the SQLite store promises: its file, its schema, surviving a restart, failing well.
@Suite struct SQLiteStoreTests {
    private static let migrations = [
        "sources", "entries", "entries_fts", "app_state", "images", "subscriptions", "reading", "drop_images", "read_marks",
        "accounts", "validators_request", "articles", "full_articles", "article_claims", "list_versions", "sign_in_failures",
        "allowance_uses", "saved_searches", "rules", "labels", "hidden", "push_devices", "webhooks", "push_queue",
        "playback_positions", "transcripts", "media_through_kiosk",
    ]

    /// Runs `body` with the path of a database file in a fresh temporary directory.
    private func withDatabaseFile(_ body: (URL) async throws -> Void) async throws {
        try await withTemporaryDirectory { directory in
            try await body(directory.appendingPathComponent("data/kiosk.sqlite"))  // folder made by the store
        }
    }

    /// Reads the file directly, bypassing the store.
    private func inspect<T>(_ file: URL, _ read: (Database) throws -> T) throws -> T {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: file.path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read(read)
    }

    @Test func migrationsRunOnAFreshFileAndNotAgainOnReopen() async throws {
        try await withDatabaseFile { file in
            let store = try SQLiteStore(path: file)
            try await store.saveSourceState(Fixtures.fullState(), for: "news")
            try store.close()
            let applied = try inspect(file) { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") }
            #expect(applied == Self.migrations)

            let reopened = try SQLiteStore(path: file)
            try await reopened.saveSourceState(Fixtures.fullState(["x"]), for: "other")
            try reopened.close()
            let again = try inspect(file) { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") }
            #expect(again == Self.migrations)
            let tables = try inspect(file) { db in
                try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            }
            #expect(Set(tables).isSuperset(of: ["sources", "entries", "entries_fts", "app_state", "subscriptions"]))
        }
    }

    /// Runs FTS5's own check that the index matches `entries` (it throws when it does not; rank 1
    /// asks it to compare with the external content table, not only with itself).
    private func checkSearchIndex(_ file: URL) throws {
        let queue = try DatabaseQueue(path: file.path)
        defer { try? queue.close() }
        try queue.write { db in try db.execute(sql: "INSERT INTO entries_fts (entries_fts) VALUES ('integrity-check')") }
        try queue.write { db in
            try db.execute(sql: "INSERT INTO entries_fts (entries_fts, rank) VALUES ('integrity-check', 1)")
        }
    }

    @Test func theFileIsInWALModeAndIntact() async throws {
        try await withDatabaseFile { file in
            let store = try SQLiteStore(path: file)
            try await store.saveSourceState(Fixtures.fullState(), for: "news")
            try await store.saveSourceState(Fixtures.fullState(["c", "d", "a"]), for: "news")
            #expect(try await store.journalMode() == "wal")
            #expect(try await store.integrityCheck() == "ok")
            try store.close()
            let indexed = try inspect(file) { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM entries_fts") }
            #expect(indexed == 4)  // b left the feed but is kept (and findable) until retention
            try checkSearchIndex(file)
        }
    }

    @Test func anEditedEntryIsUpdatedInPlace() async throws {
        try await withDatabaseFile { file in
            let store = try SQLiteStore(path: file)
            try await store.saveSourceState(SourceState(entries: Fixtures.entries(["a", "b", "c"])), for: "news")
            let before = try inspect(file) { db in try Row.fetchAll(db, sql: "SELECT id, identity FROM entries ORDER BY id") }
            var changed = Fixtures.entries(["a", "b", "c"])
            changed[1].title = "B, corrected"
            try await store.saveSourceState(SourceState(entries: changed), for: "news")
            try store.close()
            let after = try inspect(file) { db in
                try Row.fetchAll(db, sql: "SELECT id, identity, title FROM entries ORDER BY position")
            }
            #expect(after.count == 3)
            // Same rows (same row ids), the new title in b's.
            #expect(after.map { $0["id"] as Int64 } == before.map { $0["id"] as Int64 })
            #expect(after.map { $0["title"] as String? } == ["Title a", "B, corrected", "Title c"])
            try checkSearchIndex(file)
            let search = try SQLiteStore(path: file)
            defer { try? search.close() }
            #expect(try await search.search("corrected", limit: 5, user: nil).map(\.entry.id) == ["b"])
        }
    }

    @Test func anEntryThatLeavesTheFeedLeavesTheListButIsKept() async throws {
        try await withDatabaseFile { file in
            let store = try SQLiteStore(path: file)
            try await store.saveSourceState(SourceState(entries: Fixtures.entries(["a", "b", "c"])), for: "news")
            try await store.saveSourceState(SourceState(entries: Fixtures.entries(["c", "a"])), for: "news")
            try store.close()
            let rows = try inspect(file) { db in
                try String.fetchAll(db, sql: "SELECT identity FROM entries WHERE in_feed = 1 ORDER BY position")
            }
            #expect(rows == ["c", "a"])
            let kept = try inspect(file) { db in
                try String.fetchAll(db, sql: "SELECT identity FROM entries WHERE in_feed = 0")
            }
            #expect(kept == ["b"])
        }
    }

    @Test func aReopenedFileRemembersEverything() async throws {
        try await withDatabaseFile { file in
            let state = Fixtures.fullState()
            let headline = OpenedHeadline(title: "Rates", path: "/news/business/rates", openedAt: Date(timeIntervalSince1970: 1_750_000_000))
            let device: UUID
            do {
                let store = try SQLiteStore(path: file)
                try await store.saveSourceState(state, for: "business")
                try await store.setLastOpened(headline, user: .owner)
                device = try await store.deviceID()
                try store.close()
            }
            let reopened = try SQLiteStore(path: file)
            defer { try? reopened.close() }
            let loaded = try await reopened.loadSourceStates()
            #expect(loaded["business"]?.entries == state.entries)
            #expect(loaded["business"]?.validators == state.validators)
            #expect(sameState(loaded["business"], state))
            #expect(try await reopened.lastOpened(user: .owner) == headline)
            #expect(try await reopened.deviceID() == device)
        }
    }

    @Test func savingToAReadOnlyDatabaseIsAReadOnlyError() async throws {
        try await withDatabaseFile { file in
            let writable = try SQLiteStore(path: file)
            try await writable.saveSourceState(Fixtures.fullState(), for: "news")
            let device = try await writable.deviceID()
            try writable.close()

            let store = try SQLiteStore(path: file, readOnly: true)
            defer { try? store.close() }
            await #expect(throws: StoreError.readOnly(path: file.path)) {
                try await store.saveSourceState(Fixtures.fullState(["z"]), for: "news")
            }
            // What it has, it still serves.
            #expect(try await store.entries(for: "news").map(\.id) == ["a", "b", "c"])
            #expect(try await store.deviceID() == device)
            #expect(StoreError.readOnly(path: file.path).description.contains("read-only"))
        }
    }

    @Test func aFileThatIsNoDatabaseIsReportedAsCorrupt() async throws {
        try await withDatabaseFile { file in
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(repeating: 0x42, count: 8_192).write(to: file)
            #expect {
                _ = try SQLiteStore(path: file)
            } throws: { error in
                guard case .corrupt(let path, _)? = error as? StoreError else { return false }
                return path == file.path
            }
        }
    }

    @Test func aPathThatCannotBeADatabaseIsReportedWithThePath() async throws {
        try await withTemporaryDirectory { directory in
            let blocker = directory.appendingPathComponent("file")
            try Data("x".utf8).write(to: blocker)
            let file = blocker.appendingPathComponent("kiosk.sqlite")  // a "folder" that is a file
            #expect {
                _ = try SQLiteStore(path: file)
            } throws: { error in
                guard case .cannotOpen(let path, _)? = error as? StoreError else { return false }
                return path == file.path && String(describing: error).contains(file.path)
            }
        }
    }

    @Test func anInMemoryDatabaseKeepsThePromisesToo() async throws {
        let store = try SQLiteStore.inMemoryDatabase()
        try await store.saveSourceState(Fixtures.fullState(), for: "news")
        #expect(try await store.entries(for: "news").map(\.id) == ["a", "b", "c"])
        #expect(try await store.search("summary", limit: 10, user: nil).count == 3)
        #expect(try await store.integrityCheck() == "ok")
    }
}

/// A database written before the reader existed gains its reading columns on open.
@Suite struct ReadingMigrationTests {
    @Test func rowsFromBeforeTheReaderAreBackfilledAndUnread() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("old.sqlite")
            // The schema as the previous release left it, with one entry in it.
            let queue = try DatabaseQueue(path: file.path)
            try await queue.write { db in
                for sql in ["sources", "entries"].compactMap(Self.oldSchema) { try db.execute(sql: sql) }
                try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
                try db.execute(sql: "INSERT INTO grdb_migrations VALUES ('sources'), ('entries')")
                try db.execute(sql: "INSERT INTO sources (id, has_entries) VALUES ('news', 1)")
                try db.execute(
                    sql: "INSERT INTO entries (source, identity, position, title, json) VALUES ('news', 'urn:1', 0, 'Old', ?)",
                    arguments: [#"{"authors":[],"categories":[],"enclosures":[],"id":"urn:1","title":"Old"}"#])
            }
            try queue.close()
            let store = try SQLiteStore(path: file)
            defer { try? store.close() }
            try await store.follow(["news"])
            let entry = try #require(try await store.storedEntry(source: "news", key: StableHash.hex("urn:1"), user: .owner))
            #expect(entry.entry.title == "Old" && !entry.isRead)
            #expect(try await store.unreadCounts(user: .owner) == ["news": 1])
        }
    }

    @Test func readStateFromBeforeMarksAndAccountsIsTheOwners() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("old.sqlite")
            // The release before read marks and accounts: read and star state in `entries`,
            // the one user's name and folder in `subscriptions`.
            let queue = try DatabaseQueue(path: file.path)
            try Migrations.migrator.migrate(queue, upTo: "reading")
            try await queue.write { db in
                try db.execute(sql: "INSERT INTO sources (id, has_entries) VALUES ('news', 1)")
                try db.execute(
                    sql: """
                        INSERT INTO subscriptions (id, url, title, folder, interval_seconds, built_in, added_at)
                        VALUES ('news', 'https://news.example/feed.xml', 'My news', 'Daily', 300, 0, 0)
                        """)
                for number in 1...4 {
                    try db.execute(
                        sql: """
                            INSERT INTO entries (source, identity, key, position, title, json, read, starred, sort_date)
                            VALUES ('news', ?, ?, ?, ?, ?, ?, ?, ?)
                            """,
                        arguments: [
                            "urn:\(number)", StableHash.hex("urn:\(number)"), number, "Entry \(number)",
                            #"{"authors":[],"categories":[],"enclosures":[],"id":"urn:\#(number)","title":"Entry \#(number)"}"#,
                            number % 2 == 1, number == 2, number,
                        ])
                }
            }
            try queue.close()
            let store = try SQLiteStore(path: file)
            defer { try? store.close() }
            #expect(try await store.unreadCounts(user: .owner) == ["news": 2])
            let unread = try await store.readingList(EntryFilter(unreadOnly: true), user: .owner).compactMap(\.entry.id)
            #expect(Set(unread) == ["urn:2", "urn:4"])
            #expect(try await store.starredCount(user: .owner) == 1)
            let subscription = try #require(try await store.subscriptions(user: .owner).first)
            #expect(subscription.displayName == "My news" && subscription.folder == "Daily")
            // Nobody else sees any of it.
            #expect(try await store.readingList(EntryFilter(), user: UserID(2)).isEmpty)
            #expect(try await store.unreadCounts(user: UserID(2)).isEmpty)
        }
    }

    /// The account-wide notification queue of the release before per-device windows: each
    /// entry queued there is queued for each of its user's devices.
    @Test func queuedNotificationsFromBeforeDeviceQueuesGoToEachDevice() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("old.sqlite")
            let queue = try DatabaseQueue(path: file.path)
            try Migrations.migrator.migrate(queue, upTo: "webhooks")
            try await queue.write { db in
                try db.execute(sql: "INSERT INTO sources (id, has_entries) VALUES ('news', 1)")
                try db.execute(
                    sql: """
                        INSERT INTO entries (source, identity, key, position, title, json, sort_date)
                        VALUES ('news', 'urn:1', 'k1', 0, 'Storm', '{"authors":[],"categories":[],"enclosures":[],"id":"urn:1"}', 0)
                        """)
                for (user, endpoint) in [(1, "https://push.example/a"), (1, "https://push.example/b"), (2, "https://push.example/c")] {
                    try db.execute(
                        sql: """
                            INSERT INTO push_devices (user_id, endpoint, p256dh, auth, name, created_at)
                            VALUES (?, ?, 'k', 'a', 'Device', 0)
                            """,
                        arguments: [user, endpoint])
                }
                try db.execute(sql: "INSERT INTO push_outbox (user_id, entry_id, queued_at) SELECT 1, id, 5 FROM entries")
            }
            try queue.close()
            let store = try SQLiteStore(path: file)
            defer { try? store.close() }
            let devices = try await store.pushDevices(user: .owner).map(\.id)
            let pending = try await store.pendingPushes(limit: 10)
            #expect(pending.map(\.device).sorted() == devices && devices.count == 2)
            #expect(pending.allSatisfy { $0.queuedAt == Date(timeIntervalSince1970: 5) })
        }
    }

    private static func oldSchema(_ table: String) -> String? {
        switch table {
        case "sources":
            """
            CREATE TABLE sources (id TEXT PRIMARY KEY NOT NULL, etag TEXT, last_modified TEXT, last_success REAL,
                last_failure REAL, last_error TEXT, last_error_json TEXT, failures INTEGER NOT NULL DEFAULT 0,
                has_entries INTEGER NOT NULL DEFAULT 0) STRICT
            """
        case "entries":
            """
            CREATE TABLE entries (id INTEGER PRIMARY KEY, source TEXT NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
                identity TEXT NOT NULL, position INTEGER NOT NULL, title TEXT, link TEXT, published REAL,
                summary_text TEXT, json TEXT NOT NULL, UNIQUE (source, identity)) STRICT
            """
        default: nil
        }
    }
}
