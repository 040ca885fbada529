import Foundation
import GRDB
import KioskSQLite
import KioskStore
import Logging
import PostgresNIO

// Moving from one machine to replicas: the SQLite file is read (never written), every table is
// copied in batches inside one PostgreSQL transaction (so a failed copy leaves nothing behind),
// with the same ids, so read and star state, sessions and app passwords all carry over.

/// Why a copy from SQLite to PostgreSQL was refused or failed.
public enum SQLiteToPostgresError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The SQLite file cannot be opened, is not Kiosk's, or its schema is not current.
    case cannotReadSource(path: String, reason: String)
    /// The PostgreSQL database already holds data: a copy goes into an empty one only.
    case targetNotEmpty(users: Int, subscriptions: Int, entries: Int)

    public var description: String {
        switch self {
        case .cannotReadSource(let path, let reason):
            "cannot copy from \(path): \(reason)"
        case .targetNotEmpty(let users, let subscriptions, let entries):
            "the PostgreSQL database is not empty (\(users) accounts, \(subscriptions) feeds, \(entries) entries): "
                + "copy into a new database"
        }
    }
}

/// Copies a Kiosk SQLite database into an empty PostgreSQL one, table by table.
public enum SQLiteToPostgres {
    /// Copies everything in the SQLite database at `sqlitePath` into `store`'s database, which
    /// must hold no accounts, feeds or entries (it is migrated first). Opens the file read-only
    /// and refuses it unless its migrations are complete; writes in one transaction and moves
    /// the sequences past the copied ids. `progress` is told each table's rows copied so far.
    public static func copy(
        from sqlitePath: URL, to store: PostgresStore, client: PostgresClient,
        logger: Logger = Logger(label: "kiosk.store.copy"), batchSize: Int = 1_000,
        progress: (String, Int) -> Void = { _, _ in }
    ) async throws {
        let source = try openSource(sqlitePath)
        try await store.migrate()
        do {
            try await copyTables(from: source, client: client, logger: logger, batchSize: batchSize, progress: progress)
        } catch let error as PostgresTransactionError {
            // The copy's own error (a refusal, the row PostgreSQL would not take), not the wrapper.
            throw error.closureError ?? error.beginError ?? error.commitError ?? error
        }
    }

    private static func copyTables(
        from source: DatabaseQueue, client: PostgresClient, logger: Logger, batchSize: Int,
        progress: (String, Int) -> Void
    ) async throws {
        try await client.withTransaction(logger: logger) { connection in
            let session = PostgresSession(connection: connection, logger: logger)
            try await checkEmpty(session)
            for table in SQLiteTable.all {
                var copied = 0
                var after: [SQLiteValue]?
                while let batch = try await table.batch(in: source, after: after, limit: max(1, batchSize)) {
                    try await session.execute(table.insert(batch.json))
                    copied += batch.count
                    after = batch.lastKey
                    progress(table.name, copied)
                }
                progress(table.name, copied)
            }
            try await PostgresStore.resetSequences(in: session)
        }
    }

    /// The SQLite file, read-only, once its schema is known to be complete (`SQLiteStore` says).
    private static func openSource(_ path: URL) throws -> DatabaseQueue {
        guard FileManager.default.fileExists(atPath: path.path) else {
            throw SQLiteToPostgresError.cannotReadSource(path: path.path, reason: "there is no file there")
        }
        do {
            let check = try SQLiteStore(path: path, readOnly: true)
            try check.close()
        } catch {
            throw SQLiteToPostgresError.cannotReadSource(path: path.path, reason: error.description)
        }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "kiosk.copy"
        do {
            return try DatabaseQueue(path: path.path, configuration: configuration)
        } catch {
            throw SQLiteToPostgresError.cannotReadSource(path: path.path, reason: "\(error)")
        }
    }

    private static func checkEmpty(_ session: PostgresSession) async throws {
        let users = try await session.value("SELECT COUNT(*) FROM users", as: Int.self) ?? 0
        let subscriptions = try await session.value("SELECT COUNT(*) FROM subscriptions", as: Int.self) ?? 0
        let entries = try await session.value("SELECT COUNT(*) FROM entries", as: Int.self) ?? 0
        guard users == 0 && subscriptions == 0 && entries == 0 else {
            throw SQLiteToPostgresError.targetNotEmpty(users: users, subscriptions: subscriptions, entries: entries)
        }
    }
}

/// One SQLite value on its way to PostgreSQL, as JSON (`jsonb_to_recordset` makes the rows).
enum SQLiteValue: Sendable, Hashable, Encodable, DatabaseValueConvertible {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case bool(Bool)

    init(_ value: DatabaseValue) {
        switch value.storage {
        case .null: self = .null
        case .int64(let number): self = .integer(number)
        case .double(let number): self = .real(number)
        case .string(let text): self = .text(PostgresText.clean(text))
        case .blob(let data): self = .text(PostgresText.clean(String(decoding: data, as: UTF8.self)))
        }
    }

    /// SQLite's 0/1 as a boolean.
    var asBool: SQLiteValue {
        switch self {
        case .integer(let number): .bool(number != 0)
        case .real(let number): .bool(number != 0)
        default: self
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .integer(let number): try container.encode(number)
        case .real(let number): try container.encode(number)
        case .text(let text): try container.encode(text)
        case .bool(let flag): try container.encode(flag)
        }
    }

    var databaseValue: DatabaseValue {
        switch self {
        case .null: .null
        case .integer(let number): number.databaseValue
        case .real(let number): number.databaseValue
        case .text(let text): text.databaseValue
        case .bool(let flag): flag.databaseValue
        }
    }

    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> SQLiteValue? { SQLiteValue(dbValue) }
}

/// How one table is copied: the columns both databases share (PostgreSQL's types), the key the
/// SQLite rows are read in order of (a batch starts after the last one's key), and any column
/// PostgreSQL has that SQLite computes another way.
struct SQLiteTable: Sendable {
    var name: String
    var columns: [(name: String, type: String)]
    var keys: [String]
    /// The SQLite expression for a column, where it is not the column itself.
    var expressions: [String: String] = [:]
    /// Columns made from the row read (`entries.search_text`).
    var computed: [(name: String, type: String, make: @Sendable ([String: SQLiteValue]) -> SQLiteValue)] = []

    /// Parents before children, so every foreign key finds its row.
    static let all: [SQLiteTable] = [
        SQLiteTable(
            name: "sources",
            columns: [
                ("id", "text"), ("etag", "text"), ("last_modified", "text"), ("validators_request", "text"),
                ("last_success", "double precision"),
                ("last_failure", "double precision"), ("last_error", "text"), ("last_error_json", "text"),
                ("failures", "integer"), ("has_entries", "boolean"),
            ], keys: ["id"]),
        SQLiteTable(
            name: "entries",
            columns: [
                ("id", "bigint"), ("source", "text"), ("identity", "text"), ("key", "text"), ("position", "integer"),
                ("title", "text"), ("link", "text"), ("published", "double precision"), ("summary_text", "text"),
                ("json", "text"), ("in_feed", "boolean"), ("received_at", "double precision"),
                ("sort_date", "double precision"),
            ], keys: ["id"],
            computed: [
                (
                    "search_text", "text",
                    { row in
                        .text(PostgresSearchText.indexed(title: row["title"]?.string, summaryText: row["summary_text"]?.string))
                    }
                )
            ]),
        SQLiteTable(
            name: "subscriptions",
            columns: [
                ("id", "text"), ("url", "text"), ("feed_title", "text"), ("site_url", "text"),
                ("interval_seconds", "double precision"), ("built_in", "boolean"), ("added_at", "double precision"),
                ("seq", "bigint"),
            ], keys: ["rowid"], expressions: ["seq": "rowid"]),
        SQLiteTable(name: "app_state", columns: [("key", "text"), ("value", "text")], keys: ["key"]),
        SQLiteTable(
            name: "users",
            columns: [
                ("id", "bigint"), ("name", "text"), ("password_hash", "text"), ("is_admin", "boolean"),
                ("home_name", "text"), ("created_at", "double precision"), ("media_through_kiosk", "boolean"),
            ], keys: ["id"]),
        SQLiteTable(
            name: "app_passwords",
            columns: [
                ("id", "bigint"), ("user_id", "bigint"), ("name", "text"), ("secret_hash", "text"),
                ("fever_key_hash", "text"), ("created_at", "double precision"), ("last_used_at", "double precision"),
            ], keys: ["id"]),
        SQLiteTable(
            name: "sessions",
            columns: [
                ("token_hash", "text"), ("user_id", "bigint"), ("kind", "text"), ("csrf", "text"),
                ("app_password_id", "bigint"), ("created_at", "double precision"), ("expires_at", "double precision"),
            ], keys: ["token_hash"]),
        SQLiteTable(
            name: "user_feeds",
            columns: [
                ("user_id", "bigint"), ("source", "text"), ("title", "text"), ("folder", "text"),
                ("added_at", "double precision"), ("full_articles", "boolean"),
            ], keys: ["user_id", "source"]),
        SQLiteTable(
            name: "user_marks",
            columns: [("user_id", "bigint"), ("source", "text"), ("read_up_to", "bigint"), ("unread", "integer")],
            keys: ["user_id", "source"]),
        SQLiteTable(
            name: "entry_states",
            columns: [
                ("user_id", "bigint"), ("entry_id", "bigint"), ("source", "text"), ("read", "boolean"),
                ("starred", "boolean"), ("kept_unread", "boolean"), ("changed_at", "double precision"),
            ], keys: ["user_id", "entry_id"]),
        SQLiteTable(
            name: "articles",
            columns: [
                ("entry_id", "bigint"), ("fetched_at", "double precision"), ("url", "text"), ("json", "text"),
                ("error", "text"), ("text", "text"),
            ], keys: ["entry_id"],
            computed: [
                (
                    "search_text", "text",
                    { row in .text(PostgresSearchText.indexed(title: nil, summaryText: row["text"]?.string)) }
                )
            ]),
        SQLiteTable(
            name: "transcripts",
            columns: [("entry_id", "bigint"), ("fetched_at", "double precision"), ("error", "text"), ("text", "text")],
            keys: ["entry_id"],
            computed: [
                (
                    "search_text", "text",
                    { row in .text(PostgresSearchText.indexed(title: nil, summaryText: row["text"]?.string)) }
                )
            ]),
        SQLiteTable(
            name: "saved_searches",
            columns: [
                ("id", "bigint"), ("user_id", "bigint"), ("name", "text"), ("query", "text"),
                ("created_at", "double precision"),
            ], keys: ["id"]),
        SQLiteTable(
            name: "rules",
            columns: [
                ("id", "bigint"), ("user_id", "bigint"), ("position", "integer"), ("name", "text"), ("query", "text"),
                ("scope_folder", "text"), ("scope_feed", "text"), ("actions", "text"), ("label", "text"),
                ("paused", "boolean"), ("flag", "text"), ("created_at", "double precision"),
            ], keys: ["id"]),
        SQLiteTable(
            name: "rule_days",
            columns: [("rule_id", "bigint"), ("day", "bigint"), ("matches", "bigint")], keys: ["rule_id", "day"]),
        SQLiteTable(
            name: "entry_labels",
            columns: [("user_id", "bigint"), ("label", "text"), ("entry_id", "bigint"), ("added_at", "double precision")],
            keys: ["user_id", "label", "entry_id"]),
        SQLiteTable(
            name: "hidden_entries",
            columns: [("user_id", "bigint"), ("entry_id", "bigint"), ("hidden_at", "double precision")],
            keys: ["user_id", "entry_id"]),
        SQLiteTable(
            name: "playback_positions",
            columns: [
                ("user_id", "bigint"), ("entry_id", "bigint"), ("seconds", "double precision"),
                ("duration", "double precision"), ("playing", "boolean"), ("finished", "boolean"), ("device", "text"),
                ("saved_at", "double precision"),
            ], keys: ["user_id", "entry_id"]),
        SQLiteTable(
            name: "push_devices",
            columns: [
                ("id", "bigint"), ("user_id", "bigint"), ("endpoint", "text"), ("p256dh", "text"), ("auth", "text"),
                ("name", "text"), ("created_at", "double precision"), ("last_sent_at", "double precision"),
                ("last_error", "text"), ("kind", "text"),
            ], keys: ["id"]),
        SQLiteTable(
            name: "push_queue",
            columns: [("device_id", "bigint"), ("entry_id", "bigint"), ("queued_at", "double precision")],
            keys: ["device_id", "entry_id"]),
    ]

    /// One batch read from SQLite: its rows as a JSON array, how many, and the last row's key.
    struct Batch: Sendable {
        var json: String
        var count: Int
        var lastKey: [SQLiteValue]
    }

    /// The next `limit` rows after the key `after` (from the start when nil); nil when none is left.
    func batch(in database: DatabaseQueue, after: [SQLiteValue]?, limit: Int) async throws -> Batch? {
        let table = self
        return try await database.read { db in try table.readBatch(db, after: after, limit: limit) }
    }

    private func readBatch(_ db: Database, after: [SQLiteValue]?, limit: Int) throws -> Batch? {
        // Table and column names come from the list above, never input; values are arguments.
        let columnList = columns.map { column in expressions[column.name].map { "\($0) AS \(column.name)" } ?? column.name }
        let keyList = keys.enumerated().map { "\($0.element) AS key_\($0.offset)" }
        let select = (columnList + keyList).joined(separator: ", ")
        var sql = "SELECT \(select) FROM \(name)"
        var arguments = StatementArguments()
        if let after {
            sql += " WHERE (\(keys.joined(separator: ", "))) > (\(databaseQuestionMarks(count: keys.count)))"
            arguments = StatementArguments(after.map(\.databaseValue))
        }
        sql += " ORDER BY \(keys.joined(separator: ", ")) LIMIT \(limit)"
        let rows = try Row.fetchAll(db, sql: sql, arguments: arguments)
        guard let last = rows.last else { return nil }
        var objects: [[String: SQLiteValue]] = []
        objects.reserveCapacity(rows.count)
        for row in rows {
            var object: [String: SQLiteValue] = [:]
            for column in columns {
                let value = SQLiteValue(row[column.name] as DatabaseValue)
                object[column.name] = column.type == "boolean" ? value.asBool : value
            }
            for column in computed {
                object[column.name] = column.make(object)
            }
            objects.append(object)
        }
        let lastKey = keys.indices.map { SQLiteValue(last["key_\($0)"] as DatabaseValue) }
        let json = String(decoding: try JSONEncoder().encode(objects), as: UTF8.self)
        return Batch(json: json, count: rows.count, lastKey: lastKey)
    }

    /// The statement inserting one batch (`$1`, the batch's JSON) with the copied ids.
    func insert(_ json: String) -> PostgresQuery {
        let all = columns.map { ($0.name, $0.type) } + computed.map { ($0.name, $0.type) }
        let names = all.map(\.0).joined(separator: ", ")
        let types = all.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
        var query = PostgresQuery(
            unsafeSQL: "INSERT INTO \(name) (\(names)) SELECT \(names) FROM jsonb_to_recordset($1::jsonb) AS r (\(types))")
        query.binds.append(json)
        return query
    }
}

extension SQLiteValue {
    /// The text, if this is text.
    var string: String? {
        if case .text(let text) = self { return text }
        return nil
    }
}
