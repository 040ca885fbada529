import Foundation

// Maps charset labels as feeds write them (IANA names, Python codec names, bare code page
// numbers, `cs…` aliases) to the encodings Foundation can decode. Foundation reaches the legacy
// ones through CoreFoundation's converters, named by their CFStringEncoding numbers.

/// Resolves a charset label to a Foundation encoding.
enum CharsetNames {
    /// The encoding a label names, or nil when Kiosk can't decode it.
    static func encoding(for label: String) -> String.Encoding? {
        let name = label.lowercased().replacingOccurrences(of: "_", with: "-")
        if let known = named[name] { return known }
        if let page = codePageNumber(name), let cf = codePages[page] { return cfEncoding(cf) }
        if name.hasPrefix("iso-8859-") || name.hasPrefix("iso8859-"),
            let part = Int(name.split(separator: "-").last ?? ""),
            let cf = isoLatin[part]
        {
            return cfEncoding(cf)
        }
        return nil
    }

    /// `cp437`, `ibm-850`, `csibm865`, `windows-1251`, `437` → the code page number.
    private static func codePageNumber(_ name: String) -> Int? {
        for prefix in ["windows-", "csibm", "cspc", "ibm-", "ibm", "cp-", "cp", "ms", "x-cp", ""] where name.hasPrefix(prefix) {
            let digits = name.dropFirst(prefix.count).prefix { $0.isNumber }
            if !digits.isEmpty, let number = Int(digits) { return number }
        }
        return nil
    }

    private static func cfEncoding(_ value: UInt) -> String.Encoding {
        String.Encoding(rawValue: 0x8000_0000 | value)
    }

    private static let named: [String: String.Encoding] = [
        "utf-32": .utf32BigEndian, "utf-32be": .utf32BigEndian, "utf-32le": .utf32LittleEndian,
        "ucs-4": .utf32BigEndian, "iso-10646-ucs-4": .utf32BigEndian, "csucs4": .utf32BigEndian,
        "ucs-2": .utf16BigEndian, "iso-10646-ucs-2": .utf16BigEndian, "csunicode": .utf16BigEndian,
        "shift-jis": .shiftJIS, "sjis": .shiftJIS, "x-sjis": .shiftJIS, "windows-31j": .shiftJIS, "csshiftjis": .shiftJIS,
        "euc-jp": .japaneseEUC, "x-euc-jp": .japaneseEUC, "iso-2022-jp": .iso2022JP, "csiso2022jp": .iso2022JP,
        "koi8-r": cfEncoding(0xA02), "cskoi8r": cfEncoding(0xA02), "koi8-u": cfEncoding(0xA08),
        "big5": cfEncoding(0xA03), "csbig5": cfEncoding(0xA03), "big5-tw": cfEncoding(0xA03),
        "big5-hkscs": cfEncoding(0xA06), "cp950": cfEncoding(0xA03),
        "gb2312": cfEncoding(0x632), "csgb2312": cfEncoding(0x632), "euc-cn": cfEncoding(0x632),
        "gbk": cfEncoding(0x632), "x-gbk": cfEncoding(0x632), "gb18030": cfEncoding(0x632),
        "cp936": cfEncoding(0x632), "chinese": cfEncoding(0x632), "hz-gb-2312": cfEncoding(0xA05),
        "euc-kr": cfEncoding(0x940), "cseuckr": cfEncoding(0x940), "ks-c-5601-1987": cfEncoding(0x422),
        "korean": cfEncoding(0x940), "cp949": cfEncoding(0x422), "iso-2022-kr": cfEncoding(0x840),
        "macintosh": cfEncoding(0), "macroman": cfEncoding(0), "x-mac-roman": cfEncoding(0),
        "macgreek": cfEncoding(6), "maccyrillic": cfEncoding(7), "x-mac-cyrillic": cfEncoding(7),
        "maciceland": cfEncoding(37), "macturkish": cfEncoding(35), "maccentraleurope": cfEncoding(29),
        "maccroatian": cfEncoding(36), "macromania": cfEncoding(38), "macukraine": cfEncoding(0x98),
        "cp-is": cfEncoding(0x416), "cspc862latinhebrew": cfEncoding(0x417), "cspc775baltic": cfEncoding(0x406),
        "cspc850multilingual": cfEncoding(0x410), "ms-turk": cfEncoding(0x504), "ms-hebr": cfEncoding(0x505),
        "ms-greek": cfEncoding(0x503), "ms-ee": cfEncoding(0x501), "ms-cyrl": cfEncoding(0x502),
        "ms-arab": cfEncoding(0x506), "winbaltrim": cfEncoding(0x507), "ms-ansi": cfEncoding(0x500),
        "tis-620": cfEncoding(0x20B), "viscii": cfEncoding(0xA07),
        "ebcdic-cp-us": cfEncoding(0xC02), "ebcdic-cp-ca": cfEncoding(0xC02), "ebcdic-cp-wt": cfEncoding(0xC02),
        "ebcdic-cp-nl": cfEncoding(0xC02), "ebcdic-cp-be": cfEncoding(0xC02), "ebcdic-cp-ch": cfEncoding(0xC02),
        "csibm037": cfEncoding(0xC02), "csibm500": cfEncoding(0xC02), "ibm1140": cfEncoding(0xC02),
        "cp1140": cfEncoding(0xC02), "ibm500": cfEncoding(0xC02), "cp500": cfEncoding(0xC02),
    ]

    /// Code page numbers of DOS, Windows and EBCDIC encodings, as CFStringEncoding values.
    private static let codePages: [Int: UInt] = [
        37: 0xC02, 437: 0x400, 737: 0x405, 775: 0x406, 850: 0x410, 851: 0x411, 852: 0x412, 855: 0x413,
        857: 0x414, 860: 0x415, 861: 0x416, 862: 0x417, 863: 0x418, 864: 0x419, 865: 0x41A, 866: 0x41B,
        869: 0x41C, 874: 0x41D, 932: 0xA01, 936: 0x632, 949: 0x422, 950: 0xA03,
        1250: 0x501, 1251: 0x502, 1252: 0x500, 1253: 0x503, 1254: 0x504, 1255: 0x505, 1256: 0x506,
        1257: 0x507, 1258: 0x508,
    ]

    /// ISO 8859 parts as CFStringEncoding values.
    private static let isoLatin: [Int: UInt] = [
        2: 0x202, 3: 0x203, 4: 0x204, 5: 0x205, 6: 0x206, 7: 0x207, 8: 0x208, 9: 0x209, 10: 0x20A,
        11: 0x20B, 13: 0x20D, 14: 0x20E, 15: 0x20F, 16: 0x210,
    ]
}
