import Foundation
import KioskModel
import KioskStore
import PostgresNIO

// `AllowanceLedger` on PostgreSQL: one row per use, in the window, shared by every replica. The
// count and the write run in one transaction under an advisory lock on the account's allowance,
// so replicas asked at once never both pass the last use.
extension PostgresStore {
    public func spend(_ allowance: String, account: String, limit: Int, window: Duration, now: Date)
        async throws(StoreError) -> Date?
    {
        let at = now.timeIntervalSince1970
        let forget = at - window / .seconds(1)
        let key = allowance + "\u{1F}" + account
        return try await transaction { session -> Date? in
            try await session.execute("SELECT pg_advisory_xact_lock(\(Self.allowanceLockClass), hashtext(\(key)))")
            try await session.execute(
                "DELETE FROM allowance_uses WHERE allowance = \(allowance) AND account = \(account) AND at <= \(forget)")
            let counted = try await session.rows(
                "SELECT count(*) AS uses, min(at) AS oldest FROM allowance_uses WHERE allowance = \(allowance) AND account = \(account)"
            ) { row -> (uses: Int64, oldest: Double?) in
                (try row.get("uses"), try row.get("oldest"))
            }
            let uses = counted.first?.uses ?? 0
            guard uses < limit else {
                return counted.first?.oldest.map(Date.init(timeIntervalSince1970:)) ?? now
            }
            try await session.execute(
                "INSERT INTO allowance_uses (allowance, account, at) VALUES (\(allowance), \(account), \(at))")
            return nil
        }
    }

    /// The first half of the allowances' advisory locks (the migrations hold another class).
    static let allowanceLockClass: Int32 = 0x4B_6941  // "KiA"
}
