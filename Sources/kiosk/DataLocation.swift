import ArgumentParser
import Foundation
import KioskWeb

/// Where Kiosk keeps its data, from the flags serving and the other commands share, so
/// `kiosk user add` finds the same database as `kiosk` run with the same flags.
struct DataLocation: ParsableArguments {
    @Flag(help: "Serve the embedded sample sources on loopback and read them instead of the live ones.")
    var demo = false

    @Option(help: "A JSON config file (owner's name, sources, NewsAPI key, data directory...).")
    var config: String?

    @Option(help: "Where Kiosk keeps its data (default: $XDG_DATA_HOME/kiosk or ~/.local/share/kiosk).")
    var dataDirectory: String?

    func configFile() throws(StartupError) -> ConfigFile {
        try config.map(ConfigFile.load) ?? ConfigFile()
    }

    func dataDirectoryURL(_ file: ConfigFile) -> URL {
        let base: URL
        if let path = dataDirectory ?? file.dataDirectory {
            base = URL(fileURLWithPath: path)
        } else if let xdg = ProcessInfo.processInfo.environment["XDG_DATA_HOME"], !xdg.isEmpty {
            base = URL(fileURLWithPath: xdg).appendingPathComponent("kiosk")
        } else {
            base = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share/kiosk")
        }
        // Demo mode keeps its own data, so trying it never touches a real installation's.
        return demo ? base.appendingPathComponent("demo") : base
    }

    func databaseURL(_ file: ConfigFile) -> URL {
        file.database.map { URL(fileURLWithPath: $0) } ?? dataDirectoryURL(file).appendingPathComponent("kiosk.sqlite")
    }

    /// The PostgreSQL database, when one is configured: `KIOSK_DATABASE_URL`, else the config
    /// file's `database` when it is a `postgres://` URL. Nil: SQLite.
    func postgresURL(_ file: ConfigFile) -> String? {
        if let url = ProcessInfo.processInfo.environment["KIOSK_DATABASE_URL"], !url.isEmpty { return url }
        guard let database = file.database, Self.isPostgresURL(database) else { return nil }
        return database
    }

    static func isPostgresURL(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }
}
