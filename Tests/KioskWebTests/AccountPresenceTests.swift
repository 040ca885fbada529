import Foundation
import KioskAccounts
import KioskModel
import KioskSQLite
import KioskStore
import KioskTesting
@testable import KioskWeb
import Testing

/// Whether accounts exist decides who Kiosk serves (with none, the local owner on loopback). A
/// database that is away must not open the door: with no answer ever, accounts are taken to
/// exist (fail closed).
@Suite struct AccountPresenceTests {
    /// An account store whose database never answers (a query sent on a half-open connection),
    /// or, `failing`, answers every query with an error.
    struct SilentStore: AccountStore {
        struct Unreachable: Error {}
        var failing = false

        private func silence<T>() async throws -> T {
            try await silence()
            throw CancellationError()
        }
        private func silence() async throws {
            if failing { throw Unreachable() }
            try await Task.sleep(for: .seconds(86_400))
        }
        func accounts() async throws -> [Account] { try await silence() }
        func accountCount() async throws -> Int { try await silence() }
        func account(_ id: UserID) async throws -> Account? { try await silence() }
        func credentials(name: String) async throws -> (account: Account, passwordHash: String)? { try await silence() }
        func addAccount(name: String, passwordHash: String, isAdmin: Bool) async throws -> Account { try await silence() }
        func setPasswordHash(_ hash: String, user: UserID) async throws { try await silence() }
        func setHomeName(_ name: String?, user: UserID) async throws { try await silence() }
        func setMediaThroughKiosk(_ value: Bool?, user: UserID) async throws { try await silence() }
        func removeAccount(_ id: UserID) async throws -> [SourceID] { try await silence() }
        func addAppPassword(name: String, secretHash: String, user: UserID) async throws -> AppPassword { try await silence() }
        func appPasswords(user: UserID) async throws -> [AppPassword] { try await silence() }
        func removeAppPassword(_ id: Int64, user: UserID) async throws -> Bool { try await silence() }
        func useAppPassword(secretHash: String, user: UserID) async throws -> AppPassword? { try await silence() }
        func setFeverKeyHash(_ hash: String, appPassword: Int64) async throws { try await silence() }
        func feverCredentials(keyHash: String) async throws -> (account: Account, appPassword: AppPassword?)? { try await silence() }
        func saveSession(tokenHash: String, _ session: StoredSession) async throws { try await silence() }
        func session(tokenHash: String) async throws -> StoredSession? { try await silence() }
        func removeSession(tokenHash: String) async throws { try await silence() }
        func recordSignInFailure(account: String, address: String, at: Date, forgetBefore: Date) async throws { try await silence() }
        func signInFailures(account: String, address: String, since: Date) async throws -> SignInFailures { try await silence() }
        func clearSignInFailures(account: String, address: String) async throws { try await silence() }
    }

    @Test func aDatabaseThatNeverAnswersMeansAccountsExist() async throws {
        let clock = ManualClock()
        let presence = AccountPresence(
            accounts: Accounts(store: SilentStore(), hasher: .bcrypt()), sleep: { try await clock.sleep(for: $0) })
        let asked = Task { await presence.accountsExist() }
        // The wait for the database has begun: its two seconds pass on the test's clock.
        try #require(await clock.waitForSleepers(atLeast: 1), "the wait for the database never began")
        clock.advance(by: .seconds(2))
        #expect(await asked.value, "no answer opened the door")
    }

    @Test func aDatabaseThatFailsMeansAccountsExist() async throws {
        let presence = AccountPresence(accounts: Accounts(store: SilentStore(failing: true), hasher: .bcrypt()))
        #expect(await presence.accountsExist(), "a failing database opened the door")
    }

    @Test func anAnswerIsBelieved() async throws {
        let store = try SQLiteStore.inMemoryDatabase()
        let accounts = Accounts(store: store, hasher: .bcrypt())
        #expect(await AccountPresence(accounts: accounts).accountsExist() == false)
        _ = try await accounts.add(name: "ann", password: "a long enough password", isAdmin: true)
        #expect(await AccountPresence(accounts: accounts).accountsExist())
    }
}
