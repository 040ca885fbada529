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
    /// Checks in flight at once per host, across every replica (one Kiosk alone keeps as many
    /// connections per host).
    private let perHost: Int
    /// The state another replica stored, read when a claim is granted.
    private let loadState: @Sendable (SourceID) async throws -> SourceState?
    private let logger: Logger

    public init(
        client: PostgresClient, owner: String, leaseDuration: Duration = .seconds(30), perHost: Int = 32,
        loadState: @escaping @Sendable (SourceID) async throws -> SourceState?, logger: Logger
    ) {
        self.client = client
        self.owner = owner
        self.leaseDuration = leaseDuration
        self.perHost = max(1, perHost)
        self.loadState = loadState
        self.logger = logger
    }

    /// When the database cannot be asked: try again after this (the pages keep what they have).
    static let retryAfterFailure: Duration = .seconds(2)

    public func claim(_ feed: PolledSource) async -> CheckClaim {
        let id = feed.id
        let host = Self.host(of: feed.url)
        do {
            var answer = try await tryClaim(id, host: host)
            if answer == nil {
                // A feed no replica has seen yet: its row, due now.
                try await client.query(
                    "INSERT INTO feed_leases (feed, host) VALUES (\(id.rawValue), \(host)) ON CONFLICT (feed) DO NOTHING",
                    logger: logger)
                answer = try await tryClaim(id, host: host)
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
    private func tryClaim(_ id: SourceID, host: String) async throws -> (won: Bool, remaining: Double, lastChecker: String?)? {
        let feed = id.rawValue
        let rows = try await client.query(
            """
            WITH now AS (SELECT extract(epoch FROM clock_timestamp())::float8 AS t),
            candidate AS (
                SELECT feed FROM feed_leases, now
                WHERE feed = \(feed) AND next_due <= now.t AND (lease_until IS NULL OR lease_until <= now.t)
                    AND (SELECT count(*) FROM feed_leases AS held
                         WHERE held.host = \(host) AND held.owner IS NOT NULL AND held.lease_until > now.t) < \(perHost)
                FOR UPDATE OF feed_leases SKIP LOCKED
            ),
            taken AS (
                UPDATE feed_leases SET owner = \(owner), host = \(host),
                    lease_until = (SELECT t FROM now) + \(leaseDuration.seconds)
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

    /// Where politeness is counted: the host and port a feed is fetched from.
    static func host(of url: URL) -> String {
        guard let host = url.host?.lowercased() else { return "" }
        return url.port.map { "\(host):\($0)" } ?? host
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
