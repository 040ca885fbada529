import Foundation
import KioskCore
import KioskModel
import KioskSources
import KioskStore
import Logging
import ServiceLifecycle

/// Episodes' transcripts made searchable: when a followed feed changes (the hub says so), its
/// episodes that list a timed transcript and have none kept are read through ``EpisodeFiles``
/// (the guarded fetcher) and their words kept with the entry, where the Reader's search finds
/// them. Once per episode (a claim row, so replicas read it once), at most `concurrency` at a
/// time; a failure is kept as a sentence and tried again after `retryAfter`. A pass over every
/// feed runs at start (episodes stored before this ran: the hub's first word is a resync) and
/// whenever the hub asks for a resync.
public struct TranscriptIndex: Service {
    private let store: any TranscriptStore
    private let files: EpisodeFiles
    private let hub: EventHub?
    private let now: @Sendable () -> Date
    private let perPass: Int
    private let concurrency: Int
    private let retryAfter: TimeInterval
    private let logger: Logger

    public init(
        store: any TranscriptStore, files: EpisodeFiles, hub: EventHub?, now: @escaping @Sendable () -> Date = { Date() },
        perPass: Int = 20, concurrency: Int = 4, retryAfter: Duration = .seconds(86_400),
        logger: Logger = Logger(label: "kiosk.transcripts")
    ) {
        self.store = store
        self.files = files
        self.hub = hub
        self.now = now
        self.perPass = max(1, perPass)
        self.concurrency = max(1, concurrency)
        self.retryAfter = Double(retryAfter.components.seconds)
        self.logger = logger
    }

    /// What the hub knows this service as (``EventHub/isListening(_:)``).
    public static let hubName = "transcript-index"

    /// Passes until the service group shuts down: then the one in flight is cancelled. The hub
    /// is read apart from the passes (a slow publisher never fills its buffer): a changed feed
    /// whose entries list a transcript waits in `Pending` for the next pass, and the hub's
    /// resync (its first word, and after a reader fell behind) asks for every feed.
    public func run() async throws {
        await cancelWhenGracefulShutdown {
            guard let hub else {
                await index(of: nil)
                return
            }
            let updates = await hub.subscribe(bufferSize: 1_024, name: Self.hubName)
            let pending = Pending()
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await update in updates {
                        switch update {
                        case .event(let event):
                            guard case .changed(let id, let entries, _) = event.kind,
                                entries.contains(where: { !($0.episode?.transcripts ?? []).isEmpty })
                            else { continue }
                            await pending.add(id)
                        case .resync:
                            await pending.addEveryFeed()
                        }
                    }
                }
                group.addTask {
                    for await _ in pending.wakes {
                        switch await pending.take() {
                        case .everyFeed: await index(of: nil)
                        case .feeds(let ids): for id in ids.sorted(by: { $0.rawValue < $1.rawValue }) { await index(of: id) }
                        }
                    }
                }
                await group.next()
                group.cancelAll()
            }
        }
    }

    /// The feeds waiting for a pass, and a wake for the passes (asks made during a pass make one
    /// more pass, not one each).
    actor Pending {
        enum Work: Sendable {
            case everyFeed
            case feeds(Set<SourceID>)
        }

        nonisolated let wakes: AsyncStream<Void>
        private let wake: AsyncStream<Void>.Continuation
        private var everyFeed = false
        private var feeds: Set<SourceID> = []

        init() {
            (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        }

        func add(_ id: SourceID) {
            feeds.insert(id)
            wake.yield()
        }

        func addEveryFeed() {
            everyFeed = true
            wake.yield()
        }

        func take() -> Work {
            defer {
                everyFeed = false
                feeds = []
            }
            return everyFeed ? .everyFeed : .feeds(feeds)
        }
    }

    /// Reads the transcripts wanted of `source` (of every feed when nil), `perPass` at a time
    /// until none is left; returns how many were read (kept or failed).
    @discardableResult
    public func index(of source: SourceID?) async -> Int {
        var read = 0
        while !Task.isCancelled {
            let retryBefore = now().addingTimeInterval(-retryAfter)
            let wanted: [TranscriptWanted]
            do {
                wanted = try await store.entriesWithoutTranscripts(of: source, retryBefore: retryBefore, limit: perPass)
            } catch {
                logger.warning("cannot list the transcripts to read", metadata: ["error": "\(error)"])
                return read
            }
            // Each claimed as its fetch begins: a pass cancelled midway leaves no claim unstarted.
            let claimed = await withTaskGroup(of: Bool.self) { group in
                var claimed = 0
                for (number, item) in wanted.enumerated() {
                    if number >= concurrency, await group.next() == true { claimed += 1 }
                    group.addTask { await claimAndKeep(item, retryBefore: retryBefore) }
                }
                for await won in group where won { claimed += 1 }
                return claimed
            }
            read += claimed
            // A short page is the last; a page nobody could claim (another replica's) too.
            if wanted.count < perPass || claimed == 0 { return read }
        }
        return read
    }

    /// Claims one episode's transcript and keeps it, or why there is none; false when another
    /// claim holds it (or the store could not be asked).
    private func claimAndKeep(_ item: TranscriptWanted, retryBefore: Date) async -> Bool {
        guard !Task.isCancelled else { return false }
        do {
            guard try await store.claimTranscript(entry: item.entry, now: now(), retryBefore: retryBefore) else { return false }
        } catch {
            logger.warning("cannot claim a transcript", metadata: ["entry": "\(item.entry)", "error": "\(error)"])
            return false
        }
        await keep(item)
        return true
    }

    /// Fetches and keeps one episode's transcript, or why there is none.
    private func keep(_ item: TranscriptWanted) async {
        let outcome: StoredTranscript.Outcome
        if let timed = PodcastTranscript.timed(in: item.transcripts) {
            let address = URLResolution.resolve(timed.link.url, against: item.feedURL)
            switch await files.transcript(at: address, format: timed.format, keep: false) {
            case .success(let cues):
                outcome = .text(StoredTranscript.bounded(cues.map(\.text).joined(separator: " ")))
            case .failure(let failure):
                outcome = .failed(failure.message)
            }
        } else {
            outcome = .failed("the transcript is not in a timed format Kiosk reads (WebVTT, SRT or JSON)")
        }
        // Shutting down: a fetch cut short is no failure of the publisher's (the claim stands
        // until its retry).
        guard !Task.isCancelled else { return }
        do {
            try await store.saveTranscript(StoredTranscript(outcome, fetchedAt: now()), entry: item.entry)
        } catch {
            logger.warning("cannot keep a transcript", metadata: ["entry": "\(item.entry)", "error": "\(error)"])
        }
    }
}
