// The SQL of each migration, one constant per named step. A step, once released, is never
// edited: a change to the schema is a new step appended to `Migrations`.

/// The tables Kiosk keeps in SQLite, as created by each migration step.
enum Schema {
    /// One row per polled source: validators for conditional GET and the failure bookkeeping.
    /// `last_error` is the message shown; `last_error_json` rebuilds the exact `SourceError`.
    /// `has_entries` tells "never fetched" (nil entries) from "fetched, empty" ([]).
    /// Dates are Unix seconds (REAL), readable in the sqlite3 shell with `datetime(x, 'unixepoch')`.
    static let sources = """
        CREATE TABLE sources (
            id TEXT PRIMARY KEY NOT NULL,
            etag TEXT,
            last_modified TEXT,
            last_success REAL,
            last_failure REAL,
            last_error TEXT,
            last_error_json TEXT,
            failures INTEGER NOT NULL DEFAULT 0,
            has_entries INTEGER NOT NULL DEFAULT 0
        ) STRICT
        """

    /// A source's entries, one row per identity (`id ?? link ?? title`), in display order.
    /// `json` is the whole `Entry`; the other columns are what queries and the search index read.
    static let entries = """
        CREATE TABLE entries (
            id INTEGER PRIMARY KEY,
            source TEXT NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
            identity TEXT NOT NULL,
            position INTEGER NOT NULL,
            title TEXT,
            link TEXT,
            published REAL,
            summary_text TEXT,
            json TEXT NOT NULL,
            UNIQUE (source, identity)
        ) STRICT;
        CREATE INDEX entries_by_position ON entries (source, position);
        """

    /// Full-text index over titles and the plain text of summaries. External content (the text
    /// lives once, in `entries`), kept in sync by triggers; a row whose only change is its
    /// position is not re-indexed (the update trigger watches the indexed columns only).
    static let entriesFTS = """
        CREATE VIRTUAL TABLE entries_fts USING fts5 (
            title, summary_text,
            content = 'entries', content_rowid = 'id',
            tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
        );
        CREATE TRIGGER entries_fts_insert AFTER INSERT ON entries BEGIN
            INSERT INTO entries_fts (rowid, title, summary_text) VALUES (new.id, new.title, new.summary_text);
        END;
        CREATE TRIGGER entries_fts_delete AFTER DELETE ON entries BEGIN
            INSERT INTO entries_fts (entries_fts, rowid, title, summary_text)
                VALUES ('delete', old.id, old.title, old.summary_text);
        END;
        CREATE TRIGGER entries_fts_update AFTER UPDATE OF title, summary_text ON entries BEGIN
            INSERT INTO entries_fts (entries_fts, rowid, title, summary_text)
                VALUES ('delete', old.id, old.title, old.summary_text);
            INSERT INTO entries_fts (rowid, title, summary_text) VALUES (new.id, new.title, new.summary_text);
        END;
        """

    /// Each entry's article (reader view) or why there is none, removed with its entry; its text
    /// indexed like the entries' (external content, kept in sync by triggers).
    /// Who is fetching an entry's page now, so replicas fetch it once.
    static let articleClaims = """
        CREATE TABLE article_claims (
            entry_id INTEGER PRIMARY KEY REFERENCES entries (id) ON DELETE CASCADE,
            until REAL NOT NULL
        );
        """

    static let articles = """
        CREATE TABLE articles (
            entry_id INTEGER PRIMARY KEY NOT NULL REFERENCES entries (id) ON DELETE CASCADE,
            fetched_at REAL NOT NULL,
            url TEXT,
            json TEXT,
            error TEXT,
            text TEXT NOT NULL DEFAULT ''
        ) STRICT;
        """ + textIndex(of: "articles")

    /// "Load media through Kiosk" per account: 1, 0, or NULL for the server's default.
    static let mediaThroughKiosk = "ALTER TABLE users ADD COLUMN media_through_kiosk INTEGER"

    /// Each episode's transcript as words for search, or why there is none (a row is written
    /// when the fetching begins, so replicas fetch it once), removed with its entry; indexed like
    /// the articles.
    static let transcripts = """
        CREATE TABLE transcripts (
            entry_id INTEGER PRIMARY KEY NOT NULL REFERENCES entries (id) ON DELETE CASCADE,
            fetched_at REAL NOT NULL,
            error TEXT,
            text TEXT NOT NULL DEFAULT ''
        ) STRICT;
        """ + textIndex(of: "transcripts")

    /// The FTS5 index of a `table`'s `text` column, by its `entry_id` (external content, kept
    /// in sync by triggers), tokenized as the entries' index is.
    static func textIndex(of table: String) -> String {
        """
        CREATE VIRTUAL TABLE \(table)_fts USING fts5 (
            text,
            content = '\(table)', content_rowid = 'entry_id',
            tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
        );
        CREATE TRIGGER \(table)_fts_insert AFTER INSERT ON \(table) BEGIN
            INSERT INTO \(table)_fts (rowid, text) VALUES (new.entry_id, new.text);
        END;
        CREATE TRIGGER \(table)_fts_delete AFTER DELETE ON \(table) BEGIN
            INSERT INTO \(table)_fts (\(table)_fts, rowid, text) VALUES ('delete', old.entry_id, old.text);
        END;
        CREATE TRIGGER \(table)_fts_update AFTER UPDATE OF text ON \(table) BEGIN
            INSERT INTO \(table)_fts (\(table)_fts, rowid, text) VALUES ('delete', old.entry_id, old.text);
            INSERT INTO \(table)_fts (rowid, text) VALUES (new.entry_id, new.text);
        END;
        """
    }

    /// Small facts about this installation (device UUID, last opened headline), by key.
    static let appState = """
        CREATE TABLE app_state (
            key TEXT PRIMARY KEY NOT NULL,
            value TEXT NOT NULL
        ) STRICT
        """

    /// The image cache's index: which file holds which URL's bytes.
    static let images = """
        CREATE TABLE images (
            url TEXT PRIMARY KEY NOT NULL,
            file TEXT NOT NULL,
            content_type TEXT NOT NULL,
            byte_count INTEGER NOT NULL,
            stored_at REAL NOT NULL
        ) STRICT
        """

    /// The user's feeds (see `Subscription`). `title` is the user's own name for a feed (NULL:
    /// the feed's own, `feed_title`); `folder` NULL is the top level; `built_in` marks the News
    /// screen's sources.
    static let subscriptions = """
        CREATE TABLE subscriptions (
            id TEXT PRIMARY KEY NOT NULL,
            url TEXT NOT NULL UNIQUE,
            title TEXT,
            feed_title TEXT,
            site_url TEXT,
            folder TEXT,
            interval_seconds REAL NOT NULL,
            built_in INTEGER NOT NULL DEFAULT 0,
            added_at REAL NOT NULL
        ) STRICT;
        CREATE INDEX subscriptions_by_folder ON subscriptions (folder);
        """

    /// What a reader needs of each entry. An entry that leaves its feed is kept (`in_feed` 0)
    /// until retention prunes it, so what the user has not read yet does not vanish; the News
    /// screen and a warm start read only `in_feed` rows, in feed order. `key` is
    /// `EntryIdentity.key` (URLs), `received_at` when Kiosk first saw the entry, `sort_date` its
    /// date for reading lists (published, else updated, else received).
    static let reading = """
        ALTER TABLE entries ADD COLUMN key TEXT NOT NULL DEFAULT '';
        ALTER TABLE entries ADD COLUMN in_feed INTEGER NOT NULL DEFAULT 1;
        ALTER TABLE entries ADD COLUMN received_at REAL NOT NULL DEFAULT 0;
        ALTER TABLE entries ADD COLUMN sort_date REAL NOT NULL DEFAULT 0;
        ALTER TABLE entries ADD COLUMN read INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE entries ADD COLUMN starred INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE entries ADD COLUMN state_changed_at REAL;
        CREATE INDEX entries_by_key ON entries (source, key);
        CREATE INDEX entries_by_date ON entries (sort_date DESC, id DESC);
        CREATE INDEX entries_by_source_date ON entries (source, sort_date DESC, id DESC);
        CREATE INDEX entries_unread ON entries (source) WHERE read = 0;
        CREATE INDEX entries_starred ON entries (sort_date DESC, id DESC) WHERE starred = 1;
        """
}

extension Schema {
    /// Read state that costs per feed, not per entry, to change (Google Reader's own model):
    /// every entry of `source` with an id up to `read_up_to` is read unless `kept_unread`; above
    /// it, an entry is read when its own `read` is 1. Marking all read moves the mark; an entry
    /// marked unread under it is `kept_unread`. `unread` is the feed's count, kept up to date by
    /// every write (so counting is one row per feed). Entry ids only grow: a mark is pulled down
    /// to its feed's newest remaining entry whenever entries are deleted, so an id reused later
    /// can never fall under an old mark.
    static let readMarks = """
        CREATE TABLE read_marks (
            source TEXT PRIMARY KEY NOT NULL,
            read_up_to INTEGER NOT NULL DEFAULT 0,
            unread INTEGER NOT NULL DEFAULT 0
        ) STRICT;
        ALTER TABLE entries ADD COLUMN kept_unread INTEGER NOT NULL DEFAULT 0;
        CREATE INDEX entries_kept_unread ON entries (source) WHERE kept_unread = 1;
        CREATE TRIGGER read_marks_source_deleted AFTER DELETE ON sources BEGIN
            DELETE FROM read_marks WHERE source = old.id;
        END;
        INSERT INTO read_marks (source, unread)
            SELECT id, (SELECT COUNT(*) FROM entries WHERE entries.source = sources.id AND read = 0) FROM sources;
        """
}

extension Schema {
    /// Several users, each with their own subscriptions, folders, and read and star state; a feed
    /// that several follow is fetched and stored once (`subscriptions` is now the feed, shared).
    ///
    /// - `users`: `password_hash` is bcrypt (never the password); `home_name` is what Home greets.
    /// - `app_passwords`: named, revocable passwords for devices; `secret_hash` is SHA-256 of a
    ///   random secret (high entropy, so a fast hash is right, and lookups are by hash).
    /// - `app_passwords.fever_key_hash`: SHA-256 of the Fever API key a client sends, MD5 of
    ///   `name:app password` (Fever's own scheme); account passwords have none (a fast hash of
    ///   them would undo bcrypt).
    /// - `sessions`: web sign-ins and sync-API tokens (`kind`), by SHA-256 of the token; the token
    ///   itself lives only in the cookie or the client.
    /// - `user_feeds`: who follows which feed, under which name and folder.
    /// - `user_marks`: each user's read mark and unread count per feed (was `read_marks`).
    /// - `entry_states`: what a user did with one entry; no row is unread, not starred.
    ///
    /// What the single local owner had (before accounts) becomes user 1's: the first account
    /// added takes it over.
    static let accounts = """
        CREATE TABLE users (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            name TEXT NOT NULL UNIQUE COLLATE NOCASE,
            password_hash TEXT NOT NULL,
            is_admin INTEGER NOT NULL DEFAULT 0,
            home_name TEXT,
            created_at REAL NOT NULL
        ) STRICT;
        CREATE TABLE app_passwords (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            name TEXT NOT NULL,
            secret_hash TEXT NOT NULL UNIQUE,
            fever_key_hash TEXT,
            created_at REAL NOT NULL,
            last_used_at REAL
        ) STRICT;
        CREATE INDEX app_passwords_by_user ON app_passwords (user_id);
        CREATE INDEX app_passwords_by_fever_key ON app_passwords (fever_key_hash);
        CREATE TABLE sessions (
            token_hash TEXT PRIMARY KEY NOT NULL,
            user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            kind TEXT NOT NULL,
            csrf TEXT NOT NULL,
            app_password_id INTEGER REFERENCES app_passwords(id) ON DELETE CASCADE,
            created_at REAL NOT NULL,
            expires_at REAL NOT NULL
        ) STRICT;
        CREATE INDEX sessions_by_user ON sessions (user_id);
        CREATE TABLE user_feeds (
            user_id INTEGER NOT NULL,
            source TEXT NOT NULL REFERENCES subscriptions(id) ON DELETE CASCADE,
            title TEXT,
            folder TEXT,
            added_at REAL NOT NULL,
            PRIMARY KEY (user_id, source)
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX user_feeds_by_source ON user_feeds (source);
        CREATE TABLE user_marks (
            user_id INTEGER NOT NULL,
            source TEXT NOT NULL,
            read_up_to INTEGER NOT NULL DEFAULT 0,
            unread INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (user_id, source)
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX user_marks_by_source ON user_marks (source);
        CREATE TABLE entry_states (
            user_id INTEGER NOT NULL,
            entry_id INTEGER NOT NULL REFERENCES entries(id) ON DELETE CASCADE,
            source TEXT NOT NULL,
            read INTEGER NOT NULL DEFAULT 0,
            starred INTEGER NOT NULL DEFAULT 0,
            kept_unread INTEGER NOT NULL DEFAULT 0,
            changed_at REAL NOT NULL,
            PRIMARY KEY (user_id, entry_id)
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX entry_states_by_entry ON entry_states (entry_id);
        CREATE INDEX entry_states_kept ON entry_states (user_id, source) WHERE kept_unread = 1;
        CREATE INDEX entry_states_starred ON entry_states (user_id) WHERE starred = 1;

        INSERT INTO user_feeds (user_id, source, title, folder, added_at)
            SELECT 1, id, title, folder, added_at FROM subscriptions;
        INSERT INTO user_marks (user_id, source, read_up_to, unread)
            SELECT 1, source, read_up_to, unread FROM read_marks
            WHERE source IN (SELECT id FROM subscriptions);
        INSERT INTO entry_states (user_id, entry_id, source, read, starred, kept_unread, changed_at)
            SELECT 1, id, source, read, starred, kept_unread, COALESCE(state_changed_at, received_at) FROM entries
            WHERE read = 1 OR starred = 1 OR kept_unread = 1;

        DROP TRIGGER read_marks_source_deleted;
        DROP TABLE read_marks;
        CREATE TRIGGER user_marks_source_deleted AFTER DELETE ON sources BEGIN
            DELETE FROM user_marks WHERE source = old.id;
        END;
        DROP INDEX entries_unread;
        DROP INDEX entries_starred;
        DROP INDEX entries_kept_unread;
        ALTER TABLE entries DROP COLUMN read;
        ALTER TABLE entries DROP COLUMN starred;
        ALTER TABLE entries DROP COLUMN kept_unread;
        ALTER TABLE entries DROP COLUMN state_changed_at;
        DROP INDEX subscriptions_by_folder;
        ALTER TABLE subscriptions DROP COLUMN title;
        ALTER TABLE subscriptions DROP COLUMN folder;
        """

    /// One row per use of an allowance (`AllowanceLedger`: OPML imports an hour, Discover's calls),
    /// forgotten a window later.
    static let allowanceUses = """
        CREATE TABLE allowance_uses (
            allowance TEXT NOT NULL,
            account TEXT NOT NULL,
            at REAL NOT NULL
        ) STRICT;
        CREATE INDEX allowance_uses_by_account ON allowance_uses (allowance, account, at);
        """

    /// Failed sign-ins (account lowercased), for the throttle; `cleared` once the account signed
    /// in from that address (no longer counted for the pair, still for the address and account).
    static let signInFailures = """
        CREATE TABLE sign_in_failures (
            account TEXT NOT NULL,
            address TEXT NOT NULL,
            at REAL NOT NULL,
            cleared INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX sign_in_failures_account ON sign_in_failures (account, at);
        CREATE INDEX sign_in_failures_address ON sign_in_failures (address, at);
        CREATE INDEX sign_in_failures_at ON sign_in_failures (at);
        """

    /// Each user's saved searches, as typed (`SavedSearchStore`).
    static let savedSearches = """
        CREATE TABLE saved_searches (
            id INTEGER PRIMARY KEY,
            user_id INTEGER NOT NULL,
            name TEXT NOT NULL,
            query TEXT NOT NULL,
            created_at REAL NOT NULL
        ) STRICT;
        CREATE INDEX saved_searches_by_user ON saved_searches (user_id, id);
        """

    /// Each user's rules (`RuleStore`), in `position` order: the query as typed, the scope (a
    /// folder, a feed, or neither: every feed), the actions (`RuleColumns`), paused or not, and
    /// why the rule was last flagged. `rule_days` counts each rule's matches per day (UTC), for
    /// "matched N in the last 7 days"; days older than that are dropped as new ones are counted.
    static let rules = """
        CREATE TABLE rules (
            id INTEGER PRIMARY KEY,
            user_id INTEGER NOT NULL,
            position INTEGER NOT NULL,
            name TEXT NOT NULL,
            query TEXT NOT NULL,
            scope_folder TEXT,
            scope_feed TEXT,
            actions TEXT NOT NULL,
            paused INTEGER NOT NULL DEFAULT 0,
            flag TEXT,
            created_at REAL NOT NULL
        ) STRICT;
        CREATE INDEX rules_by_user ON rules (user_id, position);
        CREATE TABLE rule_days (
            rule_id INTEGER NOT NULL REFERENCES rules(id) ON DELETE CASCADE,
            day INTEGER NOT NULL,
            matches INTEGER NOT NULL,
            PRIMARY KEY (rule_id, day)
        ) STRICT, WITHOUT ROWID;
        """

    /// Labels each user put on entries (`LabelStore`), by hand or by a rule (`rules.label`).
    /// A labelled entry is kept like a starred one; its labels go with it.
    static let labels = """
        CREATE TABLE entry_labels (
            user_id INTEGER NOT NULL,
            label TEXT NOT NULL,
            entry_id INTEGER NOT NULL REFERENCES entries(id) ON DELETE CASCADE,
            added_at REAL NOT NULL,
            PRIMARY KEY (user_id, label, entry_id)
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX entry_labels_by_entry ON entry_labels (entry_id, user_id);
        ALTER TABLE rules ADD COLUMN label TEXT;
        """

    /// Entries each user hid (a rule's hide, or by hand): read, and out of every list, count
    /// and synced app but Hidden. Their own table, so read and star writes never touch it.
    static let hidden = """
        CREATE TABLE hidden_entries (
            user_id INTEGER NOT NULL,
            entry_id INTEGER NOT NULL REFERENCES entries(id) ON DELETE CASCADE,
            hidden_at REAL NOT NULL,
            PRIMARY KEY (user_id, entry_id)
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX hidden_entries_by_entry ON hidden_entries (entry_id);
        """

    /// Webhooks beside the devices: a row's `kind` says which (`push` or `webhook`).
    static let webhooks = "ALTER TABLE push_devices ADD COLUMN kind TEXT NOT NULL DEFAULT 'push'"

    /// A queue per device (`PushDeviceStore`), so each device has its own digest window: the
    /// entries rules asked to notify of, queued for each of the user's devices with the entry's
    /// insert, taken once by a sender; the account-wide queue's rows are spread over its devices.
    static let pushQueue = """
        CREATE TABLE push_queue (
            device_id INTEGER NOT NULL REFERENCES push_devices(id) ON DELETE CASCADE,
            entry_id INTEGER NOT NULL REFERENCES entries(id) ON DELETE CASCADE,
            queued_at REAL NOT NULL,
            PRIMARY KEY (device_id, entry_id)
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX push_queue_by_entry ON push_queue (entry_id);
        INSERT INTO push_queue (device_id, entry_id, queued_at)
            SELECT d.id, o.entry_id, o.queued_at FROM push_outbox o JOIN push_devices d ON d.user_id = o.user_id;
        DROP TABLE push_outbox;
        """

    /// Each user's devices for Web Push (`PushDeviceStore`): one row per push endpoint; and the
    /// entries rules asked to notify of, queued with the entry's insert, taken once by a sender.
    static let pushDevices = """
        CREATE TABLE push_devices (
            id INTEGER PRIMARY KEY,
            user_id INTEGER NOT NULL,
            endpoint TEXT NOT NULL UNIQUE,
            p256dh TEXT NOT NULL,
            auth TEXT NOT NULL,
            name TEXT NOT NULL,
            created_at REAL NOT NULL,
            last_sent_at REAL,
            last_error TEXT
        ) STRICT;
        CREATE INDEX push_devices_by_user ON push_devices (user_id, id);
        CREATE TABLE push_outbox (
            user_id INTEGER NOT NULL,
            entry_id INTEGER NOT NULL REFERENCES entries(id) ON DELETE CASCADE,
            queued_at REAL NOT NULL,
            PRIMARY KEY (user_id, entry_id)
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX push_outbox_by_time ON push_outbox (queued_at);
        """

    /// Where each user stopped in an episode (`ListeningStore`): one row per user and entry,
    /// removed with the entry. "Listen" reads the episodes begun and not finished, latest first.
    static let playbackPositions = """
        CREATE TABLE playback_positions (
            user_id INTEGER NOT NULL,
            entry_id INTEGER NOT NULL REFERENCES entries(id) ON DELETE CASCADE,
            seconds REAL NOT NULL,
            duration REAL,
            playing INTEGER NOT NULL,
            finished INTEGER NOT NULL,
            device TEXT NOT NULL,
            saved_at REAL NOT NULL,
            PRIMARY KEY (user_id, entry_id)
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX playback_positions_by_entry ON playback_positions (entry_id);
        CREATE INDEX playback_positions_in_progress ON playback_positions (user_id, saved_at) WHERE finished = 0;
        """
}
