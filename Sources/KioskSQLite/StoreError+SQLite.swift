import Foundation
import GRDB
import KioskStore

extension StoreError {
    /// Translates whatever GRDB, SQLite or the file system threw while working on `path`.
    init(_ error: any Error, path: String) {
        switch error {
        case let error as StoreError:
            self = error
        case let error as DatabaseError:
            let reason = error.message ?? "\(error.resultCode)"
            switch error.resultCode {
            case .SQLITE_READONLY, .SQLITE_PERM: self = .readOnly(path: path)
            case .SQLITE_FULL: self = .diskFull(path: path)
            case .SQLITE_CANTOPEN: self = .cannotOpen(path: path, reason: reason)
            case .SQLITE_CORRUPT, .SQLITE_NOTADB: self = .corrupt(path: path, reason: reason)
            default: self = .other(error.description)
            }
        case is CancellationError:
            self = .other("cancelled before it was done")
        default:
            self = .other(String(describing: error))
        }
    }
}
