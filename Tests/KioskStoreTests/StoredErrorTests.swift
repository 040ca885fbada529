import Foundation
import GRDB
import KioskCore
import KioskModel
import KioskSQLite
import KioskSources
import KioskStore
import Testing

/// A source's last error survives in `last_error_json`. Rows written before `SourceError` was
/// Codable hold the JSON of the store's old mirror enum; they must load as before.
@Suite struct StoredErrorTests {
    /// JSON exactly as the old `StoredSourceError` mirror wrote it (captured from that code),
    /// and the error each must load as.
    private static let oldRows: [(json: String, error: SourceError)] = [
        (#"{"fetch":{"_0":{"status":{"code":503,"retryAfter":[6,9319535557742690304],"message":"down"}}}}"#,
         .fetch(.status(code: 503, message: "down", retryAfter: .seconds(120)))),
        (#"{"fetch":{"_0":{"status":{"code":500}}}}"#, .fetch(.status(code: 500, message: nil, retryAfter: nil))),
        (#"{"fetch":{"_0":{"timeout":{}}}}"#, .fetch(.timeout)),
        (#"{"parse":{"_0":{"malformed":{"_0":"bad <","column":7,"line":3}}}}"#,
         .parse(.malformed("bad <", line: 3, column: 7))),
        (#"{"parse":{"_0":{"empty":{}}}}"#, .parse(.empty)),
        (#"{"superseded":{}}"#, .superseded),
        (#"{"notConfigured":{"_0":"NewsAPI key"}}"#, .notConfigured("NewsAPI key")),
        (#"{"unreadable":{"_0":"not JSON"}}"#, .unreadable("not JSON")),
    ]

    /// Saves a failing state for each id, then overwrites its error columns as an older Kiosk
    /// (or a hand) would have left them, and loads the file again.
    private func load(rows: [(id: SourceID, message: String?, json: String?)]) async throws -> [SourceID: SourceState] {
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("kiosk.sqlite")
            let store = try SQLiteStore(path: file)
            for row in rows {
                try await store.saveSourceState(SourceState(failures: 1, lastError: .superseded), for: row.id)
            }
            try store.close()
            let queue = try DatabaseQueue(path: file.path)
            try await queue.write { db in
                for row in rows {
                    try db.execute(
                        sql: "UPDATE sources SET last_error = ?, last_error_json = ? WHERE id = ?",
                        arguments: [row.message, row.json, row.id.rawValue])
                }
            }
            try queue.close()
            let reopened = try SQLiteStore(path: file)
            defer { try? reopened.close() }
            return try await reopened.loadSourceStates()
        }
    }

    @Test func rowsWrittenByTheOldMirrorLoadExactly() async throws {
        let rows = Self.oldRows.enumerated().map { index, row in
            (id: SourceID("old-\(index)"), message: Optional(row.error.description), json: Optional(row.json))
        }
        let loaded = try await load(rows: rows)
        for (index, row) in Self.oldRows.enumerated() {
            #expect(loaded[SourceID("old-\(index)")]?.lastError == row.error, "\(row.json)")
        }
    }

    @Test func theSameErrorsAreWrittenInTheOldShape() throws {
        // Synthesized Codable writes what the mirror wrote, so an older Kiosk reads new rows too.
        // Compared as JSON values (key order is the encoder's own), each re-serialized sorted.
        func canonical(_ data: Data) throws -> Data {
            try JSONSerialization.data(withJSONObject: JSONSerialization.jsonObject(with: data), options: .sortedKeys)
        }
        for row in Self.oldRows {
            #expect(try canonical(JSONEncoder().encode(row.error)) == canonical(Data(row.json.utf8)), "\(row.json)")
        }
    }

    @Test func unreadableOrMissingJSONFallsBackToTheMessage() async throws {
        let loaded = try await load(rows: [
            (id: "garbage", message: "HTTP 502", json: "{not json"),
            (id: "future", message: "rate limited", json: #"{"rateLimited":{"until":5}}"#),
            (id: "missing", message: "network error: reset", json: nil),
            (id: "nothing", message: nil, json: nil),
        ])
        #expect(loaded["garbage"]?.lastError == .unreadable("HTTP 502"))
        #expect(loaded["future"]?.lastError == .unreadable("rate limited"))
        #expect(loaded["missing"]?.lastError == .unreadable("network error: reset"))
        #expect(loaded["nothing"].map { $0.lastError == nil } == true)
        #expect(loaded["garbage"]?.failures == 1)  // the rest of the row loads as usual
    }
}
