import Foundation
import KioskCore
import KioskModel
import KioskPostgres
import KioskSQLite
import KioskSources
import KioskStore
import KioskTesting
import PostgresNIO
import Testing

/// Copying a SQLite database into PostgreSQL: afterwards both stores answer every question alike.
@Suite struct SQLiteToPostgresTests {
    private let ada = UserID(1)
    private let bob = UserID(2)

    private func withSQLiteFile<T>(_ body: (URL) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("kiosk-copy-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try await body(directory.appendingPathComponent("kiosk.sqlite"))
    }

    private func feed(_ name: String, folder: String? = nil, title: String? = nil, builtIn: Bool = false) throws
        -> Subscription
    {
        let url = try #require(URL(string: "https://\(name).example/feed.xml"))
        return Subscription(
            id: SourceID(name), url: url, title: title, feedTitle: "Feed \(name)", siteURL: "https://\(name).example/",
            folder: folder, interval: .seconds(600), isBuiltIn: builtIn,
            addedAt: Date(timeIntervalSince1970: 1_700_000_000.125))
    }

    private func entries(_ prefix: String, _ range: ClosedRange<Int>) -> [Entry] {
        range.map { number in
            Entry(
                id: "urn:\(prefix):\(number)", title: "\(prefix) headline \(number) résumé",
                link: "https://\(prefix).example/\(number)",
                published: Date(timeIntervalSince1970: 1_700_000_000.5 + Double(number) * 61.25),
                summary: "<p>Story <b>\(number)</b> of \(prefix)</p>")
        }
    }

    /// A SQLite store with some of everything, filled through the protocol.
    private func fill(_ store: SQLiteStore) async throws -> [String: Int64] {
        let adaAccount = try await store.addAccount(name: "Ada", passwordHash: "bcrypt-ada", isAdmin: true)
        let bobAccount = try await store.addAccount(name: "bob", passwordHash: "bcrypt-bob", isAdmin: false)
        #expect(adaAccount.id == ada && bobAccount.id == bob)
        try await store.setHomeName("Ada Lovelace", user: ada)
        try await store.saveFeeds([try feed("news", builtIn: true)])
        try await store.saveSubscriptions(
            [try feed("tech", folder: "Work"), try feed("shared", title: "Ada's name")], user: ada)
        try await store.saveSubscriptions([try feed("shared", folder: "Mine"), try feed("bobs")], user: bob)
        // A rule that acts on arrival (its day's count is copied too), and a paused one.
        _ = try await store.addRule(
            RuleDraft(
                name: "Second", query: "\"headline 2\"", scope: .feed("bobs"), actions: [.star, .markRead], label: "Rule’s"),
            user: bob,
            now: Date(timeIntervalSince1970: 1_760_000_003))
        _ = try await store.addRule(
            RuleDraft(name: "Paused «x»", query: "x", scope: .folder("Mine"), actions: [.markRead], isPaused: true), user: bob,
            now: Date(timeIntervalSince1970: 1_760_000_004))
        try await store.saveSourceState(
            SourceState(
                entries: entries("tech", 1...7), validators: Validators(etag: "\"t1\""), failures: 1,
                lastError: .fetch(.status(code: 503, message: "busy", retryAfter: .seconds(9))),
                lastSuccess: Date(timeIntervalSince1970: 1_750_000_000.75),
                lastFailure: Date(timeIntervalSince1970: 1_750_000_100.25)),
            for: "tech")
        try await store.saveSourceState(SourceState(entries: entries("shared", 1...5)), for: "shared")
        try await store.saveSourceState(SourceState(entries: entries("bobs", 1...3)), for: "bobs")
        try await store.saveSourceState(SourceState(entries: entries("news", 1...2)), for: "news")
        try await store.saveSourceState(SourceState(validators: Validators(lastModified: "never")), for: "fresh")
        // Entries that left their feed, still kept for the reader.
        try await store.saveSourceState(SourceState(entries: entries("tech", 3...9)), for: "tech")

        let tech = try await store.readingList(EntryFilter(sources: ["tech"], limit: 100), user: ada).map(\.id)
        let shared = try await store.readingList(EntryFilter(sources: ["shared"], limit: 100), user: ada).map(\.id)
        _ = try await store.setRead(true, ids: Array(tech.prefix(2)), user: ada)
        _ = try await store.setStarred(true, ids: [tech[3], shared[0]], user: ada)
        _ = try await store.markAllRead(sources: ["shared"], upTo: shared[2], user: ada)
        _ = try await store.setRead(false, ids: [shared[4]], user: ada)  // kept unread under the mark
        _ = try await store.setStarred(true, ids: [shared[1]], user: bob)
        _ = try await store.setRead(true, ids: [shared[0]], user: bob)

        let phone = try await store.addAppPassword(name: "iPhone", secretHash: "phone-hash", user: ada)
        _ = try await store.addAppPassword(name: "Laptop", secretHash: "laptop-hash", user: bob)
        try await store.setFeverKeyHash("fever-hash", appPassword: phone.id)
        _ = try await store.useAppPassword(secretHash: "phone-hash", user: ada)
        let expires = Date().addingTimeInterval(3_600)
        try await store.saveSession(tokenHash: "ada-web", StoredSession(user: ada, kind: .web, csrf: "c1", expiresAt: expires))
        try await store.saveSession(
            tokenHash: "ada-api", StoredSession(user: ada, kind: .api, csrf: "c2", appPassword: phone.id, expiresAt: expires))
        try await store.saveSession(tokenHash: "bob-web", StoredSession(user: bob, kind: .web, csrf: "c3", expiresAt: expires))
        try await store.setLastOpened(
            OpenedHeadline(title: "Ada's «last»", path: "/a/1", openedAt: Date(timeIntervalSince1970: 1_760_000_000)), user: ada)
        try await store.setLastOpened(
            OpenedHeadline(title: "Bob's", path: "/b/1", openedAt: Date(timeIntervalSince1970: 1_760_000_001)), user: bob)
        _ = try await store.saveSearch(
            name: "Ada's «storms»", query: "intitle:storm -is:read", user: ada, now: Date(timeIntervalSince1970: 1_760_000_002))
        // An episode's transcript, found by search after the copy.
        try await store.saveTranscript(
            StoredTranscript(.text("spoken about a zeppelin"), fetchedAt: Date(timeIntervalSince1970: 1_760_000_005)),
            entry: tech[4])
        return ["phone": phone.id]
    }

    /// Every answer the two stores give about what was filled in.
    private func expectSameAnswers(_ sqlite: SQLiteStore, _ postgres: PostgresStore, phone: Int64) async throws {
        #expect(try await postgres.accounts() == sqlite.accounts())
        #expect(try await postgres.accountCount() == 2)
        #expect(try await postgres.credentials(name: "ADA")?.passwordHash == "bcrypt-ada")
        #expect(try await postgres.account(ada)?.homeName == "Ada Lovelace")
        #expect(try await postgres.feeds() == sqlite.feeds())
        #expect(try await postgres.deviceID() == sqlite.deviceID())
        let sqliteStates = try await sqlite.loadSourceStates()
        #expect(try await postgres.loadSourceStates() == sqliteStates)
        #expect(try await postgres.sourceState(for: "tech") == sqliteStates["tech"])
        #expect(try await postgres.sourceState(for: "fresh") == sqliteStates["fresh"])
        for user in [ada, bob] {
            #expect(try await postgres.subscriptions(user: user) == sqlite.subscriptions(user: user))
            let all = EntryFilter(limit: 1_000)
            #expect(try await postgres.readingList(all, user: user) == sqlite.readingList(all, user: user))
            let unread = EntryFilter(unreadOnly: true, limit: 1_000)
            #expect(try await postgres.readingList(unread, user: user) == sqlite.readingList(unread, user: user))
            let starred = EntryFilter(starredOnly: true, limit: 1_000)
            #expect(try await postgres.readingList(starred, user: user) == sqlite.readingList(starred, user: user))
            #expect(try await postgres.unreadCounts(user: user) == sqlite.unreadCounts(user: user))
            #expect(try await postgres.starredCount(user: user) == sqlite.starredCount(user: user))
            #expect(try await postgres.itemCount(user: user) == sqlite.itemCount(user: user))
            #expect(try await postgres.itemRefs(ItemQuery(), user: user) == sqlite.itemRefs(ItemQuery(), user: user))
            #expect(try await postgres.newestEntryID(sources: nil, user: user) == sqlite.newestEntryID(sources: nil, user: user))
            #expect(try await postgres.appPasswords(user: user) == sqlite.appPasswords(user: user))
            #expect(try await postgres.lastOpened(user: user) == sqlite.lastOpened(user: user))
            #expect(try await postgres.savedSearches(user: user) == sqlite.savedSearches(user: user))
            #expect(try await postgres.rules(user: user) == sqlite.rules(user: user))
            let week = Date().addingTimeInterval(-7 * 86_400)
            #expect(try await postgres.ruleMatches(user: user, since: week) == sqlite.ruleMatches(user: user, since: week))
            #expect(try await sqlite.ruleMatches(user: user, since: week).values.reduce(0, +) == (user == bob ? 1 : 0))
            #expect(try await postgres.labelCounts(user: user) == sqlite.labelCounts(user: user))
            #expect(try await sqlite.labelCounts(user: user).map(\.name) == (user == bob ? ["Rule’s"] : []))
            #expect(
                try await postgres.search("headline resume", limit: 100, user: user).compactMap(\.entry.id).sorted()
                    == sqlite.search("headline resume", limit: 100, user: user).compactMap(\.entry.id).sorted())
        }
        let spoken = try await sqlite.search("zeppelin", limit: 10, user: ada).map(\.id)
        #expect(spoken.count == 1)
        #expect(try await postgres.search("zeppelin", limit: 10, user: ada).map(\.id) == spoken)
        #expect(try await postgres.transcriptTexts(entries: spoken) == sqlite.transcriptTexts(entries: spoken))
        for token in ["ada-web", "ada-api", "bob-web"] {
            #expect(try await postgres.session(tokenHash: token) == sqlite.session(tokenHash: token))
        }
        let fever = try #require(try await postgres.feverCredentials(keyHash: "fever-hash"))
        #expect(fever.account.id == ada && fever.appPassword?.id == phone)
    }

    @Test func everythingCopiedAnswersAsInSQLite() async throws {
        try await withSQLiteFile { path in
            let sqlite = try SQLiteStore(path: path)
            defer { try? sqlite.close() }
            let ids = try await fill(sqlite)
            _ = try await sqlite.deviceID()
            try await TestDatabase.withClients(1) { clients in
                let postgres = PostgresStore(client: clients[0])
                var reported: [String: Int] = [:]
                // Small batches: every table is read in several, composite keys included.
                try await SQLiteToPostgres.copy(from: path, to: postgres, client: clients[0], batchSize: 2) { table, count in
                    reported[table] = count
                }
                #expect(reported["entries"] == 19)
                #expect(reported["users"] == 2)
                #expect(reported["user_feeds"] == 4)
                #expect(reported.keys.contains("entry_states"))
                try await expectSameAnswers(sqlite, postgres, phone: try #require(ids["phone"]))

                // Both go on alike: new rows get ids past the copied ones.
                let newest = try await postgres.newestEntryID(sources: nil, user: ada)
                try await postgres.saveSourceState(SourceState(entries: entries("tech", 3...10)), for: "tech")
                #expect(try await postgres.newestEntryID(sources: ["tech"], user: ada) > newest)
                let carol = try await postgres.addAccount(name: "carol", passwordHash: "h", isAdmin: false)
                #expect(carol.id == UserID(3))
                #expect(try await postgres.addAppPassword(name: "x", secretHash: "x", user: carol.id).id > ids["phone"] ?? 0)
                await #expect(throws: StoreError.self) {
                    try await postgres.addAccount(name: "ADA", passwordHash: "h", isAdmin: false)
                }
            }
        }
    }

    @Test func aDatabaseWithDataIsRefused() async throws {
        try await withSQLiteFile { path in
            let sqlite = try SQLiteStore(path: path)
            _ = try await fill(sqlite)
            try sqlite.close()
            try await TestDatabase.withStore { postgres, client in
                _ = try await postgres.addAccount(name: "already", passwordHash: "h", isAdmin: false)
                await #expect(throws: SQLiteToPostgresError.targetNotEmpty(users: 1, subscriptions: 0, entries: 0)) {
                    try await SQLiteToPostgres.copy(from: path, to: postgres, client: client)
                }
                #expect(try await postgres.accounts().map(\.name) == ["already"], "nothing was copied")
            }
        }
    }

    @Test func aFailedCopyLeavesNothingBehind() async throws {
        try await withSQLiteFile { path in
            let sqlite = try SQLiteStore(path: path)
            _ = try await fill(sqlite)
            _ = try await sqlite.deviceID()
            try sqlite.close()
            try await TestDatabase.withStore { postgres, client in
                // A row PostgreSQL refuses (a key already there) fails the copy after several tables.
                try await client.query("INSERT INTO app_state (key, value) VALUES ('device_id', 'taken')")
                await #expect(throws: (any Error).self) {
                    try await SQLiteToPostgres.copy(from: path, to: postgres, client: client)
                }
                #expect(try await postgres.accountCount() == 0)
                #expect(try await postgres.feeds().isEmpty)
                #expect(try await postgres.loadSourceStates().isEmpty)
            }
        }
    }

    @Test func aFileThatIsNotKiosksIsRefused() async throws {
        try await withSQLiteFile { path in
            try await TestDatabase.withStore { postgres, client in
                await #expect(throws: SQLiteToPostgresError.self) {
                    try await SQLiteToPostgres.copy(from: path, to: postgres, client: client)
                }
                try Data("not a database".utf8).write(to: path)
                await #expect(throws: SQLiteToPostgresError.self) {
                    try await SQLiteToPostgres.copy(from: path, to: postgres, client: client)
                }
            }
        }
    }
}
