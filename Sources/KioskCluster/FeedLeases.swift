import Foundation
import KioskCore
import KioskSources
import Logging
import PostgresNIO

// Each feed has a row: when its next check is due and who holds it now. A replica's claim takes
// the row only if the check is due and nobody holds an unexpired lease, skipping a row another
// replica is claiming at that instant (FOR UPDATE SKIP LOCKED): exactly one replica wins, and
// nobody waits on anybody's lock. Time is the database's clock, the same for every replica.

/// Feed leases on PostgreSQL: each feed checked by one replica per interval.
public struct FeedLeases: CheckCoordinator {
    private let client: PostgresClient
    /// This replica's name in the `owner` column.
    private let owner: String
    /// How long a claim holds a feed; a replica that dies loses its feeds after this.
    private let leaseDuration: Duration
    /// The state another replica stored, read when a claim is granted.
    private let loadState: @Sendable (SourceID) async throws -> SourceState?
    private let logger: Logger

    public init(
        client: PostgresClient, owner: String, leaseDuration: Duration = .seconds(30),
        loadState: @escaping @Sendable (SourceID) async throws -> SourceState?, logger: Logger
    ) {
        self.client = client
        self.owner = owner
        self.leaseDuration = leaseDuration
        self.loadState = loadState
        self.logger = logger
    }

    /// When the database cannot be asked: try again after this (the pages keep what they have).
    static let retryAfterFailure: Duration = .seconds(2)

    public func claim(_ id: SourceID, interval: Duration) async -> CheckClaim {
        do {
            var answer = try await tryClaim(id)
            if answer == nil {
                // A feed no replica has seen yet: its row, due now.
                try await client.query(
                    "INSERT INTO feed_leases (feed) VALUES (\(id.rawValue)) ON CONFLICT (feed) DO NOTHING", logger: logger)
                answer = try await tryClaim(id)
            }
            guard let (won, remaining, lastChecker) = answer else { return .notBefore(Self.retryAfterFailure) }
            guard won else {
                // A row another replica was claiming at that instant reads as due: ask again soon.
                return .notBefore(.milliseconds(Int64(max(0.2, remaining) * 1000)))
            }
            // This replica checked it last: what it holds is what is stored.
            if lastChecker == owner { return .granted(nil) }
            do {
                return .granted(try await loadState(id))
            } catch {
                logger.warning("cannot read a leased feed's state", metadata: ["source": "\(id)", "error": "\(error)"])
                return .granted(nil)
            }
        } catch {
            logger.warning("cannot claim a feed", metadata: ["source": "\(id)", "error": "\(String(reflecting: error))"])
            return .notBefore(Self.retryAfterFailure)
        }
    }

    /// One round trip: takes the feed if it is due and free; else says for how long it is not.
    /// Nil when the feed has no row yet. (The outer query reads the row as it was before the
    /// update, which is what a replica that lost needs.)
    private func tryClaim(_ id: SourceID) async throws -> (won: Bool, remaining: Double, lastChecker: String?)? {
        let feed = id.rawValue
        let rows = try await client.query(
            """
            WITH now AS (SELECT extract(epoch FROM clock_timestamp())::float8 AS t),
            candidate AS (
                SELECT feed FROM feed_leases, now
                WHERE feed = \(feed) AND next_due <= now.t AND (lease_until IS NULL OR lease_until <= now.t)
                FOR UPDATE OF feed_leases SKIP LOCKED
            ),
            taken AS (
                UPDATE feed_leases SET owner = \(owner), lease_until = (SELECT t FROM now) + \(leaseDuration.seconds)
                FROM candidate WHERE feed_leases.feed = candidate.feed
                RETURNING feed_leases.feed
            )
            SELECT EXISTS (SELECT 1 FROM taken),
                GREATEST(next_due, COALESCE(lease_until, 0)) - (SELECT t FROM now), checked_by
            FROM feed_leases WHERE feed = \(feed)
            """, logger: logger)
        for try await (won, remaining, lastChecker) in rows.decode((Bool, Double, String?).self) {
            return (won, remaining, lastChecker)
        }
        return nil
    }

    public func finished(_ id: SourceID, nextIn wait: Duration) async {
        do {
            try await client.query(
                """
                UPDATE feed_leases SET next_due = extract(epoch FROM clock_timestamp()) + \(wait.seconds),
                    owner = NULL, lease_until = NULL, checks = checks + 1, checked_by = owner,
                    last_checked = extract(epoch FROM clock_timestamp())
                WHERE feed = \(id.rawValue) AND owner = \(owner)
                """, logger: logger)
        } catch {
            // The lease expires on its own; the next claim finds the feed due.
            logger.warning("cannot release a feed", metadata: ["source": "\(id)", "error": "\(error)"])
        }
    }
}
