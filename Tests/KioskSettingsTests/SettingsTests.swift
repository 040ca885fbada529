import Foundation
import KioskStore
import Testing

@testable import KioskSettings

/// Where each setting comes from, and in which order: defaults, the config file, the environment,
/// the command line.
@Suite struct SettingsTests {
    private func file(_ json: String) throws -> SettingLayer {
        try Settings.schema.fileLayer(Data(json.utf8), path: "test.json")
    }

    private func flags(_ arguments: String...) throws -> SettingLayer {
        try Settings.schema.commandLineLayer(arguments)
    }

    private let home = ["XDG_DATA_HOME": "/xdg"]

    @Test func nothingGivenIsTheDefaults() throws {
        let settings = try Settings.resolve(environment: home)
        #expect(settings == Settings(dataDirectory: URL(fileURLWithPath: "/xdg/kiosk")))
        #expect(settings.host == "127.0.0.1" && settings.port == 8080)
        #expect(settings.store == .sqlite(URL(fileURLWithPath: "/xdg/kiosk/kiosk.sqlite")))
        #expect(settings.retention == RetentionPolicy(maxAge: .seconds(60 * 86_400), maxPerFeed: 1_000))
        #expect(!settings.allowPrivateFeeds && settings.allowedHosts.isEmpty && settings.newsAPIKey == nil)
    }

    @Test func withoutXDGDataHomeTheDataLivesInTheHomeFolder() throws {
        let settings = try Settings.resolve(environment: ["XDG_DATA_HOME": ""])
        #expect(settings.dataDirectory.path.hasSuffix("/.local/share/kiosk"))
    }

    @Test func theFileThenTheEnvironmentThenTheFlagsWin() throws {
        let fromFile = try file(
            #"{"port": 9000, "host": "10.0.0.1", "newsAPIKey": "from-file", "database": "/srv/k.sqlite", "ownerName": "Ann"}"#)
        let flags = try flags("--port", "9100")
        let environment = home.merging(["NEWSAPI_KEY": "from-env", "KIOSK_DATABASE_URL": "postgres://k@db/k"]) { $1 }
        let settings = try Settings.resolve(file: fromFile, environment: environment, flags: flags)
        #expect(settings.port == 9100)  // flag over file
        #expect(settings.host == "10.0.0.1")  // file over default
        #expect(settings.ownerName == "Ann")
        #expect(settings.newsAPIKey == "from-env")  // environment over file
        #expect(settings.store == .postgres("postgres://k@db/k"))
        // An empty variable is no value.
        let empty = try Settings.resolve(
            file: fromFile, environment: home.merging(["NEWSAPI_KEY": "", "KIOSK_DATABASE_URL": ""]) { $1 })
        #expect(empty.newsAPIKey == "from-file")
        #expect(empty.store == .sqlite(URL(fileURLWithPath: "/srv/k.sqlite")))
    }

    @Test func theConfigFileMayNameAPostgresDatabase() throws {
        let settings = try Settings.resolve(file: file(#"{"database": "postgresql://k@db/k"}"#), environment: home)
        #expect(settings.store == .postgres("postgresql://k@db/k"))
    }

    @Test func aDatabaseWithASchemeIsAServerNeverAFile() throws {
        // A mistyped URL must fail as a bad URL, not quietly become an SQLite file.
        for url in ["POSTGRES://k@db/k", "postgress://k@db/k"] {
            let settings = try Settings.resolve(environment: home.merging(["KIOSK_DATABASE_URL": url]) { $1 })
            #expect(settings.store == .postgres(url), "\(url)")
        }
        #expect(try Settings.resolve(file: file(#"{"database": "/srv/kiosk.sqlite"}"#), environment: home).store
            == .sqlite(URL(fileURLWithPath: "/srv/kiosk.sqlite")))
    }

    @Test func demoModeKeepsItsOwnData() throws {
        #expect(try Settings.resolve(environment: home, flags: flags("--demo")).dataDirectory.path == "/xdg/kiosk/demo")
        let settings = try Settings.resolve(
            environment: home, flags: flags("--demo", "--data-directory", "/srv/kiosk"))
        #expect(settings.dataDirectory.path == "/srv/kiosk/demo")
        #expect(settings.store == .sqlite(URL(fileURLWithPath: "/srv/kiosk/demo/kiosk.sqlite")))
    }

    @Test func retentionIsKeptWithinBounds() throws {
        #expect(try Settings.resolve(file: file(#"{"retentionDays": 7, "retentionPerFeed": 200}"#), environment: home).retention
            == RetentionPolicy(maxAge: .seconds(7 * 86_400), maxPerFeed: 200))
        #expect(try Settings.resolve(file: file(#"{"retentionDays": -5, "retentionPerFeed": 0}"#), environment: home).retention
            == RetentionPolicy(maxAge: .seconds(86_400), maxPerFeed: 10))
        #expect(try Settings.resolve(file: file(#"{"retentionDays": 999999999}"#), environment: home).retention.maxAge
            == .seconds(3_650 * 86_400))
    }

    @Test func theConfigFileNamesHostsAndProxies() throws {
        let settings = try Settings.resolve(
            file: file(#"{"allowedHosts": ["reader.example.org"], "trustedProxies": ["10.0.0.2"], "allowPrivateFeeds": true}"#),
            environment: home)
        #expect(settings.allowedHosts == ["reader.example.org"])
        #expect(settings.trustedProxies == ["10.0.0.2"])
        #expect(settings.allowPrivateFeeds)
    }

    @Test func whatCannotWorkIsRefusedWithTheSettingsName() throws {
        for (json, named) in [
            (#"{"port": 70000}"#, "port"), (#"{"leaseSeconds": 5}"#, "leaseSeconds"),
            (#"{"checksPerHost": 0}"#, "checksPerHost"), (#"{"metricsPort": 8080}"#, "metrics port"),
        ] {
            let error = #expect(throws: SettingsError.self) { try Settings.resolve(file: file(json), environment: home) }
            #expect(error?.description.contains(named) == true, "\(json): \(error?.description ?? "")")
        }
    }

    @Test func aBadConfigFileSaysWhereAndWhat() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-settings-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: path) }
        try Data(#"{"port": "eighty"}"#.utf8).write(to: path)
        let error = #expect(throws: SettingsError.self) { try Settings.resolve(file: Settings.loadFile(path.path), environment: home) }
        #expect(error?.description.contains(path.path) == true)
        #expect(error?.description.contains("at port: it must be a whole number") == true, "\(error?.description ?? "")")
        let missing = #expect(throws: SettingsError.self) { try Settings.loadFile(path.path + ".missing") }
        #expect(missing?.description.contains("cannot read the config file") == true)
    }

    @Test func aMisspeltSettingIsRefusedWithTheNearestName() throws {
        let key = #expect(throws: SettingsError.self) { try file(#"{"retentionDay": 3}"#) }
        #expect(key?.description.contains("no setting is called retentionDay (did you mean retentionDays?)") == true, "\(key?.description ?? "")")
        let flag = #expect(throws: SettingsError.self) { try flags("--lease-second", "40") }
        #expect(flag?.description == "unknown option --lease-second (did you mean --lease-seconds?)")
        let notAnObject = #expect(throws: SettingsError.self) { try file("[1]") }
        #expect(notAnObject?.description.contains("one JSON object") == true, "\(notAnObject?.description ?? "")")
    }

    @Test func flagsTakeTheirValueEitherWayAndSayWhatTheyNeed() throws {
        let settings = try Settings.resolve(
            environment: home, flags: flags("--port=9001", "--lease-seconds", "45", "--replica-name", "a"))
        #expect(settings.port == 9001 && settings.leaseSeconds == 45 && settings.replicaName == "a")
        let missing = #expect(throws: SettingsError.self) { try flags("--port") }
        #expect(missing?.description == "--port needs a value")
        let unreadable = #expect(throws: SettingsError.self) { try Settings.resolve(environment: home, flags: flags("--port", "eighty")) }
        #expect(unreadable?.description == #"--port (port) must be a whole number, not "eighty""#)
    }

    @Test func aNullInTheFileIsNoValueForWhatMayBeAbsent() throws {
        let settings = try Settings.resolve(file: file(#"{"metricsPort": null, "newsAPIKey": null}"#), environment: home)
        #expect(settings.metricsPort == nil && settings.newsAPIKey == nil)
        #expect(throws: SettingsError.self) { try Settings.resolve(file: file(#"{"port": null}"#), environment: home) }
    }
}
