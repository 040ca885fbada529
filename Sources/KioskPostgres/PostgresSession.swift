import Logging
import PostgresNIO

// postgres-nio lends a connection for the length of a closure and must never see it kept: the
// row helpers take this value, made inside that closure, and return before it ends.

/// One leased connection (in a transaction or not) and the logger its queries log to.
struct PostgresSession {
    let connection: PostgresConnection
    let logger: Logger

    /// Runs a statement; any rows it returns are read and dropped, so its errors surface here.
    func execute(_ query: PostgresQuery) async throws {
        for try await _ in try await connection.query(query, logger: logger) {}
    }

    /// Every row of `query`, read as it streams in.
    func forEachRow(_ query: PostgresQuery, _ body: (PostgresRandomAccessRow) throws -> Void) async throws {
        for try await row in try await connection.query(query, logger: logger) {
            try body(row.makeRandomAccess())
        }
    }

    /// Every row of `query` as it streams in, its columns read by position (`row.decode`): for
    /// long lists, where looking each column up by name costs more than the query.
    func forEachPlainRow(_ query: PostgresQuery, _ body: (PostgresRow) throws -> Void) async throws {
        for try await row in try await connection.query(query, logger: logger) {
            try body(row)
        }
    }

    /// Every row of `query`, each made into a value by `transform`.
    func rows<T>(_ query: PostgresQuery, _ transform: (PostgresRandomAccessRow) throws -> T) async throws -> [T] {
        var list: [T] = []
        try await forEachRow(query) { list.append(try transform($0)) }
        return list
    }

    /// The first column of the first row; nil when there is no row (or the value is NULL).
    func value<T: PostgresDecodable>(_ query: PostgresQuery, as type: T.Type = T.self) async throws -> T? {
        for try await row in try await connection.query(query, logger: logger) {
            guard let cell = row.first, cell.bytes != nil else { return nil }
            return try cell.decode(T.self)
        }
        return nil
    }
}

extension PostgresRandomAccessRow {
    /// The value of column `name`, as GRDB's `row["name"]` reads.
    func get<T: PostgresDecodable>(_ name: String, as type: T.Type = T.self) throws -> T {
        try self[name].decode(T.self)
    }
}

/// SQL whose shape depends on the request (optional filters), its values bound as parameters:
/// only our own text is appended, every value goes through `bind`.
struct PostgresQueryBuilder {
    private(set) var sql = ""
    private var binds = PostgresBindings()

    init(_ sql: String = "") {
        self.sql = sql
    }

    /// Appends SQL text written in this module (never input).
    mutating func append(_ text: String) {
        sql += text
    }

    /// Binds `value` and returns its placeholder (`$n`) to write into the SQL.
    mutating func bind<T: PostgresDynamicTypeEncodable>(_ value: T) -> String {
        binds.append(value)
        return "$\(binds.count)"
    }

    /// Binds `value` or NULL.
    mutating func bind<T: PostgresDynamicTypeEncodable>(_ value: T?) -> String {
        binds.append(value)
        return "$\(binds.count)"
    }

    var query: PostgresQuery { PostgresQuery(unsafeSQL: sql, binds: binds) }
}
