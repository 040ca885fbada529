import Foundation
import KioskDemo
import KioskSQLite
import KioskSettings
import KioskSources
import KioskStore
import Testing

@testable import KioskSources
@testable import KioskWeb

/// What Kiosk keeps is its user's alone: over a fresh data directory, start-up creates the
/// folders 0700 and the database (its WAL and SHM files too), the proxy's key and the cached
/// images 0600, whatever the umask lets others read.
@Suite struct DataFileModeTests {
    static func mode(_ url: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return try #require(attributes[.posixPermissions] as? Int) & 0o777
    }

    static func freshDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-modes-\(UUID())").appendingPathComponent("data")
    }

    @Test func aStartOverAFreshDirectoryKeepsEverythingPrivate() async throws {
        let directory = Self.freshDirectory()
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        let config = AppConfig(
            catalogue: .demo(base: try #require(URL(string: "http://127.0.0.1:9"))), dataDirectory: directory)

        // What `WebDependencies.live` does first: the store, opened as every command opens it.
        let opened = try await config.settings.openStore(logger: .quiet)
        let store = try #require(opened.store as? SQLiteStore)
        _ = try await store.deviceID()
        _ = try SigningKeyFile.loadOrCreate(in: config.dataDirectory)
        let images = DiskImageCache(directory: directory.appendingPathComponent("images"), limitBytes: 1 << 20)
        await images.store(
            CachedImage(bytes: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0], contentType: "image/png"),
            for: "https://example.org/a.png")

        for folder in [directory.deletingLastPathComponent(), directory, directory.appendingPathComponent("images")] {
            #expect(try Self.mode(folder) == 0o700, "\(folder.path)")
        }
        let files = ["kiosk.sqlite", "kiosk.sqlite-wal", "kiosk.sqlite-shm", SigningKeyFile.fileName].map {
            directory.appendingPathComponent($0)
        }
        let cached = try FileManager.default.contentsOfDirectory(
            at: directory.appendingPathComponent("images"), includingPropertiesForKeys: nil)
        #expect(cached.count == 1)
        for file in files + cached {
            #expect(try Self.mode(file) == 0o600, "\(file.lastPathComponent)")
        }
        try store.close()
        // A second start finds the database, and keeps it private.
        let again = try await config.settings.openStore(logger: .quiet)
        _ = try await again.store.deviceID()
        #expect(try Self.mode(directory.appendingPathComponent("kiosk.sqlite")) == 0o600)
    }

    @Test func theKeyAloneMakesAPrivateFolder() throws {
        let directory = Self.freshDirectory()
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        let key = try SigningKeyFile.loadOrCreate(in: directory)
        #expect(try Self.mode(directory) == 0o700)
        #expect(try Self.mode(directory.appendingPathComponent(SigningKeyFile.fileName)) == 0o600)
        // It is read back, not replaced.
        #expect(try SigningKeyFile.loadOrCreate(in: directory) == key)
    }

    @Test func aDatabaseElsewhereGetsAPrivateFolderToo() async throws {
        let directory = Self.freshDirectory()
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        let database = directory.deletingLastPathComponent().appendingPathComponent("db/reader.sqlite")
        var settings = Settings(dataDirectory: directory)
        settings.database = database.path
        _ = try await settings.openStore(logger: .quiet)
        #expect(try Self.mode(database.deletingLastPathComponent()) == 0o700)
        #expect(try Self.mode(database) == 0o600)
    }
}
