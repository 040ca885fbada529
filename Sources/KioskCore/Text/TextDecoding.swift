import Foundation

/// Turns the bytes of a document into text, the way a liberal reader must: a byte-order mark
/// wins, then an HTTP charset hint, then the document's own declaration; UTF-8 that is not valid
/// UTF-8 is read as Windows-1252 (a superset of Latin-1) instead of failing.
public enum TextDecoding {
    /// The bytes as UTF-8, transcoded when the document is in another encoding.
    /// - Parameters:
    ///   - bytes: the raw document.
    ///   - charsetHint: the `charset` parameter of an HTTP `Content-Type`, if any.
    public static func utf8Bytes(_ bytes: [UInt8], charsetHint: String? = nil) -> [UInt8] {
        let (encoding, bomLength) = sniffBOM(bytes)
        if let encoding {
            return transcode(Array(bytes[bomLength...]), from: encoding)
        }
        let declared = charsetHint.flatMap(normalizedCharset) ?? declaredEncoding(bytes)
        switch declared {
        case nil, "utf-8", "utf8", "unicode-1-1-utf-8":
            return isValidUTF8(bytes) ? bytes : repairedUTF8(bytes)
        case "iso-8859-1", "latin1", "latin-1", "l1", "windows-1252", "cp1252", "us-ascii", "ascii",
            "iso_8859-1", "iso8859-1", "ibm819", "cp819", "x-cp1252":
            // Many feeds declared Latin-1 are really UTF-8 (wholly, or with stray Latin-1 bytes).
            return repairedUTF8(bytes)
        case "utf-16le":
            return transcode(bytes, from: .utf16LittleEndian)
        case "utf-16be":
            return transcode(bytes, from: .utf16BigEndian)
        case "utf-16", "utf16":
            return transcode(bytes, from: looksLittleEndian(bytes) ? .utf16LittleEndian : .utf16BigEndian)
        case let other?:
            if let encoding = CharsetNames.encoding(for: other),
                let text = String(bytes: bytes, encoding: encoding)
            {
                return Array(text.utf8)
            }
            return isValidUTF8(bytes) ? bytes : repairedUTF8(bytes)
        }
    }

    /// The document as a `String`, decoded by the same rules as ``utf8Bytes(_:charsetHint:)``.
    public static func string(_ bytes: [UInt8], charsetHint: String? = nil) -> String {
        String(decoding: utf8Bytes(bytes, charsetHint: charsetHint), as: UTF8.self)
    }

    /// The document as a `String`, decoded by the same rules as ``utf8Bytes(_:charsetHint:)``.
    public static func string(_ data: Data, charsetHint: String? = nil) -> String {
        string([UInt8](data), charsetHint: charsetHint)
    }

    /// True when the bytes are well-formed UTF-8.
    /// Not-quite-UTF-8 read as UTF-8 where that is mostly right, else as Windows-1252.
    static func repairedUTF8(_ bytes: [UInt8]) -> [UInt8] {
        mostlyUTF8(bytes) ? mixedToUTF8(bytes) : windows1252ToUTF8(bytes)
    }

    /// Checked in place (`String(validating:)` made a copy of the whole page to throw away),
    /// ASCII eight bytes at a time.
    public static func isValidUTF8(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            let raw = UnsafeRawBufferPointer(buffer)
            let count = buffer.count
            var i = 0
            while i < count {
                if buffer[i] < 0x80 {
                    i += 1
                    while i + 8 <= count, raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                        i += 8
                    }
                    continue
                }
                guard let length = utf8SequenceLength(bytes, at: i) else { return false }
                i += length
            }
            return true
        }
    }

    /// Reads every byte as Windows-1252 (bytes 0x80–0x9F as its printable characters, the rest
    /// as Latin-1), which is what browsers do for documents labelled Latin-1.
    public static func windows1252ToUTF8(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 8)
        for byte in bytes {
            if byte < 0x80 {
                out.append(byte)
                continue
            }
            appendUTF8(windows1252Scalar(byte), to: &out)
        }
        return out
    }

    /// The Unicode scalar of a Windows-1252 byte (its five undefined bytes keep their C1 value).
    static func windows1252Scalar(_ byte: UInt8) -> UInt32 {
        (0x80...0x9F).contains(byte) ? windows1252High[Int(byte - 0x80)] : UInt32(byte)
    }

    /// Keeps every well-formed UTF-8 sequence and reads each byte that is not part of one as
    /// Windows-1252: the best reading of documents that mix the two, and of plain Latin-1 too.
    public static func mixedToUTF8(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 8)
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            if byte < 0x80 {
                out.append(byte)
                i += 1
            } else if let length = utf8SequenceLength(bytes, at: i) {
                out.append(contentsOf: bytes[i..<(i + length)])
                i += length
            } else {
                appendUTF8(windows1252Scalar(byte), to: &out)
                i += 1
            }
        }
        return out
    }

    /// Whether multi-byte UTF-8 sequences outnumber the high bytes that fit no sequence.
    static func mostlyUTF8(_ bytes: [UInt8]) -> Bool {
        var sequences = 0
        var strays = 0
        var i = 0
        while i < bytes.count {
            if bytes[i] < 0x80 {
                i += 1
            } else if let length = utf8SequenceLength(bytes, at: i) {
                sequences += 1
                i += length
            } else {
                strays += 1
                i += 1
            }
        }
        return sequences > strays
    }

    /// The length of the well-formed UTF-8 sequence starting at `i`, or nil.
    private static func utf8SequenceLength(_ b: [UInt8], at i: Int) -> Int? {
        let lead = b[i]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: return nil
        }
        guard i + length <= b.count, (low...high).contains(b[i + 1]) else { return nil }
        for k in 2..<length where !(0x80...0xBF).contains(b[i + k]) { return nil }
        return length
    }

    static func appendUTF8(_ scalar: UInt32, to out: inout [UInt8]) {
        switch scalar {
        case ..<0x80:
            out.append(UInt8(scalar))
        case ..<0x800:
            out.append(UInt8(0xC0 | (scalar >> 6)))
            out.append(UInt8(0x80 | (scalar & 0x3F)))
        case ..<0x10000:
            out.append(UInt8(0xE0 | (scalar >> 12)))
            out.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (scalar & 0x3F)))
        default:
            out.append(UInt8(0xF0 | (scalar >> 18)))
            out.append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
            out.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (scalar & 0x3F)))
        }
    }

    // MARK: - Detection

    private static func sniffBOM(_ b: [UInt8]) -> (String.Encoding?, Int) {
        if b.count >= 4, b[0] == 0, b[1] == 0, b[2] == 0xFE, b[3] == 0xFF { return (.utf32BigEndian, 4) }
        if b.count >= 4, b[0] == 0xFF, b[1] == 0xFE, b[2] == 0, b[3] == 0 { return (.utf32LittleEndian, 4) }
        if b.count >= 3, b[0] == 0xEF, b[1] == 0xBB, b[2] == 0xBF { return (.utf8, 3) }
        if b.count >= 2, b[0] == 0xFE, b[1] == 0xFF { return (.utf16BigEndian, 2) }
        if b.count >= 2, b[0] == 0xFF, b[1] == 0xFE { return (.utf16LittleEndian, 2) }
        // No BOM, but the first character `<` shows a wide encoding, or EBCDIC's "<?xm".
        if b.count >= 4, b[0] == 0x4C, b[1] == 0x6F, b[2] == 0xA7, b[3] == 0x94 { return (ebcdic(b), 0) }
        if b.count >= 4, b[0] == 0, b[1] == 0, b[2] == 0, b[3] == 0x3C { return (.utf32BigEndian, 0) }
        if b.count >= 4, b[0] == 0x3C, b[1] == 0, b[2] == 0, b[3] == 0 { return (.utf32LittleEndian, 0) }
        if b.count >= 2, b[0] == 0, b[1] == 0x3C { return (.utf16BigEndian, 0) }
        if b.count >= 2, b[0] == 0x3C, b[1] == 0 { return (.utf16LittleEndian, 0) }
        return (nil, 0)
    }

    /// The EBCDIC page a document declares (read through code page 037), defaulting to 037.
    private static func ebcdic(_ b: [UInt8]) -> String.Encoding? {
        let fallback = CharsetNames.encoding(for: "cp037")
        guard let fallback, let prologue = String(bytes: b.prefix(256), encoding: fallback),
            let declared = declaredEncoding(Array(prologue.utf8))
        else { return fallback }
        return CharsetNames.encoding(for: declared) ?? fallback
    }

    private static func looksLittleEndian(_ b: [UInt8]) -> Bool {
        b.count >= 2 && b[1] == 0 && b[0] != 0
    }

    /// The `encoding` of an XML declaration at the start of the document, lowercased.
    static func declaredEncoding(_ bytes: [UInt8]) -> String? {
        // Only look at the prologue: `<?xml ... ?>` within the first 512 bytes.
        let window = bytes.prefix(512)
        guard let start = find(Array("<?xml".utf8), in: window),
            let end = find(Array("?>".utf8), in: window[start...])
        else { return nil }
        let decl = window[start..<end]
        guard let key = find(Array("encoding".utf8), in: decl) else { return nil }
        var i = key + 8
        while i < end, decl[i] == 0x20 || decl[i] == 0x3D || decl[i] == 0x09 { i += 1 }
        guard i < end, decl[i] == 0x22 || decl[i] == 0x27 else { return nil }
        let quote = decl[i]
        i += 1
        var name: [UInt8] = []
        while i < end, decl[i] != quote { name.append(decl[i]); i += 1 }
        return normalizedCharset(String(decoding: name, as: UTF8.self))
    }

    private static func find<C: Collection>(_ needle: [UInt8], in hay: C) -> C.Index?
    where C.Element == UInt8 {
        guard let first = needle.first else { return nil }
        var i = hay.startIndex
        while i != hay.endIndex {
            if hay[i] == first, hay[i...].starts(with: needle) { return i }
            i = hay.index(after: i)
        }
        return nil
    }

    static func normalizedCharset(_ name: String) -> String? {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines.union(CharacterSet(charactersIn: "\"'")))
        return trimmed.isEmpty ? nil : trimmed.lowercased()
    }

    private static func transcode(_ bytes: [UInt8], from encoding: String.Encoding) -> [UInt8] {
        if encoding == .utf8 {
            return isValidUTF8(bytes) ? bytes : repairedUTF8(bytes)
        }
        if let text = String(bytes: bytes, encoding: encoding) {
            return Array(text.utf8)
        }
        return isValidUTF8(bytes) ? bytes : repairedUTF8(bytes)
    }

    /// Unicode scalars of Windows-1252 bytes 0x80–0x9F (undefined ones map to the C1 control).
    private static let windows1252High: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
        0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F,
        0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
        0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
    ]
}
