import Foundation
import KioskModel
import KioskReader
import KioskStore
import Logging
import ServiceLifecycle

/// Sends what rules asked to notify of. The store queues each entry with its insert (so on a
/// cluster it is queued once, and taken once by whichever replica claims it); every few seconds
/// this sends each account's queue, at most one notification per `every` per account (counted
/// from its devices' last), the rest summed up in the next: "7 new entries: Business (4), Ada's
/// blog (3)". A slow or dead push service delays only this loop, never polling or pages.
struct PushDispatcher: Service {
    let notifier: PushNotifier
    let store: any KioskStore
    let reader: Reader
    /// The digest's window (`notifyEveryMinutes`).
    var every: Duration = .seconds(300)
    var pollEvery: Duration = .seconds(5)
    var now: @Sendable () -> Date = { Date() }
    var logger = Logger(label: "kiosk.push")
    /// Accounts whose every device failed lately, left out until their backoff passes.
    var backoff = PushBackoff()
    /// Accounts sent to at once: one slow account's services delay no other account.
    var accountsAtOnce = 4
    /// An image's path through this Kiosk's proxy (`ImageSigner`), so the device never asks the
    /// image's own host.
    var imagePath: @Sendable (String?) -> String? = { _ in nil }

    func run() async {
        // A stop ends the pause between passes: that is the end of the service, not an error
        // (thrown, it made `kiosk` exit with status 1 and "Error: CancellationError()" on SIGTERM).
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await dispatch()
                do { try await Task.sleep(for: pollEvery) } catch { return }
            }
        }
    }

    /// One pass over the queue; returns the notifications sent (one per account and device).
    @discardableResult
    func dispatch() async -> Int {
        var sent = 0
        // Accounts whose digest waits, or whose services failed lately, are left out of the next
        // read, so a busy one (a thousand entries queued) never hides the others behind it.
        var waiting = await backoff.waiting(at: now())
        for _ in 0..<10 {
            let pending: [PendingPush]
            do {
                pending = try await store.pendingPushes(limit: 1_000, excluding: waiting)
            } catch {
                logger.warning("the notification queue cannot be read", metadata: ["error": "\(error)"])
                return sent
            }
            if pending.isEmpty { break }
            let accounts = Dictionary(grouping: pending, by: \.user).sorted { $0.key.rawValue < $1.key.rawValue }
            // A few accounts at a time, each in its own task.
            let results = await withTaskGroup(of: (UserID, Int?).self) { group in
                var results: [(UserID, Int?)] = []
                var next = accounts.makeIterator()
                func start() -> Bool {
                    guard let (user, items) = next.next() else { return false }
                    group.addTask { (user, await dispatch(items.map(\.entryID), for: user)) }
                    return true
                }
                for _ in 0..<max(1, accountsAtOnce) where !start() { break }
                while let result = await group.next() {
                    results.append(result)
                    _ = start()
                }
                return results
            }
            for (user, count) in results {
                if let count { sent += count } else { waiting.insert(user) }
            }
            if pending.count < 1_000 { break }
        }
        return sent
    }

    /// The notifications sent to `user`'s devices, or nil when their digest waits (or a send
    /// failed everywhere and may succeed later: the entries are queued again, and the account
    /// waits out a backoff).
    private func dispatch(_ ids: [Int64], for user: UserID) async -> Int? {
        do {
            let devices = try await store.pushDevices(user: user)
            if devices.isEmpty {
                _ = try await store.takePendingPushes(user: user, ids: ids)
                return 0
            }
            let window = TimeInterval(every.components.seconds)
            if let last = devices.compactMap(\.lastSentAt).max(), now().timeIntervalSince(last) < window { return nil }
            let taken = try await store.takePendingPushes(user: user, ids: ids)
            guard !taken.isEmpty else { return 0 }
            let entries = try await store.storedEntries(ids: taken, user: user)
            guard !entries.isEmpty else { return 0 }
            let names = Dictionary(
                try await reader.subscriptions(user: user).map { ($0.id, $0.displayName) }, uniquingKeysWith: { first, _ in first })
            let message = Self.message(for: entries, names: names, image: imagePath)
            let items = entries.map { Self.webhookEntry($0, names: names) }
            // Each device on its own: one slow or busy service delays none of the others.
            let outcomes = await withTaskGroup(of: PushOutcome.self) { group in
                for device in devices {
                    group.addTask { await notifier.send(message, to: device, entries: items) }
                }
                return await group.reduce(into: [PushOutcome]()) { $0.append($1) }
            }
            let sent = outcomes.count { $0 == .delivered }
            if sent > 0 {
                await backoff.succeeded(user)
                return sent
            }
            // Nothing delivered: queued again only if trying again may help (a busy or unreachable
            // service), after a backoff; a refusal is final (each device says why on the page).
            let waits = outcomes.compactMap { if case .failed(_, let after?) = $0 { after } else { nil } }
            guard let longest = waits.max() else { return 0 }
            try await store.queuePushes(user: user, ids: taken, now: now())
            await backoff.failed(user, retryAfter: longest, at: now())
            return nil
        } catch {
            logger.warning("notifications could not be sent", metadata: ["error": "\(error)"])
            return 0
        }
    }

    /// An entry as a webhook gets it.
    static func webhookEntry(_ entry: StoredEntry, names: [SourceID: String]) -> WebhookEntry {
        WebhookEntry(
            id: entry.id, title: entry.entry.title ?? "", link: entry.entry.link,
            feed: names[entry.source] ?? entry.source.rawValue,
            author: entry.entry.authors.compactMap(\.name).first, published: entry.entry.published,
            readerURL: ReaderLinks.entry(entry.source, key: entry.key))
    }

    /// One entry: its title, its feed's name, and a tap opens it. More: how many, by feed.
    static func message(
        for entries: [StoredEntry], names: [SourceID: String], image: (String?) -> String? = { _ in nil }
    ) -> PushMessage {
        if entries.count == 1, let entry = entries.first {
            return PushMessage(
                title: entry.entry.title.flatMap { $0.isEmpty ? nil : $0 } ?? "A new entry",
                body: names[entry.source] ?? entry.source.rawValue,
                url: ReaderLinks.entry(entry.source, key: entry.key), tag: "entry-\(entry.id)", entry: entry.id,
                image: image(entry.entry.image))
        }
        var counts: [String: Int] = [:]
        for entry in entries { counts[names[entry.source] ?? entry.source.rawValue, default: 0] += 1 }
        let byFeed = counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { "\($0.key) (\($0.value))" }
        return PushMessage(
            title: "\(entries.count) new entries", body: byFeed.joined(separator: ", "), url: ReaderLinks.home,
            tag: "kiosk-digest")
    }
}

/// Accounts whose every device failed lately, each with when to try again: 30 s after the first
/// failure, doubling to an hour, or the services' `Retry-After` when longer. Kept per replica:
/// on a cluster another replica may try a little sooner, never in a loop.
actor PushBackoff {
    private var until: [UserID: (date: Date, failures: Int)] = [:]

    func waiting(at now: Date) -> Set<UserID> {
        Set(until.filter { $0.value.date > now }.keys)
    }

    func failed(_ user: UserID, retryAfter: Duration, at now: Date) {
        let failures = (until[user]?.failures ?? 0) + 1
        let backoff = min(3_600, 30 * pow(2, Double(min(failures - 1, 7))))
        let wait = max(backoff, Double(retryAfter.components.seconds))
        until[user] = (now.addingTimeInterval(min(wait, 3_600)), failures)
    }

    func succeeded(_ user: UserID) {
        until[user] = nil
    }
}
