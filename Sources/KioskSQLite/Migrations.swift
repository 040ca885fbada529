import GRDB
import KioskStore

/// The schema's history, in order. GRDB records the steps applied in `grdb_migrations`, so
/// opening a database runs only the steps it has not seen (and none when it is current).
enum Migrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("sources") { db in try db.execute(sql: Schema.sources) }
        migrator.registerMigration("entries") { db in try db.execute(sql: Schema.entries) }
        migrator.registerMigration("entries_fts") { db in try db.execute(sql: Schema.entriesFTS) }
        migrator.registerMigration("app_state") { db in try db.execute(sql: Schema.appState) }
        migrator.registerMigration("images") { db in try db.execute(sql: Schema.images) }
        migrator.registerMigration("subscriptions") { db in try db.execute(sql: Schema.subscriptions) }
        migrator.registerMigration("reading") { db in
            try db.execute(sql: Schema.reading)
            try EntryRows.backfillReadingColumns(in: db)
        }
        // The image cache's index was written and never read: the cache knows its own files.
        migrator.registerMigration("drop_images") { db in try db.execute(sql: "DROP TABLE images") }
        // Marking 100,000 entries read rewrote 100,000 rows; counting unread read every entry.
        migrator.registerMigration("read_marks") { db in try db.execute(sql: Schema.readMarks) }
        // Several users, each with their own feeds and read state; a feed fetched once for all.
        migrator.registerMigration("accounts") { db in try db.execute(sql: Schema.accounts) }
        // Validators are sent only with the request they answered (url, kind, headers): a source
        // redefined while Kiosk was stopped would otherwise get a 304 for the old reading.
        migrator.registerMigration("validators_request") { db in
            try db.execute(sql: "ALTER TABLE sources ADD COLUMN validators_request TEXT")
        }
        // Reader view: an entry's page read once, kept with it, searchable, removed with it.
        migrator.registerMigration("articles") { db in try db.execute(sql: Schema.articles) }
        // "Show full articles", each follower's own setting for a feed.
        migrator.registerMigration("full_articles") { db in
            try db.execute(sql: "ALTER TABLE user_feeds ADD COLUMN full_articles INTEGER NOT NULL DEFAULT 0")
        }
        // Replicas (and restarts) fetch each article once: a claim while a page is being read.
        migrator.registerMigration("article_claims") { db in try db.execute(sql: Schema.articleClaims) }
        // Sync validators change with every change of a user's subscriptions, even one undone.
        migrator.registerMigration("list_versions") { db in
            try db.execute(sql: "CREATE TABLE list_versions (user_id INTEGER PRIMARY KEY, version INTEGER NOT NULL)")
        }
        // Failed sign-ins in the database: a restart (or another process) no longer forgets them.
        migrator.registerMigration("sign_in_failures") { db in try db.execute(sql: Schema.signInFailures) }
        // OPML imports an hour and Discover's calls, counted where a restart no longer clears them.
        migrator.registerMigration("allowance_uses") { db in try db.execute(sql: Schema.allowanceUses) }
        // Saved searches: reading lists of their own, in the query language of rules.
        migrator.registerMigration("saved_searches") { db in try db.execute(sql: Schema.savedSearches) }
        // Rules: each new entry judged on arrival, in the transaction that stores it.
        migrator.registerMigration("rules") { db in try db.execute(sql: Schema.rules) }
        // Labels: on entries by hand or by rules, each a reading list with a count.
        migrator.registerMigration("labels") { db in try db.execute(sql: Schema.labels) }
        // Hidden entries: a rule's hide, out of every list but Hidden.
        migrator.registerMigration("hidden") { db in try db.execute(sql: Schema.hidden) }
        // Web Push: the devices each user is notified on.
        migrator.registerMigration("push_devices") { db in try db.execute(sql: Schema.pushDevices) }
        // Webhooks: a second channel, kept beside the devices (`kind`), sent the same digests.
        migrator.registerMigration("webhooks") { db in try db.execute(sql: Schema.webhooks) }
        // A notification queue per device, so each device has its own digest window.
        migrator.registerMigration("push_queue") { db in try db.execute(sql: Schema.pushQueue) }
        // Podcasts: where each user stopped in an episode, on every device.
        migrator.registerMigration("playback_positions") { db in try db.execute(sql: Schema.playbackPositions) }
        // Episodes' transcripts, for search.
        migrator.registerMigration("transcripts") { db in try db.execute(sql: Schema.transcripts) }
        // "Load media through Kiosk", per account.
        migrator.registerMigration("media_through_kiosk") { db in try db.execute(sql: Schema.mediaThroughKiosk) }
        return migrator
    }
}
