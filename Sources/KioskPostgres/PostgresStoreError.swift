import KioskStore
import PostgresNIO

// postgres-nio's errors describe themselves vaguely on purpose (no query text in logs); the store
// turns them into `StoreError`, with the server's own message and SQLSTATE, which carry no data.

extension StoreError {
    /// Translates whatever postgres-nio (or the server) threw while working on `database`.
    static func postgres(_ error: any Error, database: String) -> StoreError {
        switch error {
        case let error as StoreError:
            return error
        case let error as PostgresTransactionError:
            // The closure's own error first: a `.conflict` thrown inside a transaction stays one.
            let cause = error.closureError ?? error.beginError ?? error.commitError ?? error.rollbackError
            return cause.map { postgres($0, database: database) } ?? .other("a transaction failed")
        case let error as PSQLError:
            return psql(error, database: database)
        case is CancellationError:
            return .other("cancelled before it was done")
        default:
            return .other(String(describing: error))
        }
    }

    private static func psql(_ error: PSQLError, database: String) -> StoreError {
        guard let info = error.serverInfo else {
            switch error.code {
            case .connectionError, .serverClosedConnection, .clientClosedConnection, .poolClosed, .sslUnsupported,
                .failedToAddSSLHandler, .unsupportedAuthMechanism, .authMechanismRequiresPassword, .saslError:
                let reason = error.underlying.map { String(describing: $0) } ?? "\(error.code)"
                return .cannotOpen(path: database, reason: reason)
            case .queryCancelled:
                return .other("cancelled before it was done")
            default:
                return .other("\(error.code)")
            }
        }
        let state = info[.sqlState] ?? ""
        let message = info[.message] ?? "\(error.code)"
        switch state {
        case "25006": return .readOnly(path: database)  // read_only_sql_transaction (a standby)
        case "53100": return .diskFull(path: database)  // disk_full
        case "23505": return .conflict(message)  // unique_violation
        case "XX001", "XX002": return .corrupt(path: database, reason: message)  // data or index corrupted
        default:
            if state.hasPrefix("08") || state.hasPrefix("28") || state == "3D000" {
                // Connection, authorization, no such database.
                return .cannotOpen(path: database, reason: message)
            }
            return .other("\(message) (SQLSTATE \(state))")
        }
    }
}
