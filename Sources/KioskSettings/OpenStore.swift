import Foundation
import KioskPostgres
import KioskSQLite
import KioskSources
import KioskStore
import Logging
import PostgresNIO

/// An open store, and what keeps it open.
public struct OpenedStore: Sendable {
    public var store: any KioskStore
    /// With PostgreSQL: the client the store runs on, running until ``close`` (replicas build
    /// their leases and live log on it). Nil with SQLite.
    public var postgres: PostgresClient?
    /// Stops the PostgreSQL client; nothing with SQLite (the store closes when released).
    public var close: @Sendable () -> Void
}

extension Settings {
    /// Opens the store these settings name, the one way every command opens it: for SQLite the data
    /// directory and the database's folder made 0700 and the file 0600 (SQLite gives its WAL and SHM
    /// files the database's mode, and would create it 0644); or a PostgreSQL client, running, on
    /// a migrated schema.
    /// - Parameters:
    ///   - onWrite: told how long each write transaction took.
    ///   - readOnlyFallback: serving only: a database that exists but cannot be written (a
    ///     read-only disk) is opened read-only, and Kiosk serves what it holds.
    public func openStore(
        onWrite: StoreWriteTimer? = nil, readOnlyFallback: Bool = false, logger: Logger
    ) async throws(SettingsError) -> OpenedStore {
        switch store {
        case .sqlite(let path):
            // The data directory holds the database unless `database` says otherwise; with
            // PostgreSQL only serving needs it (images, the proxy's key), and makes it then.
            do {
                try PrivateFiles.createDirectory(dataDirectory)
            } catch {
                throw SettingsError("cannot use the data directory \(dataDirectory.path): \(error.localizedDescription)")
            }
            let existed = Self.prepareDatabaseFile(path)
            do {
                return OpenedStore(store: try SQLiteStore(path: path, onWrite: onWrite), postgres: nil, close: {})
            } catch {
                guard readOnlyFallback, existed, let readOnly = try? SQLiteStore(path: path, readOnly: true) else {
                    throw SettingsError("\(error)")  // the store's message names the file and the reason
                }
                logger.error(
                    "the database is read-only: serving what it holds, remembering nothing new",
                    metadata: ["error": "\(error)"])
                return OpenedStore(store: readOnly, postgres: nil, close: {})
            }
        case .postgres(let url):
            let configuration: PostgresClient.Configuration
            do {
                configuration = try PostgresURL.configuration(url)
            } catch {
                throw SettingsError("bad database URL: \(error)")
            }
            let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
            let running = Task { await client.run() }
            let store = PostgresStore(client: client, logger: logger, onWrite: onWrite)
            do {
                try await store.migrate()
            } catch {
                running.cancel()
                throw SettingsError(
                    "cannot use the database \(Self.redacted(url)): \(String(reflecting: error))")
            }
            return OpenedStore(store: store, postgres: client, close: { running.cancel() })
        }
    }

    /// Creates the database's folder (0700) and an empty file (0600) unless they exist.
    /// - Returns: whether the database existed before.
    static func prepareDatabaseFile(_ path: URL) -> Bool {
        do {
            try PrivateFiles.createDirectory(path.deletingLastPathComponent())
            return try !PrivateFiles.createEmptyFile(path)
        } catch {
            // The store says it better, with what it can still do (a read-only disk: serve what it has).
            return FileManager.default.fileExists(atPath: path.path)
        }
    }

    /// A database URL without its password, for messages and logs.
    public static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url) else { return "(unreadable URL)" }
        if components.password != nil { components.password = "…" }
        return components.string ?? "(unreadable URL)"
    }
}
