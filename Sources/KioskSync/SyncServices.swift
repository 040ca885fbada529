import Foundation
import KioskAccounts
import KioskReader
import KioskStore
import Logging

/// What the sync APIs (Google Reader, Fever) work with: who may sign in, the reader every change
/// goes through (so open pages hear of it), the store they read, and the clock for dates they
/// write (tests may fix it). One value, so each API states its needs once.
public struct SyncServices: Sendable {
    let accounts: Accounts
    let reader: Reader
    let store: any ReadingStore & SyncReadingStore & ArticleStore
    let logger: Logger
    let now: @Sendable () -> Date

    public init(
        accounts: Accounts, reader: Reader, store: any ReadingStore & SyncReadingStore & ArticleStore, logger: Logger,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.accounts = accounts
        self.reader = reader
        self.store = store
        self.logger = logger
        self.now = now
    }
}
