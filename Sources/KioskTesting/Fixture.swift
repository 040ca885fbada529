import Foundation

/// The real payloads under `Fixtures/` (captured from the seed sources), which this target copies
/// into its bundle: one copy for every test target.
public enum Fixture {
    /// A fixture that is not in the bundle: a clear failure instead of a nil to chase.
    public struct Missing: Error, CustomStringConvertible {
        public let name: String
        public var description: String { "fixture \(name) is not in KioskTesting's Fixtures folder" }
    }

    /// The URL of `Fixtures/<name>` (or `Fixtures/<folder>/<name>`), e.g.
    /// `Fixture.url("apple_v2_albums.json")`.
    public static func url(_ name: String, in folder: String? = nil) throws -> URL {
        let file = URL(fileURLWithPath: name)
        let base = file.deletingPathExtension().lastPathComponent
        let ext = file.pathExtension
        guard let url = Bundle.module.url(forResource: base, withExtension: ext, subdirectory: ["Fixtures", folder].compactMap { $0 }.joined(separator: "/")) else {
            throw Missing(name: [folder, name].compactMap { $0 }.joined(separator: "/"))
        }
        return url
    }

    /// The bytes of `Fixtures/<name>`, exactly as captured.
    public static func data(_ name: String, in folder: String? = nil) throws -> Data {
        try Data(contentsOf: url(name, in: folder))
    }
}
