import Foundation
import Testing

@testable import KioskSettings

/// A setting is one entry: the file, the environment, the command line, the checks, the table and
/// the help all come from it. Shown on a settings type of the test's own, given one new entry.
@Suite struct SettingsSchemaTests {
    struct Knobs: Sendable, Equatable {
        var port = 8080
        var colour = "blue"
        var loud = false
        var tags: [String] = []
    }

    static let before: [SettingSpec<Knobs>] = [
        .integer("port", \.port, flag: "port", bounds: .refused(1...65_535), "the port"),
        .value("loud", \.loud, flag: "loud", "speak up"),
        .value("tags", \.tags, environment: "KNOB_TAGS", shown: "none", "labels"),
    ]
    /// The setting added: this line, and the property above.
    static let added: SettingSpec<Knobs> = .value(
        "colour", \.colour, flag: "colour", environment: "KNOB_COLOUR", "the colour of the knob",
        also: { $0.colour.isEmpty ? "colour (--colour) must not be empty" : nil })
    static let schema = SettingsSchema(before + [added])

    @Test func theAddedSettingIsReadFromEveryPlace() throws {
        let file = try Self.schema.fileLayer(Data(#"{"colour": "red"}"#.utf8), path: "knobs.json")
        #expect(try Self.schema.resolve(Knobs(), layers: [file]).colour == "red")
        let environment = Self.schema.environmentLayer(["KNOB_COLOUR": "green", "KNOB_TAGS": "a, b,,c"])
        let fromEnvironment = try Self.schema.resolve(Knobs(), layers: [file, environment])
        #expect(fromEnvironment.colour == "green" && fromEnvironment.tags == ["a", "b", "c"])
        let flags = try Self.schema.commandLineLayer(["--colour=violet", "--loud"])
        let fromFlags = try Self.schema.resolve(Knobs(), layers: [file, environment, flags])
        #expect(fromFlags.colour == "violet" && fromFlags.loud)
        // Without the entry, nothing knows the setting.
        let without = SettingsSchema(Self.before)
        #expect(throws: SettingsError.self) { try without.fileLayer(Data(#"{"colour": "red"}"#.utf8), path: "knobs.json") }
        #expect(throws: SettingsError.self) { try without.commandLineLayer(["--colour", "red"]) }
    }

    @Test func theAddedSettingIsChecked() throws {
        let error = #expect(throws: SettingsError.self) {
            try Self.schema.resolve(Knobs(), layers: [Self.schema.commandLineLayer(["--colour", ""])])
        }
        #expect(error?.description == "colour (--colour) must not be empty")
        let port = #expect(throws: SettingsError.self) {
            try Self.schema.resolve(Knobs(), layers: [Self.schema.commandLineLayer(["--port", "0"])])
        }
        #expect(port?.description == "port (--port) must be 1 to 65535, not 0")
    }

    @Test func theAddedSettingHasItsRowAndItsHelp() {
        let table = Self.schema.markdownTable(defaults: Knobs())
        #expect(table.contains("| `colour` | `--colour` | `KNOB_COLOUR` | `blue` | the colour of the knob |"))
        #expect(table.contains("| `port` | `--port` |  | `8080` | the port (1 to 65535) |"))
        let help = Self.schema.flagHelp(defaults: Knobs())
        #expect(help.contains("--colour <colour>  (default: blue)"))
        #expect(help.contains("--loud  (default: false)"))
        #expect(!Self.schema.flagHelp(defaults: Knobs(), except: ["colour"]).contains("--colour"))
    }
}
