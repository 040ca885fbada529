import Foundation
import KioskModel

/// Someone who signs in to this Kiosk.
public struct Account: Sendable, Hashable {
    public var id: UserID
    public var name: String
    public var isAdmin: Bool
    /// The name Home greets; nil: the account's name.
    public var homeName: String?
    public var createdAt: Date
    /// "Load media through Kiosk": episodes play through the media proxy rather than straight
    /// from the publisher; nil: the server's default (`mediaThroughKiosk`).
    public var mediaThroughKiosk: Bool?

    public init(
        id: UserID, name: String, isAdmin: Bool, homeName: String? = nil, createdAt: Date, mediaThroughKiosk: Bool? = nil
    ) {
        self.id = id
        self.name = name
        self.isAdmin = isAdmin
        self.homeName = homeName
        self.createdAt = createdAt
        self.mediaThroughKiosk = mediaThroughKiosk
    }
}

/// A named password for one device, revocable on its own. Only a hash of it is kept.
public struct AppPassword: Sendable, Hashable {
    public var id: Int64
    public var user: UserID
    public var name: String
    public var createdAt: Date
    public var lastUsedAt: Date?

    public init(id: Int64, user: UserID, name: String, createdAt: Date, lastUsedAt: Date? = nil) {
        self.id = id
        self.user = user
        self.name = name
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }
}

/// A web sign-in (cookie) or a sync client's token, as the store keeps it: by hash only.
public struct StoredSession: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        /// The web app's cookie.
        case web
        /// A Google Reader API client's `GoogleLogin auth=` token.
        case api
    }

    public var user: UserID
    public var kind: Kind
    /// The anti-forgery token of this session (forms, script requests, the API's `T`).
    public var csrf: String
    /// The app password the session was opened with; revoking it ends the session.
    public var appPassword: Int64?
    public var expiresAt: Date

    public init(user: UserID, kind: Kind, csrf: String, appPassword: Int64? = nil, expiresAt: Date) {
        self.user = user
        self.kind = kind
        self.csrf = csrf
        self.appPassword = appPassword
        self.expiresAt = expiresAt
    }
}

/// Accounts, their app passwords and sessions. Secrets arrive hashed: the store never sees a
/// password or a token.
public protocol AccountStore: Sendable {
    func accounts() async throws -> [Account]
    func accountCount() async throws -> Int
    func account(_ id: UserID) async throws -> Account?
    /// The account and its password hash, by name (any case).
    func credentials(name: String) async throws -> (account: Account, passwordHash: String)?
    /// A new account; `StoreError.conflict` when the name is taken.
    func addAccount(name: String, passwordHash: String, isAdmin: Bool) async throws -> Account
    func setPasswordHash(_ hash: String, user: UserID) async throws
    func setHomeName(_ name: String?, user: UserID) async throws
    /// The account's "Load media through Kiosk"; nil: the server's default.
    func setMediaThroughKiosk(_ value: Bool?, user: UserID) async throws
    /// Removes the account and everything of it: subscriptions, read and star state, sessions,
    /// app passwords. Returns the feeds nobody follows any more (and were forgotten).
    @discardableResult
    func removeAccount(_ id: UserID) async throws -> [SourceID]

    func addAppPassword(name: String, secretHash: String, user: UserID) async throws -> AppPassword
    func appPasswords(user: UserID) async throws -> [AppPassword]
    /// Revokes an app password of `user` and every session opened with it; false if none.
    @discardableResult
    func removeAppPassword(_ id: Int64, user: UserID) async throws -> Bool
    /// The app password of `user` with this hash, marked used now; nil if none (revoked, or
    /// another account's).
    func useAppPassword(secretHash: String, user: UserID) async throws -> AppPassword?

    /// Remembers the (hashed) Fever API key of an app password.
    func setFeverKeyHash(_ hash: String, appPassword: Int64) async throws
    /// Whose app password's Fever API key hashes to this.
    func feverCredentials(keyHash: String) async throws -> (account: Account, appPassword: AppPassword?)?

    func saveSession(tokenHash: String, _ session: StoredSession) async throws
    /// The session with this token hash, unless expired.
    func session(tokenHash: String) async throws -> StoredSession?
    /// The session with this token hash, unless expired, and its account: what every signed-in
    /// request reads (a store with round trips reads both at once).
    func sessionAccount(tokenHash: String) async throws -> (session: StoredSession, account: Account)?
    func removeSession(tokenHash: String) async throws

    /// Records a failed sign-in as `account` (any case) from `address` at `at`, and forgets the
    /// failures from before `forgetBefore`. Kept in the database, so every replica, and the next
    /// run, counts the same failures.
    func recordSignInFailure(account: String, address: String, at: Date, forgetBefore: Date) async throws
    /// The failures since `since`: as `account` from `address`, from `address` as anyone, and as
    /// `account` from anywhere.
    func signInFailures(account: String, address: String, since: Date) async throws -> SignInFailures
    /// `account` signed in from `address`: its failures from there no longer count against that
    /// pair (they still count for the address and the account as a whole).
    func clearSignInFailures(account: String, address: String) async throws
}

/// Failed sign-ins in a window, as the throttle asks for them.
public struct SignInFailures: Sendable, Hashable {
    /// As one account from one address (not counting those a success since cleared).
    public var pair: Int
    public var pairOldest: Date?
    /// From one address, as any account.
    public var address: Int
    public var addressOldest: Date?
    /// As one account, from anywhere.
    public var account: Int

    public init(pair: Int = 0, pairOldest: Date? = nil, address: Int = 0, addressOldest: Date? = nil, account: Int = 0) {
        self.pair = pair
        self.pairOldest = pairOldest
        self.address = address
        self.addressOldest = addressOldest
        self.account = account
    }
}

extension AccountStore {
    public func sessionAccount(tokenHash: String) async throws -> (session: StoredSession, account: Account)? {
        guard let session = try await session(tokenHash: tokenHash), let account = try await account(session.user) else {
            return nil
        }
        return (session, account)
    }
}
