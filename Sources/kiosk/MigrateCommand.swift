import ArgumentParser
import Foundation
import KioskPostgres
import KioskSettings

/// `kiosk migrate-to-postgres URL`: moves an installation's SQLite data (accounts, feeds,
/// entries, reading state, sessions) into an empty PostgreSQL database, for running replicas.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate-to-postgres",
        abstract: "Copy this installation's SQLite database into an empty PostgreSQL database (stop Kiosk first).")

    @OptionGroup var location: DataLocation

    @Argument(help: "The PostgreSQL database, postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE.")
    var url: String

    func run() async throws {
        try await UserCommand.running {
            // The copy's source is the SQLite file, even where KIOSK_DATABASE_URL is exported already
            // (as the message below says to do).
            var environment = ProcessInfo.processInfo.environment
            environment["KIOSK_DATABASE_URL"] = nil
            let settings = try location.settings(environment: environment)
            guard case .sqlite(let source) = settings.store else {
                throw ValidationError("This installation's database is already PostgreSQL (the config file's database).")
            }
            guard FileManager.default.fileExists(atPath: source.path) else {
                throw ValidationError("No SQLite database at \(source.path) (give the flags you serve with).")
            }
            var target = settings
            target.database = url
            guard case .postgres = target.store else {
                throw ValidationError("\(url) is not a postgres:// URL.")
            }
            let opened = try await target.openStore(logger: UserCommand.quietLogger)
            defer { opened.close() }
            guard let client = opened.postgres, let store = opened.store as? PostgresStore else {
                throw ValidationError("\(url) did not open as PostgreSQL.")
            }
            try await SQLiteToPostgres.copy(from: source, to: store, client: client) { table, rows in
                print("\(table): \(rows) rows")
            }
            print("Copied \(source.path) into the PostgreSQL database. Serve with KIOSK_DATABASE_URL set to it (or \"database\": the URL in the config file).")
        }
    }
}
