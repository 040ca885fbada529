/// Reads back the PNGs the server generates: every chunk's CRC-32, the IHDR fields, and the
/// stored deflate blocks of IDAT with their Adler-32, so a broken encoder cannot pass.
enum PNGCheck {
    struct Invalid: Error, CustomStringConvertible {
        let description: String
    }

    /// Width and height from IHDR.
    static func size(_ png: [UInt8]) throws -> (Int, Int) {
        guard png.count >= 24, Array(png[12..<16]) == Array("IHDR".utf8) else { throw Invalid(description: "no IHDR") }
        return (Int(word(png, 16)), Int(word(png, 20)))
    }

    static func validate(_ png: [UInt8]) throws {
        guard Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else { throw Invalid(description: "signature") }
        var offset = 8
        var types: [String] = []
        var idat: [UInt8] = []
        while offset + 12 <= png.count {
            let length = Int(word(png, offset))
            let type = String(decoding: png[(offset + 4)..<(offset + 8)], as: UTF8.self)
            guard offset + 12 + length <= png.count else { throw Invalid(description: "truncated \(type)") }
            let data = Array(png[(offset + 8)..<(offset + 8 + length)])
            guard crc32(Array(type.utf8) + data) == word(png, offset + 8 + length) else { throw Invalid(description: "CRC of \(type)") }
            types.append(type)
            if type == "IDAT" { idat += data }
            offset += 12 + length
        }
        guard offset == png.count, types.first == "IHDR", types.last == "IEND" else { throw Invalid(description: "chunks \(types)") }
        let (width, height) = try size(png)
        guard Array(png[24..<29]) == [8, 2, 0, 0, 0] else { throw Invalid(description: "IHDR fields") }

        // zlib header, then stored blocks only.
        guard idat.count >= 6, (Int(idat[0]) << 8 | Int(idat[1])) % 31 == 0, idat[0] & 0x0F == 8 else {
            throw Invalid(description: "zlib header")
        }
        var raw: [UInt8] = []
        var cursor = 2
        var final = false
        while !final {
            guard cursor + 5 <= idat.count else { throw Invalid(description: "block header") }
            final = idat[cursor] & 1 == 1
            guard idat[cursor] >> 1 & 3 == 0 else { throw Invalid(description: "not a stored block") }
            let length = Int(idat[cursor + 1]) | Int(idat[cursor + 2]) << 8
            let complement = Int(idat[cursor + 3]) | Int(idat[cursor + 4]) << 8
            guard length ^ 0xFFFF == complement, cursor + 5 + length <= idat.count else { throw Invalid(description: "LEN/NLEN") }
            raw += idat[(cursor + 5)..<(cursor + 5 + length)]
            cursor += 5 + length
        }
        guard cursor + 4 == idat.count, adler32(raw) == word(idat, cursor) else { throw Invalid(description: "Adler-32") }
        guard raw.count == height * (width * 3 + 1) else { throw Invalid(description: "pixel data size") }
        for row in 0..<height where raw[row * (width * 3 + 1)] != 0 { throw Invalid(description: "filter byte of row \(row)") }
    }

    private static func word(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }

    /// Bitwise CRC-32, written independently of the server's table-driven one.
    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    private static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }
}
