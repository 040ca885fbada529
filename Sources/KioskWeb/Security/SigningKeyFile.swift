import Crypto
import Foundation

/// The image proxy's signing key, kept in the data directory so signed URLs (in pages the
/// service worker cached, say) stay valid across restarts.
public enum SigningKeyFile {
    static let fileName = "image-proxy.key"

    /// Reads the key from `directory`, or makes and stores a new random one.
    public static func loadOrCreate(in directory: URL) throws -> SymmetricKey {
        let file = directory.appendingPathComponent(fileName)
        if let data = try? Data(contentsOf: file), data.count == 32 {
            return SymmetricKey(data: data)
        }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let key = SymmetricKey(size: .bits256)
        let data = key.withUnsafeBytes { Data($0) }
        try data.write(to: file, options: [.atomic])
        try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        return key
    }
}
