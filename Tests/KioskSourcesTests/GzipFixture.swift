/// Gzip bodies built by hand, since Foundation on Linux has no compressor: stored (uncompressed)
/// deflate blocks for ordinary bodies, and a fixed-Huffman run of zeros for a decompression bomb.
enum GzipFixture {
    /// `bytes` as a valid gzip member made of stored deflate blocks (ratio about 1).
    static func stored(_ bytes: [UInt8]) -> [UInt8] {
        var out = header
        var offset = 0
        repeat {
            let length = min(65_535, bytes.count - offset)
            let isLast = offset + length == bytes.count
            out.append(isLast ? 0x01 : 0x00)  // BFINAL, BTYPE=00 (stored), padded to the byte
            out += littleEndian16(UInt16(length)) + littleEndian16(~UInt16(length))
            out += bytes[offset..<offset + length]
            offset += length
        } while offset < bytes.count
        return out + trailer(crc: crc32(bytes), size: bytes.count)
    }

    /// A gzip member that inflates to `size` zero bytes from about `size / 160` bytes: one literal
    /// zero, then back-references of length 258 at distance 1 (13 bits each with the fixed codes).
    static func zeroBomb(size: Int) -> [UInt8] {
        var bits = BitWriter()
        bits.write(1, count: 1)  // BFINAL
        bits.write(1, count: 2)  // BTYPE=01, fixed Huffman
        bits.writeCode(0b0011_0000, length: 8)  // literal 0x00
        var produced = 1
        while produced + 258 <= size {
            bits.writeCode(0b1100_0101, length: 8)  // length code 285: 258 bytes
            bits.writeCode(0, length: 5)  // distance code 0: distance 1
            produced += 258
        }
        while produced < size {
            bits.writeCode(0b0011_0000, length: 8)  // trailing literal zeros
            produced += 1
        }
        bits.writeCode(0, length: 7)  // end of block (256)
        return header + bits.finished + trailer(crc: crc32OfZeros(count: size), size: size)
    }

    private static let header: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xFF]

    private static func trailer(crc: UInt32, size: Int) -> [UInt8] {
        littleEndian32(crc) + littleEndian32(UInt32(truncatingIfNeeded: size))
    }

    private static func littleEndian16(_ value: UInt16) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8)]
    }

    private static func littleEndian32(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
    }

    private static let crcTable: [UInt32] = (0..<256).map { index in
        var crc = UInt32(index)
        for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        return crc
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return ~crc
    }

    static func crc32OfZeros(count: Int) -> UInt32 {
        crcTable.withUnsafeBufferPointer { table in
            var crc: UInt32 = 0xFFFF_FFFF
            for _ in 0..<count { crc = table[Int(crc & 0xFF)] ^ (crc >> 8) }
            return ~crc
        }
    }

    /// Deflate's bit order: fields least significant bit first, Huffman codes most significant first.
    private struct BitWriter {
        var bytes: [UInt8] = []
        private var current: UInt8 = 0
        private var used = 0

        mutating func write(_ value: UInt32, count: Int) {
            for index in 0..<count { push(UInt8((value >> UInt32(index)) & 1)) }
        }

        mutating func writeCode(_ code: UInt32, length: Int) {
            for index in stride(from: length - 1, through: 0, by: -1) { push(UInt8((code >> UInt32(index)) & 1)) }
        }

        private mutating func push(_ bit: UInt8) {
            current |= bit << UInt8(used)
            used += 1
            if used == 8 {
                bytes.append(current)
                current = 0
                used = 0
            }
        }

        /// Flushes the last partial byte.
        var finished: [UInt8] { used == 0 ? bytes : bytes + [current] }
    }
}
