import Foundation
import Testing

@testable import KioskSettings

/// README's settings table is made from the settings themselves, and lists every one.
@Suite struct SettingsTableTests {
    static let readme = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("README.md")

    @Test func everySettingHasARowAndEveryRowASetting() {
        let rows = Set(Settings.schema.specs.map(\.key))
        #expect(rows.count == Settings.schema.specs.count, "a setting is listed twice")
        let properties = Set(Mirror(reflecting: Settings(dataDirectory: URL(fileURLWithPath: "/"))).children.compactMap(\.label))
        #expect(rows == properties, "the config file's keys are the settings' names")
        let flags = Settings.schema.specs.compactMap(\.flag)
        #expect(Set(flags).count == flags.count, "a flag is used twice")
    }

    @Test func theReadmeShowsTheTableAsTheSettingsMakeIt() throws {
        let readme = try String(contentsOf: Self.readme, encoding: .utf8)
        #expect(
            readme.contains(Settings.markdownTable),
            "README.md's settings table differs from Settings.markdownTable; paste this in its place:\n\(Settings.markdownTable)")
    }

    @Test func theDefaultsShownAreTheDefaults() {
        let table = Settings.markdownTable
        let defaults = Settings(dataDirectory: URL(fileURLWithPath: "/"))
        #expect(table.contains("| `port` | `--port` |  | `\(defaults.port)` |"))
        #expect(table.contains("`\(defaults.retentionDays)`") && table.contains("`\(defaults.checksPerHost)`"))
        #expect(table.contains(Settings.databaseFileName))
    }
}
