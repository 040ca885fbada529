import ArgumentParser
import Foundation
import KioskSettings

/// The flags serving and the other commands share, so `kiosk user add` finds the same database as
/// `kiosk` run with the same flags (and environment).
struct DataLocation: ParsableArguments {
    @Flag(help: "Serve the embedded sample sources on loopback and read them instead of the live ones.")
    var demo = false

    @Option(help: "A JSON config file (owner's name, sources, NewsAPI key, data directory...; see README's settings table).")
    var config: String?

    @Option(help: "Where Kiosk keeps its data (default: $XDG_DATA_HOME/kiosk or ~/.local/share/kiosk).")
    var dataDirectory: String?

    /// The settings: the defaults, the config file, the environment, then these flags and `more`
    /// (a command's own), each later one winning.
    func settings(
        _ more: PartialSettings = PartialSettings(), environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(SettingsError) -> Settings {
        var file = PartialSettings()
        if let config { file = try PartialSettings.load(config) }
        var flags = more
        if demo { flags.demo = true }
        if let dataDirectory { flags.dataDirectory = dataDirectory }
        return try Settings.resolve(file: file, environment: environment, flags: flags)
    }
}
