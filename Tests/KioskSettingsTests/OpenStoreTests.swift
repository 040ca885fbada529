import Foundation
import Logging
import Testing

@testable import KioskSettings

/// Every command opens the store one way: `Settings.openStore`.
@Suite struct OpenStoreTests {
    static let logger = Logger(label: "kiosk.settings.tests") { _ in SwiftLogNoOpLogHandler() }

    static func freshDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-open-\(UUID())")
    }

    @Test func aSecondOpenFindsWhatTheFirstKept() async throws {
        let directory = Self.freshDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let settings = Settings(dataDirectory: directory.appendingPathComponent("data"))
        let first = try await settings.openStore(logger: Self.logger)
        let id = try await first.store.deviceID()
        first.close()
        let second = try await settings.openStore(logger: Self.logger)
        #expect(try await second.store.deviceID() == id)
        #expect(second.postgres == nil)
    }

    @Test func anUnusableDataDirectoryIsSaidPlainly() async throws {
        let directory = Self.freshDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("a-file")
        try Data("x".utf8).write(to: file)
        let settings = Settings(dataDirectory: file.appendingPathComponent("data"))
        let error = await #expect(throws: SettingsError.self) { try await settings.openStore(logger: Self.logger) }
        #expect(error?.description.contains("cannot use the data directory") == true, "\(error?.description ?? "")")
    }
}
