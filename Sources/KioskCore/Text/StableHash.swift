/// FNV-1a, 64 bits: a hash that is the same in every process, for naming cache files and keys.
///
/// Not collision-resistant against an adversary: users check what they look up (the disk cache
/// stores the full URL in each file; the web app compares the entry it finds).
public enum StableHash {
    private static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    private static let prime: UInt64 = 0x0000_0100_0000_01b3

    /// The FNV-1a 64-bit hash of `text`'s UTF-8 bytes.
    public static func fnv1a64(_ text: String) -> UInt64 {
        var hash = offsetBasis
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* prime
        }
        return hash
    }

    /// The hash as 16 lowercase hex digits.
    public static func hex(_ text: String) -> String {
        let digits = String(fnv1a64(text), radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
