import Foundation
import Testing
@testable import KioskCore

/// The real payloads under `Fixtures/`, which the test target copies into its bundle.
enum Fixture {
    /// A fixture that is not in the bundle: a clear failure instead of a nil to chase.
    struct Missing: Error, CustomStringConvertible {
        let name: String
        var description: String { "fixture \(name) is not in the test bundle's Fixtures folder" }
    }

    /// The URL of `Fixtures/<name>`, e.g. `Fixture.url("apple_v2_albums.json")`.
    static func url(_ name: String) throws -> URL {
        let file = URL(fileURLWithPath: name)
        let base = file.deletingPathExtension().lastPathComponent
        let ext = file.pathExtension
        guard let url = Bundle.module.url(forResource: base, withExtension: ext, subdirectory: "Fixtures") else {
            throw Missing(name: name)
        }
        return url
    }

    /// The bytes of `Fixtures/<name>`, exactly as captured.
    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: url(name))
    }

    /// Runs a seed parser and hands back its typed error, or nil when it did not throw. (Closures
    /// do not infer typed throws yet, so the body is untyped; anything but a SeedError is an issue.)
    static func seedError<T>(_ body: () throws -> T, sourceLocation: SourceLocation = #_sourceLocation) -> SeedError? {
        do {
            _ = try body()
            return nil
        } catch let error as SeedError {
            return error
        } catch {
            Issue.record(error, "expected a SeedError", sourceLocation: sourceLocation)
            return nil
        }
    }
}
