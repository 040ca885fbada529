import Foundation

extension Settings {
    /// The settings: the defaults, then `file`, then the environment, then `flags`, each later one
    /// winning; then every setting's check (``schema``: bounds kept, what cannot work refused).
    public static func resolve(
        file: SettingLayer = SettingLayer(), environment: [String: String], flags: SettingLayer = SettingLayer()
    ) throws(SettingsError) -> Settings {
        try schema.resolve(
            Settings(dataDirectory: defaultDataDirectory(environment)),
            layers: [file, schema.environmentLayer(environment), flags]
        ) { settings in
            // Demo mode keeps its own data, so trying it never touches a real installation's.
            if settings.demo { settings.dataDirectory = settings.dataDirectory.appendingPathComponent("demo") }
        }
    }

    /// Reads the config file at `path` (JSON, keys as in ``schema``), with a message that says what
    /// is wrong and where.
    public static func loadFile(_ path: String) throws(SettingsError) -> SettingLayer {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw SettingsError("cannot read the config file \(path): \(error.localizedDescription)")
        }
        return try schema.fileLayer(data, path: path)
    }
}
