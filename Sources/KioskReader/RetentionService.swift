import Foundation
import KioskStore
import Logging
import ServiceLifecycle

/// Prunes what the reader no longer keeps (see `RetentionPolicy`) at start and every hour, so
/// the database stays bounded over weeks of running.
public struct RetentionService: Service {
    private let store: any ReadingStore
    private let policy: RetentionPolicy
    private let every: Duration
    private let logger: Logger

    public init(store: any ReadingStore, policy: RetentionPolicy, every: Duration = .seconds(3_600), logger: Logger) {
        self.store = store
        self.policy = policy
        self.every = every
        self.logger = logger
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    let removed = try await store.prune(policy, now: Date())
                    if removed > 0 { logger.info("retention pruned old entries", metadata: ["count": "\(removed)"]) }
                } catch {
                    logger.warning("retention could not prune", metadata: ["error": "\(error)"])
                }
                do {
                    try await Task.sleep(for: every)
                } catch {
                    return
                }
            }
        }
    }
}
