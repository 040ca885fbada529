import Foundation
import KioskStore
import PostgresNIO

/// The SQL side of the sign-in throttle on PostgreSQL: one row per failed sign-in, in a window,
/// shared by every replica.
enum PostgresSignInFailureRows {
    static func record(account: String, address: String, at: Date, forgetBefore: Date, in session: PostgresSession)
        async throws
    {
        let account = account.lowercased()
        let at = at.timeIntervalSince1970
        let forget = forgetBefore.timeIntervalSince1970
        try await session.execute("DELETE FROM sign_in_failures WHERE at < \(forget)")
        try await session.execute("INSERT INTO sign_in_failures (account, address, at) VALUES (\(account), \(address), \(at))")
    }

    static func failures(account: String, address: String, since: Date, in session: PostgresSession) async throws
        -> SignInFailures
    {
        let account = account.lowercased()
        let since = since.timeIntervalSince1970
        let rows = try await session.rows(
            """
            SELECT
                count(*) FILTER (WHERE account = \(account) AND address = \(address) AND NOT cleared) AS pair,
                min(at) FILTER (WHERE account = \(account) AND address = \(address) AND NOT cleared) AS pair_oldest,
                count(*) FILTER (WHERE address = \(address)) AS by_address,
                min(at) FILTER (WHERE address = \(address)) AS address_oldest,
                count(*) FILTER (WHERE account = \(account)) AS by_account
            FROM sign_in_failures WHERE at > \(since) AND (account = \(account) OR address = \(address))
            """
        ) { row -> SignInFailures in
            let pairOldest: Double? = try row.get("pair_oldest")
            let addressOldest: Double? = try row.get("address_oldest")
            let pair: Int64 = try row.get("pair")
            let byAddress: Int64 = try row.get("by_address")
            let byAccount: Int64 = try row.get("by_account")
            return SignInFailures(
                pair: Int(pair), pairOldest: pairOldest.map(Date.init(timeIntervalSince1970:)), address: Int(byAddress),
                addressOldest: addressOldest.map(Date.init(timeIntervalSince1970:)), account: Int(byAccount))
        }
        return rows.first ?? SignInFailures()
    }

    static func clear(account: String, address: String, in session: PostgresSession) async throws {
        let account = account.lowercased()
        try await session.execute(
            "UPDATE sign_in_failures SET cleared = true WHERE account = \(account) AND address = \(address)")
    }
}
