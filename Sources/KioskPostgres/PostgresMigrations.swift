import Logging
import PostgresNIO

/// The schema's history, in order, recorded in `schema_migrations` (one row per step applied), so
/// a migration runs only the steps a database has not seen, each in its own transaction.
enum PostgresMigrations {
    /// One named step: its statements run in one transaction with the row that records it.
    struct Step: Sendable {
        var name: String
        var statements: [String]
    }

    static let steps: [Step] = [
        Step(name: "sources", statements: PostgresSchema.sources),
        Step(name: "subscriptions", statements: PostgresSchema.subscriptions),
        Step(name: "app_state", statements: PostgresSchema.appState),
        // Several users, each with their own feeds and read state; a feed fetched once for all.
        Step(name: "accounts", statements: PostgresSchema.accounts),
        Step(name: "entries_by_source_id", statements: PostgresSchema.entriesBySourceID),
        Step(name: "entries_by_received", statements: PostgresSchema.entriesByReceived),
        // Validators are sent only with the request they answered (url, kind, headers): a source
        // redefined while Kiosk was stopped would otherwise get a 304 for the old reading.
        Step(name: "validators_request", statements: ["ALTER TABLE sources ADD COLUMN validators_request text"]),
        // Reader view: an entry's page read once, kept with it, searchable, removed with it.
        Step(name: "articles", statements: PostgresSchema.articles),
        // "Show full articles", each follower's own setting for a feed.
        Step(name: "full_articles", statements: ["ALTER TABLE user_feeds ADD COLUMN full_articles boolean NOT NULL DEFAULT false"]),
        // Replicas fetch each article once: a claim while a page is being read.
        Step(name: "article_claims", statements: PostgresSchema.articleClaims),
        // Sync validators change with every change of a user's subscriptions, even one undone.
        Step(name: "list_versions", statements: ["CREATE TABLE list_versions (user_id bigint PRIMARY KEY, version bigint NOT NULL)"]),
        // Failed sign-ins counted in the database: N replicas, or a restart, no longer multiply them.
        Step(name: "sign_in_failures", statements: PostgresSchema.signInFailures),
        // OPML imports an hour and Discover's calls, counted across replicas and restarts.
        Step(name: "allowance_uses", statements: PostgresSchema.allowanceUses),
        // Saved searches: reading lists of their own, in the query language of rules.
        Step(name: "saved_searches", statements: PostgresSchema.savedSearches),
        // Rules: each new entry judged on arrival, in the transaction that stores it.
        Step(name: "rules", statements: PostgresSchema.rules),
        // Labels: on entries by hand or by rules, each a reading list with a count.
        Step(name: "labels", statements: PostgresSchema.labels),
        // Hidden entries: a rule's hide, out of every list but Hidden.
        Step(name: "hidden", statements: PostgresSchema.hidden),
        // Web Push: the devices each user is notified on.
        Step(name: "push_devices", statements: PostgresSchema.pushDevices),
        // Webhooks: a second channel, kept beside the devices (`kind`), sent the same digests.
        Step(name: "webhooks", statements: PostgresSchema.webhooks),
        // A notification queue per device, so each device has its own digest window.
        Step(name: "push_queue", statements: PostgresSchema.pushQueue),
        // Podcasts: where each user stopped in an episode, on every device.
        Step(name: "playback_positions", statements: PostgresSchema.playbackPositions),
        Step(name: "transcripts", statements: PostgresSchema.transcripts),
        // "Load media through Kiosk", per account.
        Step(name: "media_through_kiosk", statements: PostgresSchema.mediaThroughKiosk),
    ]

    /// The advisory lock every migration holds: replicas starting together migrate one at a
    /// time. Its second half is the schema's name, so databases in other schemas of the same
    /// server (the tests' own) never wait for each other.
    static let lockClass: Int32 = 0x4B_696F  // "Kio"

    /// Applies the steps `session`'s database lacks, under the advisory lock (taken on this one
    /// connection, released before returning, or with the connection if it dies).
    static func migrate(_ session: PostgresSession) async throws {
        try await session.execute("SELECT pg_advisory_lock(\(lockClass), hashtext(current_schema()))")
        do {
            try await applyMissing(session)
        } catch {
            try? await session.execute("SELECT pg_advisory_unlock(\(lockClass), hashtext(current_schema()))")
            throw error
        }
        try await session.execute("SELECT pg_advisory_unlock(\(lockClass), hashtext(current_schema()))")
    }

    private static func applyMissing(_ session: PostgresSession) async throws {
        try await session.execute("CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY)")
        let applied = Set(try await session.rows("SELECT name FROM schema_migrations") { try $0.get("name", as: String.self) })
        for step in steps where !applied.contains(step.name) {
            session.logger.info("migrating", metadata: ["step": "\(step.name)"])
            try await session.connection.withTransaction(logger: session.logger) { connection in
                let inner = PostgresSession(connection: connection, logger: session.logger)
                for statement in step.statements {
                    try await inner.execute(PostgresQuery(unsafeSQL: statement))
                }
                try await inner.execute("INSERT INTO schema_migrations (name) VALUES (\(step.name))")
            }
        }
    }

    /// Whether every step has been applied (the copier refuses a database that is behind).
    static func isComplete(_ session: PostgresSession) async throws -> Bool {
        let exists = try await session.value("SELECT to_regclass('schema_migrations') IS NOT NULL", as: Bool.self) ?? false
        guard exists else { return false }
        let applied = Set(try await session.rows("SELECT name FROM schema_migrations") { try $0.get("name", as: String.self) })
        return steps.allSatisfy { applied.contains($0.name) }
    }
}
