/// A minimal PNG writer: 8-bit RGB, no filtering, zlib with *stored* deflate blocks. The images are
/// generated placeholders, so size matters less than a small encoder that is obviously right.
enum PNGEncoder {
    private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// The largest payload of one stored deflate block.
    private static let maximumStoredBlock = 65_535

    /// A PNG of `width` × `height` pixels; `rgb` holds 3 bytes per pixel, row by row.
    static func encode(width: Int, height: Int, rgb: [UInt8]) -> [UInt8] {
        precondition(rgb.count == width * height * 3, "rgb must hold 3 bytes per pixel")
        var raw: [UInt8] = []
        raw.reserveCapacity(height * (width * 3 + 1))
        let stride = width * 3
        for row in 0..<height {
            raw.append(0)  // filter type None
            raw.append(contentsOf: rgb[(row * stride)..<((row + 1) * stride)])
        }

        var header: [UInt8] = []
        header += bigEndian(UInt32(width))
        header += bigEndian(UInt32(height))
        header += [8, 2, 0, 0, 0]  // bit depth 8, colour type RGB, deflate, adaptive filters, no interlace

        var png = signature
        png += chunk("IHDR", header)
        png += chunk("IDAT", zlibStored(raw))
        png += chunk("IEND", [])
        return png
    }

    /// A zlib stream holding `data` in stored (uncompressed) deflate blocks.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var stream: [UInt8] = [0x78, 0x01]  // deflate, 32K window, no dictionary; 0x7801 % 31 == 0
        stream.reserveCapacity(data.count + data.count / maximumStoredBlock * 5 + 16)
        var start = 0
        repeat {
            let end = min(start + maximumStoredBlock, data.count)
            let length = UInt16(end - start)
            stream.append(end == data.count ? 1 : 0)  // BFINAL, BTYPE 00 (stored)
            stream += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
            stream.append(contentsOf: data[start..<end])
            start = end
        } while start < data.count
        stream += bigEndian(Adler32.checksum(data))
        return stream
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        var chunk = bigEndian(UInt32(data.count))
        chunk += typeBytes
        chunk += data
        chunk += bigEndian(CRC32.checksum(typeBytes + data))
        return chunk
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
