import Foundation
import GRDB
import KioskStore

/// The SQL side of the sign-in throttle: one row per failed sign-in, in a window.
enum SignInFailureRows {
    static func record(account: String, address: String, at: Date, forgetBefore: Date, in db: Database) throws {
        try db.execute(
            sql: "DELETE FROM sign_in_failures WHERE at < ?", arguments: [forgetBefore.timeIntervalSince1970])
        try db.execute(
            sql: "INSERT INTO sign_in_failures (account, address, at) VALUES (?, ?, ?)",
            arguments: [account.lowercased(), address, at.timeIntervalSince1970])
    }

    static func failures(account: String, address: String, since: Date, in db: Database) throws -> SignInFailures {
        let account = account.lowercased()
        let row = try Row.fetchOne(
            db,
            sql: """
                SELECT
                    SUM(CASE WHEN account = :account AND address = :address AND NOT cleared THEN 1 ELSE 0 END) AS pair,
                    MIN(CASE WHEN account = :account AND address = :address AND NOT cleared THEN at END) AS pair_oldest,
                    SUM(CASE WHEN address = :address THEN 1 ELSE 0 END) AS by_address,
                    MIN(CASE WHEN address = :address THEN at END) AS address_oldest,
                    SUM(CASE WHEN account = :account THEN 1 ELSE 0 END) AS by_account
                FROM sign_in_failures WHERE at > :since AND (account = :account OR address = :address)
                """,
            arguments: ["account": account, "address": address, "since": since.timeIntervalSince1970])
        func date(_ column: String) -> Date? {
            (row?[column] as Double?).map { Date(timeIntervalSince1970: $0) }
        }
        return SignInFailures(
            pair: row?["pair"] ?? 0, pairOldest: date("pair_oldest"), address: row?["by_address"] ?? 0,
            addressOldest: date("address_oldest"), account: row?["by_account"] ?? 0)
    }

    static func clear(account: String, address: String, in db: Database) throws {
        try db.execute(
            sql: "UPDATE sign_in_failures SET cleared = 1 WHERE account = ? AND address = ?",
            arguments: [account.lowercased(), address])
    }
}
