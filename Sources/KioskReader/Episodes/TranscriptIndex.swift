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
/// feed runs at start (episodes stored before this ran) and when the hub asks for a resync.
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

    /// Passes until the service group shuts down: then the one in flight is cancelled.
    public func run() async throws {
        await cancelWhenGracefulShutdown {
            let updates = await hub?.subscribe(bufferSize: 1_024, name: Self.hubName)
            await index(of: nil)
            guard let updates else { return }
            for await update in updates {
                switch update {
                case .event(let event):
                    guard case .changed(let id, _, _) = event.kind else { continue }
                    await index(of: id)
                case .resync:
                    await index(of: nil)
                }
            }
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
            var claimed: [TranscriptWanted] = []
            for item in wanted {
                do {
                    if try await store.claimTranscript(entry: item.entry, now: now(), retryBefore: retryBefore) {
                        claimed.append(item)
                    }
                } catch {
                    logger.warning("cannot claim a transcript", metadata: ["entry": "\(item.entry)", "error": "\(error)"])
                }
            }
            await withTaskGroup(of: Void.self) { group in
                for (number, item) in claimed.enumerated() {
                    if number >= concurrency { await group.next() }
                    group.addTask { await keep(item) }
                }
            }
            read += claimed.count
            // A short page is the last; a page nobody could claim (another replica's) too.
            if wanted.count < perPass || claimed.isEmpty { return read }
        }
        return read
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
        do {
            try await store.saveTranscript(StoredTranscript(outcome, fetchedAt: now()), entry: item.entry)
        } catch {
            logger.warning("cannot keep a transcript", metadata: ["entry": "\(item.entry)", "error": "\(error)"])
        }
    }
}
