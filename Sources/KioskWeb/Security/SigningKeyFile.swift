import Crypto
import Foundation
import KioskSources

/// The image proxy's signing key, kept in the data directory so signed URLs (in pages the
/// service worker cached, say) stay valid across restarts. Whoever reads it can make the proxy
/// fetch anything, so it is written 0600 in a 0700 folder (``PrivateFiles``).
public enum SigningKeyFile {
    static let fileName = "image-proxy.key"

    /// Reads the key from `directory`, or makes and stores a new random one.
    public static func loadOrCreate(in directory: URL) throws -> SymmetricKey {
        let file = directory.appendingPathComponent(fileName)
        if let data = try? Data(contentsOf: file), data.count == 32 {
            return SymmetricKey(data: data)
        }
        try PrivateFiles.createDirectory(directory)
        let key = SymmetricKey(size: .bits256)
        try key.withUnsafeBytes { try PrivateFiles.writeAtomically($0, to: file) }
        return key
    }
}
