import Foundation
import KioskCore
import KioskModel
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

    public func claim(_ feed: PolledSource, holdsState: Bool) async -> CheckClaim {
        let id = feed.id
        let host = Self.host(of: feed.url)
        do {
            // First without any lock: most claims are of a feed not due, and end here.
            var due = try await remaining(id)
            if due == nil {
                // A feed no replica has seen yet: its row, due now.
                try await client.query(
                    "INSERT INTO feed_leases (feed, host) VALUES (\(id.rawValue), \(host)) ON CONFLICT (feed) DO NOTHING",
                    logger: logger)
                due = try await remaining(id)
            }
            guard let remaining = due else { return .notBefore(Self.retryAfterFailure) }
            if remaining > 0 { return .notBefore(Self.wait(remaining)) }
            // The News sources (checked every few seconds, a handful of configured feeds) are
            // never held back by a host's other feeds.
            let capped = feed.interval >= .seconds(60)
            switch try await take(id, host: host, capped: capped) {
            case .taken(let lastChecker):
                // This replica checked it last and still holds it: that is what is stored.
                if lastChecker == owner, holdsState { return .granted(nil) }
                do {
                    return .granted(try await loadState(id))
                } catch {
                    logger.warning("cannot read a leased feed's state", metadata: ["source": "\(id)", "error": "\(error)"])
                    return .granted(nil)
                }
            case .notDue(let seconds):
                // Another replica took it a moment ago.
                return .notBefore(Self.wait(seconds))
            case .hostBusy:
                // As many checks of its host are running as one Kiosk would run: wait a little,
                // each replica its own while, so they do not ask again together.
                return .notBefore(.milliseconds(Int64.random(in: 500...2_000)))
            }
        } catch {
            logger.warning("cannot claim a feed", metadata: ["source": "\(id)", "error": "\(String(reflecting: error))"])
            return .notBefore(Self.retryAfterFailure)
        }
    }

    /// How long until a wait of `seconds` is over, at least 200 ms (a feed that reads as due
    /// while another replica takes it is asked about again shortly).
    private static func wait(_ seconds: Double) -> Duration {
        .milliseconds(Int64(min(max(0.2, seconds), 7 * 86_400) * 1000))
    }

    /// Seconds until the feed may be checked (due and free), 0 or less when it may now; nil when
    /// it has no row yet.
    private func remaining(_ id: SourceID) async throws -> Double? {
        let rows = try await client.query(
            """
            SELECT GREATEST(next_due, COALESCE(lease_until, 0)) - extract(epoch FROM clock_timestamp())::float8
            FROM feed_leases WHERE feed = \(id.rawValue)
            """, logger: logger)
        for try await seconds in rows.decode(Double.self) { return seconds }
        return nil
    }

    private enum Take {
        case taken(lastChecker: String?)
        case notDue(Double)
        case hostBusy
    }

    /// Takes the feed if it is still due and free and its host has a free slot. For a capped
    /// feed the host's advisory lock (held to the end of the transaction) makes its claims take
    /// turns, so the count of its leases is exact; a second statement sees what the turn before
    /// committed. An uncapped feed (News, every few seconds) never queues for that lock: behind a
    /// thousand feeds of one host on a busy machine, its turn came a minute late.
    private func take(_ id: SourceID, host: String, capped: Bool) async throws -> Take {
        let feed = id.rawValue
        return try await client.withTransaction(logger: logger) { connection in
            if capped {
                try await connection.query("SELECT pg_advisory_xact_lock(\(Self.hostLockClass), hashtext(\(host)))", logger: logger)
            }
            let rows = try await connection.query(
                """
                WITH now AS (SELECT extract(epoch FROM clock_timestamp())::float8 AS t),
                busy AS (
                    SELECT \(capped) AND count(*) >= \(Int64(perHost)) AS is_full FROM feed_leases AS held, now
                    WHERE held.host = \(host) AND held.owner IS NOT NULL AND held.lease_until > now.t
                ),
                candidate AS (
                    SELECT feed FROM feed_leases, now
                    WHERE feed = \(feed) AND next_due <= now.t AND (lease_until IS NULL OR lease_until <= now.t)
                        AND NOT (SELECT is_full FROM busy)
                    FOR UPDATE OF feed_leases SKIP LOCKED
                ),
                taken AS (
                    UPDATE feed_leases SET owner = \(owner), host = \(host),
                        lease_until = (SELECT t FROM now) + \(leaseDuration / .seconds(1))
                    FROM candidate WHERE feed_leases.feed = candidate.feed
                    RETURNING feed_leases.feed
                )
                SELECT EXISTS (SELECT 1 FROM taken), (SELECT is_full FROM busy),
                    GREATEST(next_due, COALESCE(lease_until, 0)) - (SELECT t FROM now), checked_by
                FROM feed_leases WHERE feed = \(feed)
                """, logger: logger)
            for try await (won, full, remaining, lastChecker) in rows.decode((Bool, Bool, Double, String?).self) {
                if won { return .taken(lastChecker: lastChecker) }
                return full ? .hostBusy : .notDue(remaining)
            }
            return .notDue(0)
        }
    }

    /// The first key of the per-host advisory locks ("KIOS").
    public static let hostLockClass: Int32 = 0x4B49_4F53

    /// Where politeness is counted: the host and port a feed is fetched from.
    static func host(of url: URL) -> String {
        guard let host = url.host?.lowercased() else { return "" }
        return url.port.map { "\(host):\($0)" } ?? host
    }

    public func finished(_ id: SourceID, nextIn wait: Duration) async {
        do {
            try await client.query(
                """
                UPDATE feed_leases SET next_due = extract(epoch FROM clock_timestamp()) + \(wait / .seconds(1)),
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
