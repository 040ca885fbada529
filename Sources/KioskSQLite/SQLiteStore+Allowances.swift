import Foundation
import GRDB
import KioskModel
import KioskStore

// `AllowanceLedger` on SQLite: one row per use, in the window; counted and written in one write
// transaction, which SQLite runs one at a time, so two imports at once never both pass the last.
extension SQLiteStore {
    public func spend(_ allowance: String, account: String, limit: Int, window: Duration, now: Date)
        async throws(StoreError) -> Date?
    {
        let at = now.timeIntervalSince1970
        let forget = at - window / .seconds(1)
        return try await write { db in
            try db.execute(
                sql: "DELETE FROM allowance_uses WHERE allowance = ? AND account = ? AND at <= ?",
                arguments: [allowance, account, forget])
            let row = try Row.fetchOne(
                db, sql: "SELECT count(*) AS uses, min(at) AS oldest FROM allowance_uses WHERE allowance = ? AND account = ?",
                arguments: [allowance, account])
            let uses: Int = row?["uses"] ?? 0
            guard uses < limit else {
                return (row?["oldest"] as Double?).map(Date.init(timeIntervalSince1970:)) ?? now
            }
            try db.execute(
                sql: "INSERT INTO allowance_uses (allowance, account, at) VALUES (?, ?, ?)",
                arguments: [allowance, account, at])
            return nil
        }
    }
}
