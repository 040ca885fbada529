import Foundation
import KioskStore
import Testing

@testable import KioskWeb

/// The config file's reader settings.
@Suite struct ConfigFileTests {
    private func decode(_ json: String) throws -> ConfigFile {
        try JSONDecoder().decode(ConfigFile.self, from: Data(json.utf8))
    }

    @Test func readerSettingsHaveSafeDefaults() throws {
        let file = try decode("{}")
        #expect(file.allowPrivateFeeds == nil)
        #expect(file.retention == RetentionPolicy(maxAge: .seconds(60 * 86_400), maxPerFeed: 1_000))
    }

    @Test func retentionIsReadAndKeptWithinBounds() throws {
        #expect(try decode(#"{"retentionDays": 7, "retentionPerFeed": 200}"#).retention
            == RetentionPolicy(maxAge: .seconds(7 * 86_400), maxPerFeed: 200))
        #expect(try decode(#"{"retentionDays": -5, "retentionPerFeed": 0}"#).retention
            == RetentionPolicy(maxAge: .seconds(86_400), maxPerFeed: 10))
        #expect(try decode(#"{"retentionDays": 999999999}"#).retention.maxAge == .seconds(3_650 * 86_400))
        #expect(try decode(#"{"allowPrivateFeeds": true}"#).allowPrivateFeeds == true)
    }
}
