import Foundation

/// Why the store could not do what it was asked, in words an owner can act on.
///
/// The engine logs these and goes on serving from memory: a store that fails never stops Kiosk.
public enum StoreError: Error, Sendable, Hashable {
    /// The database file could not be opened or created.
    case cannotOpen(path: String, reason: String)
    /// The file, its folder or the disk is read-only: nothing new can be remembered.
    case readOnly(path: String)
    /// The disk is full (SQLITE_FULL).
    case diskFull(path: String)
    /// The file is damaged or is not a SQLite database.
    case corrupt(path: String, reason: String)
    /// What was to be added is there already (an account name taken).
    case conflict(String)
    /// Anything else, with the database's (or the system's) own message.
    case other(String)
}

extension StoreError: CustomStringConvertible, LocalizedError {
    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason):
            "cannot open the database at \(path): \(reason)"
        case .readOnly(let path):
            "the database at \(path) is read-only: Kiosk shows what it has but remembers nothing new "
                + "until the file and its folder are writable"
        case .diskFull(let path):
            "the disk holding \(path) is full: Kiosk shows what it has but remembers nothing new until space is freed"
        case .corrupt(let path, let reason):
            "the database at \(path) is damaged (\(reason)): move it aside and Kiosk starts a fresh one"
        case .conflict(let message):
            message
        case .other(let message):
            "database error: \(message)"
        }
    }

    public var errorDescription: String? { description }
}
