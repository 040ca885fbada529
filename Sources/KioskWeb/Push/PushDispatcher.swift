import Foundation
import KioskModel
import KioskReader
import KioskStore
import Logging
import ServiceLifecycle

/// Sends what rules asked to notify of. The store queues each entry for each of the user's
/// devices with its insert (so on a cluster it is queued once); every few seconds this sends the
/// queue of each device whose digest window has passed: at most one notification per `every`
/// per device (counted from that device's last), the rest summed up in the next: "7 new entries:
/// Business (4), Ada's blog (3)". A sender first claims the device's window in the store (a
/// compare-and-set of its last notification time), so two replicas never both notify one device
/// within a window, nor split a burst in two. A slow or dead push service delays only its own
/// device's send, never polling, pages or the other devices.
struct PushDispatcher: Service {
    let notifier: PushNotifier
    let store: any KioskStore
    let reader: Reader
    /// The digest's window (`notifyEveryMinutes`).
    var every: Duration = .seconds(300)
    var pollEvery: Duration = .seconds(5)
    var now: @Sendable () -> Date = { Date() }
    var logger = Logger(label: "kiosk.push")
    /// Devices whose send failed lately, left out until their backoff passes.
    var backoff = PushBackoff()
    /// Accounts sent to at once (each account's devices at once within it): one slow account's
    /// services delay no other account.
    var accountsAtOnce = 4
    /// The most entries one notification covers; the rest wait for the next window.
    var entriesPerNotification = 1_000
    /// Due devices read at a time; a pass reads up to ten such batches.
    var devicesPerRead = 500
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

    /// One pass over the devices with something queued; returns the notifications sent.
    @discardableResult
    func dispatch() async -> Int {
        var sent = 0
        // Devices waiting out a failure, and those this pass has seen, are left out of the next
        // read, so a busy one never hides the others behind it.
        var seen = await backoff.waiting(at: now())
        let window = TimeInterval(every.components.seconds)
        for _ in 0..<10 {
            let due: [PushDevice]
            do {
                due = try await store.duePushDevices(sentBefore: now().addingTimeInterval(-window), excluding: seen, limit: devicesPerRead)
            } catch {
                logger.warning("the notification queue cannot be read", metadata: ["error": "\(error)"])
                return sent
            }
            if due.isEmpty { break }
            seen.formUnion(due.map(\.id))
            let accounts = Dictionary(grouping: due, by: \.user).sorted { $0.key.rawValue < $1.key.rawValue }
            // A few accounts at a time, each in its own task.
            sent += await withTaskGroup(of: Int.self) { group in
                var total = 0
                var next = accounts.makeIterator()
                func start() -> Bool {
                    guard let (user, devices) = next.next() else { return false }
                    group.addTask { await dispatch(devices, for: user) }
                    return true
                }
                for _ in 0..<max(1, accountsAtOnce) where !start() { break }
                while let count = await group.next() {
                    total += count
                    _ = start()
                }
                return total
            }
            if due.count < devicesPerRead { break }
        }
        return sent
    }

    /// Sends each of `user`'s due `devices` its queue, each in its own task; returns how many
    /// were delivered.
    private func dispatch(_ devices: [PushDevice], for user: UserID) async -> Int {
        let names: [SourceID: String]
        do {
            names = Dictionary(
                try await reader.subscriptions(user: user).map { ($0.id, $0.displayName) }, uniquingKeysWith: { first, _ in first })
        } catch {
            logger.warning("notifications could not be sent", metadata: ["error": "\(error)"])
            return 0
        }
        return await withTaskGroup(of: Bool.self) { group in
            for device in devices {
                group.addTask { await send(queueOf: device, names: names) }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
    }

    /// Claims `device`'s window, takes its queue and sends it as one notification; true when it
    /// was delivered. Nothing delivered gives the window back; a send that may succeed later
    /// also queues the entries again, and the device waits out a backoff.
    private func send(queueOf device: PushDevice, names: [SourceID: String]) async -> Bool {
        let claimed = now()
        do {
            // Another replica claimed it first (or it was just removed): that one sends.
            guard try await store.movePushWindow(device.id, from: device.lastSentAt, to: claimed) else { return false }
        } catch {
            logger.warning("a device's notifications could not be claimed", metadata: ["error": "\(error)"])
            return false
        }
        let taken: [Int64]
        let entries: [StoredEntry]
        do {
            taken = try await store.takePendingPushes(device: device.id, limit: entriesPerNotification)
            entries = taken.isEmpty ? [] : try await store.storedEntries(ids: taken, user: device.user)
        } catch {
            logger.warning("notifications could not be read", metadata: ["error": "\(error)"])
            await giveBack(device, claimed: claimed)
            return false
        }
        guard !entries.isEmpty else {
            await giveBack(device, claimed: claimed)
            return false
        }
        let message = Self.message(for: entries, names: names, image: imagePath)
        let items = entries.map { Self.webhookEntry($0, names: names) }
        switch await notifier.send(message, to: device, entries: items) {
        case .delivered:
            await backoff.succeeded(device.id)
            return true
        case .removed:
            return false
        case .failed(_, let retryAfter?):
            // Busy or unreachable: queued again, after a backoff.
            do {
                try await store.queuePushes(device: device.id, ids: taken, now: now())
            } catch {
                logger.warning("notifications to send again were lost", metadata: ["error": "\(error)", "count": "\(taken.count)"])
            }
            await backoff.failed(device.id, retryAfter: retryAfter, at: now())
            await giveBack(device, claimed: claimed)
            return false
        case .failed(_, nil), .refused:
            // Final (the device's page says why): not sent in a loop.
            await giveBack(device, claimed: claimed)
            return false
        }
    }

    /// Only a delivered notification counts against the window: the claim is undone.
    private func giveBack(_ device: PushDevice, claimed: Date) async {
        _ = try? await store.movePushWindow(device.id, from: claimed, to: device.lastSentAt)
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

/// Devices whose send failed lately, each with when to try again: 30 s after the first failure,
/// doubling to an hour, or its service's `Retry-After` when longer. Kept per replica: on a
/// cluster another replica may try a little sooner, never in a loop.
actor PushBackoff {
    private var until: [Int64: (date: Date, failures: Int)] = [:]

    func waiting(at now: Date) -> Set<Int64> {
        Set(until.filter { $0.value.date > now }.keys)
    }

    func failed(_ device: Int64, retryAfter: Duration, at now: Date) {
        let failures = (until[device]?.failures ?? 0) + 1
        let backoff = min(3_600, 30 * pow(2, Double(min(failures - 1, 7))))
        let wait = max(backoff, Double(retryAfter.components.seconds))
        until[device] = (now.addingTimeInterval(min(wait, 3_600)), failures)
    }

    func succeeded(_ device: Int64) {
        until[device] = nil
    }
}
