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
    /// (a command's own, from the settings' table), each later one winning.
    func settings(
        _ more: SettingLayer = SettingLayer(), environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(SettingsError) -> Settings {
        var file = SettingLayer()
        if let config { file = try Settings.loadFile(config) }
        var mine: [String] = []
        if demo { mine.append("--demo") }
        if let dataDirectory { mine += ["--data-directory", dataDirectory] }
        var flags = try Settings.schema.commandLineLayer(mine)
        flags.values.merge(more.values) { $1 }
        return try Settings.resolve(file: file, environment: environment, flags: flags)
    }

    /// The settings' flags this group declares itself; `kiosk serve` takes the rest from the table.
    static let declaredFlags: Set<String> = ["demo", "data-directory"]
}
