/// FNV-1a, 64 bits: a hash that is the same in every process, for naming cache files and keys.
///
/// Not collision-resistant against an adversary: users check what they look up (the disk cache
/// stores the full URL in each file; the web app compares the entry it finds).
public enum StableHash {
    private static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    private static let prime: UInt64 = 0x0000_0100_0000_01b3

    /// The FNV-1a 64-bit hash of `text`'s UTF-8 bytes.
    public static func fnv1a64(_ text: String) -> UInt64 {
        fnv1a64(bytes: text.utf8)
    }

    /// The FNV-1a 64-bit hash of `bytes` (a file's contents, say).
    public static func fnv1a64(bytes: some Sequence<UInt8>) -> UInt64 {
        var hash = offsetBasis
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* prime
        }
        return hash
    }

    /// The hash of `text` as 16 lowercase hex digits.
    public static func hex(_ text: String) -> String {
        hex(fnv1a64(text))
    }

    /// The hash of `bytes` as 16 lowercase hex digits.
    public static func hex(bytes: some Sequence<UInt8>) -> String {
        hex(fnv1a64(bytes: bytes))
    }

    private static func hex(_ hash: UInt64) -> String {
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
