/// Adler-32, the checksum closing a zlib stream.
enum Adler32 {
    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        // 5552 is the most bytes that can be summed before the 32-bit sums could overflow.
        var start = 0
        while start < bytes.count {
            let end = min(start + 5552, bytes.count)
            for index in start..<end {
                a &+= UInt32(bytes[index])
                b &+= a
            }
            a %= 65_521
            b %= 65_521
            start = end
        }
        return b << 16 | a
    }
}
