import Foundation
import KioskCore
import KioskModel
import KioskSQLite
import KioskSources
import KioskStore
import Testing

/// Accounts, app passwords and sessions: the promises of `AccountStore`, against SQLite and the
/// in-memory double alike.
@Suite struct AccountStoreTests {
    private static let anHourOn = Date().addingTimeInterval(3_600)

    private func session(_ user: UserID, _ kind: StoredSession.Kind = .web, appPassword: Int64? = nil, expiresAt: Date? = nil)
        -> StoredSession
    {
        StoredSession(
            user: user, kind: kind, csrf: "csrf-\(user.rawValue)-\(UUID().uuidString)", appPassword: appPassword,
            expiresAt: expiresAt ?? Date().addingTimeInterval(3_600))
    }

    private func feed(_ name: String, builtIn: Bool = false) throws -> Subscription {
        let url = try #require(URL(string: "https://\(name).example/feed.xml"))
        return Subscription(id: SourceID(name), url: url, feedTitle: "Feed \(name)", isBuiltIn: builtIn)
    }

    private func entryIDs(_ store: any KioskStore, _ source: SourceID, user: UserID) async throws -> [Int64] {
        try await store.readingList(EntryFilter(sources: [source], limit: 100), user: user).map(\.id).sorted()
    }

    // MARK: - Accounts

    @Test(arguments: StoreKind.allCases)
    func anAccountIsAddedAndFoundByNameInAnyCase(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            #expect(try await store.accountCount() == 0)
            #expect(try await store.accounts().isEmpty)
            let ada = try await store.addAccount(name: "Ada", passwordHash: "hash-ada", isAdmin: true)
            #expect(ada.name == "Ada")
            #expect(ada.isAdmin)
            #expect(ada.homeName == nil)
            // The first account is the local owner (and inherits what the owner had).
            #expect(ada.id == .owner)
            #expect(try await store.accountCount() == 1)

            for spelling in ["Ada", "ada", "ADA", "aDa"] {
                let found = try #require(try await store.credentials(name: spelling), "\(spelling)")
                #expect(found.account.id == ada.id)
                #expect(found.account.name == "Ada", "the name as it was given, whatever the spelling asked")
                #expect(found.passwordHash == "hash-ada")
            }
            #expect(try await store.credentials(name: "Ad") == nil)
            #expect(try await store.credentials(name: "Ada ") == nil)
            #expect(try await store.credentials(name: "") == nil)

            let bob = try await store.addAccount(name: "bob", passwordHash: "hash-bob", isAdmin: false)
            #expect(bob.id != ada.id)
            #expect(!bob.isAdmin)
            #expect(try await store.accountCount() == 2)
            #expect(try await store.accounts().map(\.name) == ["Ada", "bob"])
            #expect(try await store.account(bob.id)?.name == "bob")
            #expect(try await store.account(UserID(999)) == nil)
            #expect(try await store.credentials(name: "BOB")?.passwordHash == "hash-bob")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aNameTakenInAnyCaseIsAConflict(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            _ = try await store.addAccount(name: "Ada", passwordHash: "first", isAdmin: false)
            for clash in ["Ada", "ada", "ADA"] {
                await #expect {
                    try await store.addAccount(name: clash, passwordHash: "second", isAdmin: true)
                } throws: { error in
                    guard case StoreError.conflict = error else { return false }
                    return true
                }
            }
            #expect(try await store.accountCount() == 1)
            #expect(try await store.credentials(name: "ada")?.passwordHash == "first", "the first account is untouched")
        }
    }

    /// Names may hold any letters (`Accounts.validName`), so "any case" holds beyond ASCII.
    @Test(arguments: StoreKind.allCases)
    func caseIsIgnoredBeyondASCIIToo(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let emile = try await store.addAccount(name: "Émile", passwordHash: "hash", isAdmin: false)
            #expect(try await store.credentials(name: "émile")?.account.id == emile.id)
            #expect(try await store.credentials(name: "ÉMILE")?.account.id == emile.id)
            // The same letters, written decomposed (E + combining acute), as some keyboards send them.
            #expect(try await store.credentials(name: "E\u{301}mile")?.account.id == emile.id)
            await #expect {
                try await store.addAccount(name: "émile", passwordHash: "other", isAdmin: false)
            } throws: { error in
                guard case StoreError.conflict = error else { return false }
                return true
            }
            #expect(try await store.accountCount() == 1)
            // A name that only looks alike is another name.
            _ = try await store.addAccount(name: "Emile", passwordHash: "third", isAdmin: false)
            #expect(try await store.credentials(name: "emile")?.passwordHash == "third")
            #expect(try await store.credentials(name: "émile")?.passwordHash == "hash")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func theHomeNameIsSetAndCleared(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let ada = try await store.addAccount(name: "ada", passwordHash: "h", isAdmin: false)
            let bob = try await store.addAccount(name: "bob", passwordHash: "h", isAdmin: false)
            try await store.setHomeName("Ada Lovelace", user: ada.id)
            #expect(try await store.account(ada.id)?.homeName == "Ada Lovelace")
            #expect(try await store.credentials(name: "ada")?.account.homeName == "Ada Lovelace")
            #expect(try await store.account(bob.id)?.homeName == nil)
            try await store.setHomeName(nil, user: ada.id)
            #expect(try await store.account(ada.id)?.homeName == nil)
        }
    }

    /// "Load media through Kiosk": the account's own choice, or nil for the server's, read
    /// with the account wherever it is read (the session's one read included).
    @Test(arguments: StoreKind.allCases)
    func whereMediaLoadsFromIsEachAccountsOwnChoice(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let ada = try await store.addAccount(name: "ada", passwordHash: "h", isAdmin: false)
            let bob = try await store.addAccount(name: "bob", passwordHash: "h", isAdmin: false)
            #expect(try await store.account(ada.id)?.mediaThroughKiosk == nil)
            try await store.setMediaThroughKiosk(true, user: ada.id)
            try await store.setMediaThroughKiosk(false, user: bob.id)
            #expect(try await store.account(ada.id)?.mediaThroughKiosk == true)
            #expect(try await store.credentials(name: "bob")?.account.mediaThroughKiosk == false)
            try await store.saveSession(tokenHash: "ada-web", session(ada.id))
            #expect(try await store.sessionAccount(tokenHash: "ada-web")?.account.mediaThroughKiosk == true)
            try await store.setMediaThroughKiosk(nil, user: ada.id)
            #expect(try await store.accounts().first { $0.id == ada.id }?.mediaThroughKiosk == nil)
        }
    }

    // MARK: - Passwords and sessions

    @Test(arguments: StoreKind.allCases)
    func aNewPasswordEndsWebSessionsButNotAppPasswordOnes(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let ada = try await store.addAccount(name: "ada", passwordHash: "old", isAdmin: false)
            let bob = try await store.addAccount(name: "bob", passwordHash: "bob", isAdmin: false)
            let phone = try await store.addAppPassword(name: "iPhone", secretHash: "phone-hash", user: ada.id)
            let web = session(ada.id, .web)
            let apiWithPassword = session(ada.id, .api)
            let apiWithAppPassword = session(ada.id, .api, appPassword: phone.id)
            let bobs = session(bob.id, .web)
            try await store.saveSession(tokenHash: "web", web)
            try await store.saveSession(tokenHash: "api-password", apiWithPassword)
            try await store.saveSession(tokenHash: "api-app", apiWithAppPassword)
            try await store.saveSession(tokenHash: "bob-web", bobs)

            try await store.setPasswordHash("new", user: ada.id)

            #expect(try await store.credentials(name: "ada")?.passwordHash == "new")
            #expect(try await store.session(tokenHash: "web") == nil, "a web sign-in made with the old password ends")
            #expect(try await store.session(tokenHash: "api-password") == nil, "so does a token got with the old password")
            #expect(try await store.session(tokenHash: "api-app")?.appPassword == phone.id, "an app password's session stays")
            #expect(try await store.session(tokenHash: "bob-web")?.user == bob.id, "another user's session stays")
            #expect(try await store.credentials(name: "bob")?.passwordHash == "bob")
            #expect(try await store.appPasswords(user: ada.id).map(\.id) == [phone.id], "app passwords stay")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aSessionIsSavedFoundAndRemoved(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let ada = try await store.addAccount(name: "ada", passwordHash: "h", isAdmin: false)
            let phone = try await store.addAppPassword(name: "iPhone", secretHash: "phone", user: ada.id)
            let expires = Date().addingTimeInterval(24 * 3_600)
            let web = StoredSession(user: ada.id, kind: .web, csrf: "the-csrf", expiresAt: expires)
            let api = StoredSession(user: ada.id, kind: .api, csrf: "api-csrf", appPassword: phone.id, expiresAt: expires)
            try await store.saveSession(tokenHash: "web-hash", web)
            try await store.saveSession(tokenHash: "api-hash", api)

            let found = try #require(try await store.session(tokenHash: "web-hash"))
            #expect(found.user == ada.id)
            #expect(found.kind == .web)
            #expect(found.csrf == "the-csrf")
            #expect(found.appPassword == nil)
            #expect(nearlyEqual(found.expiresAt, expires))
            let foundAPI = try #require(try await store.session(tokenHash: "api-hash"))
            #expect(foundAPI.kind == .api)
            #expect(foundAPI.appPassword == phone.id)
            #expect(foundAPI.csrf == "api-csrf")
            // With its account, in one read (what every signed-in request asks).
            let both = try #require(try await store.sessionAccount(tokenHash: "api-hash"))
            #expect(both.session == foundAPI && both.account.id == ada.id && both.account.name == "ada")
            #expect(try await store.sessionAccount(tokenHash: "nothing") == nil)

            #expect(try await store.session(tokenHash: "WEB-HASH") == nil, "hashes are matched exactly")
            #expect(try await store.session(tokenHash: "nothing") == nil)

            try await store.removeSession(tokenHash: "web-hash")
            #expect(try await store.session(tokenHash: "web-hash") == nil)
            #expect(try await store.session(tokenHash: "api-hash") != nil, "only that session ends")
            // Removing what is not there is no error.
            try await store.removeSession(tokenHash: "web-hash")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func anExpiredSessionIsNotFound(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let ada = try await store.addAccount(name: "ada", passwordHash: "h", isAdmin: false)
            try await store.saveSession(tokenHash: "old", session(ada.id, expiresAt: Date().addingTimeInterval(-60)))
            try await store.saveSession(tokenHash: "current", session(ada.id, expiresAt: Self.anHourOn))
            #expect(try await store.session(tokenHash: "old") == nil)
            #expect(try await store.session(tokenHash: "current") != nil)
            // A session saved after the expired one does not bring it back.
            try await store.saveSession(tokenHash: "later", session(ada.id))
            #expect(try await store.session(tokenHash: "old") == nil)
            #expect(try await store.session(tokenHash: "current") != nil)
        }
    }

    // MARK: - App passwords

    @Test(arguments: StoreKind.allCases)
    func appPasswordsAreListedUsedAndRemovedByTheirOwnUserOnly(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let ada = try await store.addAccount(name: "ada", passwordHash: "h", isAdmin: false)
            let bob = try await store.addAccount(name: "bob", passwordHash: "h", isAdmin: false)
            #expect(try await store.appPasswords(user: ada.id).isEmpty)

            let phone = try await store.addAppPassword(name: "iPhone", secretHash: "phone-hash", user: ada.id)
            let laptop = try await store.addAppPassword(name: "Laptop", secretHash: "laptop-hash", user: ada.id)
            let bobs = try await store.addAppPassword(name: "Bob's", secretHash: "bob-hash", user: bob.id)
            #expect(phone.user == ada.id)
            #expect(phone.name == "iPhone")
            #expect(phone.lastUsedAt == nil)
            #expect(phone.id != laptop.id)
            #expect(try await store.appPasswords(user: ada.id).map(\.name) == ["iPhone", "Laptop"])
            #expect(try await store.appPasswords(user: ada.id).allSatisfy { $0.lastUsedAt == nil })
            #expect(try await store.appPasswords(user: bob.id).map(\.id) == [bobs.id])

            // Using one marks it used, now.
            let before = Date().addingTimeInterval(-1)
            // Named with another account, it is not that account's, and is not marked used.
            #expect(try await store.useAppPassword(secretHash: "phone-hash", user: bob.id) == nil)
            #expect(try await store.appPasswords(user: ada.id).allSatisfy { $0.lastUsedAt == nil })
            let used = try #require(try await store.useAppPassword(secretHash: "phone-hash", user: ada.id))
            #expect(used.id == phone.id)
            #expect(used.user == ada.id)
            let usedAt = try #require(used.lastUsedAt)
            #expect(usedAt >= before && usedAt <= Date().addingTimeInterval(1))
            let listed = try await store.appPasswords(user: ada.id)
            #expect(listed.first { $0.id == phone.id }?.lastUsedAt.map { nearlyEqual($0, usedAt) } == true)
            #expect(listed.first { $0.id == laptop.id }?.lastUsedAt == nil, "only the one used")
            #expect(try await store.useAppPassword(secretHash: "no-such-hash", user: ada.id) == nil)

            // Sessions opened with it, with another, and with the account password.
            try await store.saveSession(tokenHash: "with-phone", session(ada.id, .api, appPassword: phone.id))
            try await store.saveSession(tokenHash: "with-laptop", session(ada.id, .api, appPassword: laptop.id))
            try await store.saveSession(tokenHash: "web", session(ada.id, .web))
            try await store.saveSession(tokenHash: "bob-with-his", session(bob.id, .api, appPassword: bobs.id))

            // Another user cannot remove it.
            #expect(try await store.removeAppPassword(phone.id, user: bob.id) == false)
            #expect(try await store.appPasswords(user: ada.id).count == 2)
            #expect(try await store.session(tokenHash: "with-phone") != nil)
            #expect(try await store.useAppPassword(secretHash: "phone-hash", user: ada.id) != nil)

            // Its own user can, and the sessions opened with it end with it.
            #expect(try await store.removeAppPassword(phone.id, user: ada.id))
            #expect(try await store.appPasswords(user: ada.id).map(\.id) == [laptop.id])
            #expect(try await store.useAppPassword(secretHash: "phone-hash", user: ada.id) == nil)
            #expect(try await store.session(tokenHash: "with-phone") == nil)
            #expect(try await store.session(tokenHash: "with-laptop") != nil)
            #expect(try await store.session(tokenHash: "web") != nil)
            #expect(try await store.session(tokenHash: "bob-with-his") != nil)
            #expect(try await store.appPasswords(user: bob.id).map(\.id) == [bobs.id])

            // Twice is nothing.
            #expect(try await store.removeAppPassword(phone.id, user: ada.id) == false)
            #expect(try await store.removeAppPassword(9_999, user: ada.id) == false)
        }
    }

    // MARK: - Removing an account

    @Test(arguments: StoreKind.allCases)
    func removingAnAccountRemovesEverythingOfItAndNothingElse(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let ada = try await store.addAccount(name: "ada", passwordHash: "h", isAdmin: true)
            let bob = try await store.addAccount(name: "bob", passwordHash: "h", isAdmin: false)
            let onlyAda = try feed("only-ada")
            let shared = try feed("shared")
            let news = try feed("news", builtIn: true)
            try await store.saveSubscriptions([onlyAda, shared, news], user: ada.id)
            try await store.saveSubscriptions([shared], user: bob.id)
            for source in [onlyAda.id, shared.id, news.id] {
                try await store.saveSourceState(
                    SourceState(entries: Fixtures.entries(["\(source.rawValue)-1", "\(source.rawValue)-2"])), for: source)
            }
            let adaShared = try await entryIDs(store, shared.id, user: ada.id)
            let adaOwn = try await entryIDs(store, onlyAda.id, user: ada.id)
            #expect(adaShared.count == 2)
            #expect(adaOwn.count == 2)

            // Ada reads and stars in every feed; Bob reads one shared entry and stars the other.
            _ = try await store.setRead(true, ids: adaShared + adaOwn, user: ada.id)
            _ = try await store.setStarred(true, ids: adaShared + adaOwn, user: ada.id)
            _ = try await store.setRead(true, ids: [adaShared[0]], user: bob.id)
            _ = try await store.setStarred(true, ids: [adaShared[1]], user: bob.id)
            let adaPhone = try await store.addAppPassword(name: "iPhone", secretHash: "ada-phone", user: ada.id)
            let bobPhone = try await store.addAppPassword(name: "Pixel", secretHash: "bob-phone", user: bob.id)
            try await store.saveSession(tokenHash: "ada-web", session(ada.id))
            try await store.saveSession(tokenHash: "ada-api", session(ada.id, .api, appPassword: adaPhone.id))
            try await store.saveSession(tokenHash: "bob-web", session(bob.id))
            try await store.saveSession(tokenHash: "bob-api", session(bob.id, .api, appPassword: bobPhone.id))
            let opened = Date(timeIntervalSince1970: 1_750_000_000)
            try await store.setLastOpened(OpenedHeadline(title: "Ada's", path: "/a", openedAt: opened), user: ada.id)
            try await store.setLastOpened(OpenedHeadline(title: "Bob's", path: "/b", openedAt: opened), user: bob.id)
            let bobCountsBefore = try await store.unreadCounts(user: bob.id)
            let bobStarredBefore = try await store.starredCount(user: bob.id)

            let forgotten = try await store.removeAccount(ada.id)

            // The feed only Ada followed is forgotten, entries and all; the shared one and the
            // built-in one stay.
            #expect(forgotten == [onlyAda.id])
            let feeds = try await store.feeds().map(\.id)
            #expect(!feeds.contains(onlyAda.id))
            #expect(feeds.contains(shared.id))
            #expect(feeds.contains(news.id), "a built-in feed stays though nobody follows it")
            #expect(try await store.entries(for: onlyAda.id).isEmpty)
            #expect(try await store.entries(for: shared.id).count == 2)

            // Nothing of Ada's is left.
            #expect(try await store.account(ada.id) == nil)
            #expect(try await store.credentials(name: "ada") == nil)
            #expect(try await store.accountCount() == 1)
            #expect(try await store.accounts().map(\.id) == [bob.id])
            #expect(try await store.subscriptions(user: ada.id).isEmpty)
            #expect(try await store.unreadCounts(user: ada.id).isEmpty)
            #expect(try await store.starredCount(user: ada.id) == 0)
            #expect(try await store.readingList(EntryFilter(limit: 100), user: ada.id).isEmpty)
            #expect(try await store.session(tokenHash: "ada-web") == nil)
            #expect(try await store.session(tokenHash: "ada-api") == nil)
            #expect(try await store.appPasswords(user: ada.id).isEmpty)
            #expect(try await store.useAppPassword(secretHash: "ada-phone", user: ada.id) == nil)
            #expect(try await store.lastOpened(user: ada.id) == nil)

            // Bob's is untouched.
            #expect(try await store.subscriptions(user: bob.id).map(\.id) == [shared.id])
            #expect(try await store.unreadCounts(user: bob.id) == bobCountsBefore)
            #expect(try await store.unreadCounts(user: bob.id)[shared.id] == 1)
            #expect(try await store.starredCount(user: bob.id) == bobStarredBefore)
            #expect(bobStarredBefore == 1)
            let bobsView = try await store.readingList(EntryFilter(sources: [shared.id], limit: 100), user: bob.id)
            #expect(bobsView.first { $0.id == adaShared[0] }?.isRead == true)
            #expect(bobsView.first { $0.id == adaShared[0] }?.isStarred == false)
            #expect(bobsView.first { $0.id == adaShared[1] }?.isRead == false)
            #expect(bobsView.first { $0.id == adaShared[1] }?.isStarred == true)
            #expect(try await store.session(tokenHash: "bob-web")?.user == bob.id)
            #expect(try await store.session(tokenHash: "bob-api")?.appPassword == bobPhone.id)
            #expect(try await store.appPasswords(user: bob.id).map(\.id) == [bobPhone.id])
            #expect(try await store.lastOpened(user: bob.id)?.title == "Bob's")

            // A new account does not inherit anything of Ada's, even under her name.
            let again = try await store.addAccount(name: "ada", passwordHash: "h2", isAdmin: false)
            #expect(again.id != ada.id)
            #expect(try await store.subscriptions(user: again.id).isEmpty)
            #expect(try await store.lastOpened(user: again.id) == nil)
            #expect(try await store.appPasswords(user: again.id).isEmpty)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func removingAnAccountThatFollowsNothingReturnsNothing(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let ada = try await store.addAccount(name: "ada", passwordHash: "h", isAdmin: false)
            #expect(try await store.removeAccount(ada.id).isEmpty)
            #expect(try await store.accountCount() == 0)
            #expect(try await store.removeAccount(ada.id).isEmpty, "removing again is nothing")
        }
    }

    /// The sign-in throttle's failures: counted per account and address, per address, per
    /// account (any case); a success clears only its pair; old ones are forgotten.
    @Test(arguments: StoreKind.allCases)
    func signInFailuresAreCountedClearedAndForgotten(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let start = Date(timeIntervalSince1970: 1_000_000)
            func at(_ seconds: Double) -> Date { start.addingTimeInterval(seconds) }
            try await store.recordSignInFailure(account: "Ada", address: "203.0.113.7", at: at(0), forgetBefore: at(-900))
            try await store.recordSignInFailure(account: "ada", address: "203.0.113.7", at: at(10), forgetBefore: at(-890))
            try await store.recordSignInFailure(account: "bob", address: "203.0.113.7", at: at(20), forgetBefore: at(-880))
            try await store.recordSignInFailure(account: "ada", address: "198.51.100.1", at: at(30), forgetBefore: at(-870))
            #expect(
                try await store.signInFailures(account: "ADA", address: "203.0.113.7", since: at(-1))
                    == SignInFailures(pair: 2, pairOldest: at(0), address: 3, addressOldest: at(0), account: 3))
            // Since a later time, the older ones do not count.
            #expect(
                try await store.signInFailures(account: "ada", address: "203.0.113.7", since: at(5))
                    == SignInFailures(pair: 1, pairOldest: at(10), address: 2, addressOldest: at(10), account: 2))
            // Ada signs in from there: the pair starts again, the address and the account do not.
            try await store.clearSignInFailures(account: "ADA", address: "203.0.113.7")
            #expect(
                try await store.signInFailures(account: "ada", address: "203.0.113.7", since: at(-1))
                    == SignInFailures(pair: 0, pairOldest: nil, address: 3, addressOldest: at(0), account: 3))
            // A failure much later forgets those before its window.
            try await store.recordSignInFailure(account: "ada", address: "203.0.113.7", at: at(2_000), forgetBefore: at(1_100))
            #expect(
                try await store.signInFailures(account: "ada", address: "203.0.113.7", since: at(-1))
                    == SignInFailures(pair: 1, pairOldest: at(2_000), address: 1, addressOldest: at(2_000), account: 1))
        }
    }

    /// Allowances (OPML imports an hour, Discover's calls) are counted in the store: `limit` uses
    /// a window, the oldest said when refused, forgotten a window later, per account and per
    /// allowance; kept across a reopen; and concurrent asks never let more than `limit` through.
    @Test(arguments: StoreKind.allCases)
    func allowancesAreCountedInTheStore(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let start = Date(timeIntervalSince1970: 1_000_000)
            func at(_ seconds: Double) -> Date { start.addingTimeInterval(seconds) }
            let hour = Duration.seconds(3_600)
            for second in [0.0, 10, 20] {
                #expect(try await store.spend("opml-import", account: "7", limit: 3, window: hour, now: at(second)) == nil)
            }
            #expect(try await store.spend("opml-import", account: "7", limit: 3, window: hour, now: at(30)) == at(0))
            // A refusal is not counted: still the same oldest.
            #expect(try await store.spend("opml-import", account: "7", limit: 3, window: hour, now: at(40)) == at(0))
            // Another account, another allowance: counted apart.
            #expect(try await store.spend("opml-import", account: "8", limit: 3, window: hour, now: at(40)) == nil)
            #expect(try await store.spend("discover-call", account: "7", limit: 3, window: hour, now: at(40)) == nil)
            // A window after the first use, one is free again.
            #expect(try await store.spend("opml-import", account: "7", limit: 3, window: hour, now: at(3_600)) == nil)
            #expect(try await store.spend("opml-import", account: "7", limit: 3, window: hour, now: at(3_601)) == at(10))

            // Twenty asks at once (as twenty replicas would): exactly five pass.
            let passed = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<20 {
                    group.addTask { try await store.spend("race", account: "7", limit: 5, window: hour, now: at(100)) == nil }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(passed == 5)
        }
    }

    @Test func allowancesOutliveARestart() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("kiosk.sqlite")
            let now = Date(timeIntervalSince1970: 1_000_000)
            do {
                let store = try SQLiteStore(path: path)
                #expect(try await store.spend("opml-import", account: "7", limit: 1, window: .seconds(3_600), now: now) == nil)
                try store.close()
            }
            let reopened = try SQLiteStore(path: path)
            defer { try? reopened.close() }
            #expect(
                try await reopened.spend("opml-import", account: "7", limit: 1, window: .seconds(3_600), now: now.addingTimeInterval(60))
                    == now)
        }
    }
}
