import Logging
import KioskSources
import ServiceLifecycle

/// Logs every engine event to the terminal: changes and failures at info, checks at debug.
struct EventLogger: Service {
    let hub: EventHub
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            for await update in await hub.subscribe() {
                switch update {
                case .resync(let snapshot):
                    logger.info("state", metadata: ["sources": "\(snapshot.entries.count)", "sequence": "\(snapshot.sequence)"])
                case .event(let event):
                    log(event)
                }
            }
        }
    }

    private func log(_ event: EngineEvent) {
        let source: Logger.MetadataValue = "\(event.source)"
        switch event.kind {
        case .checking: logger.debug("checking", metadata: ["source": source])
        case .idle: logger.debug("idle", metadata: ["source": source])
        case .changed(_, let entries, _):
            logger.info(
                "changed",
                metadata: ["source": source, "entries": "\(entries.count)", "first": "\(entries.first?.title ?? "")"])
        case .failed(_, let error):
            logger.warning("failed", metadata: ["source": source, "error": "\(error)"])
        }
    }
}
