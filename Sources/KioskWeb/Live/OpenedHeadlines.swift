import Foundation
import KioskStore
import Logging

/// Each user's last opened headline (Home's), read from the store the first time it is asked
/// for and kept.
actor OpenedHeadlines {
    private let store: any KioskStore
    private let logger: Logger
    private var opened: [UserID: OpenedHeadline?] = [:]

    init(store: any KioskStore, logger: Logger) {
        self.store = store
        self.logger = logger
    }

    /// The headline `user` opened last (nil before the first, or when the store cannot say).
    func last(for user: UserID) async -> OpenedHeadline? {
        if let known = opened[user] { return known }
        do {
            let stored = try await store.lastOpened(user: user)
            // Another call may have recorded one while the store answered.
            if let known = opened[user] { return known }
            opened[user] = .some(stored)
            return stored
        } catch {
            logger.warning("cannot read the last opened headline", metadata: ["error": "\(error)"])
            return nil
        }
    }

    /// What is known of `user`'s without asking the store (for a resync sent to every page).
    func known(for user: UserID) -> OpenedHeadline? {
        opened[user] ?? nil
    }

    /// Remembers `headline` as `user`'s last, here only (another replica stored it).
    func remember(_ headline: OpenedHeadline, user: UserID) {
        opened[user] = .some(headline)
    }

    /// Stores `headline` as `user`'s last (already remembered).
    func save(_ headline: OpenedHeadline, user: UserID) async {
        do {
            try await store.setLastOpened(headline, user: user)
        } catch {
            logger.warning("cannot store the last opened headline", metadata: ["error": "\(error)"])
        }
    }
}
