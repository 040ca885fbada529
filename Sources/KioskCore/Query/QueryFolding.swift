import Foundation

/// Text as words are matched: folded to UTF-8 bytes, and cut into words.
///
/// Bytes rather than `String`: both sides of a comparison are folded the same way, so byte
/// equality is the equality wanted, and far cheaper than `String`'s Unicode-aware comparison.
struct FoldedText: Sendable {
    /// Lower case, without diacritics, compatibility forms (ligatures, full-width letters)
    /// replaced by their plain letters.
    let bytes: [UInt8]
    /// Where the runs of letters, digits and marks lie in `bytes`, in order.
    let words: [Range<Int>]

    init(_ raw: String, folder: inout QueryTextFolder) {
        bytes = folder.fold(raw)
        words = QueryTextFolder.words(of: bytes)
    }
}

/// Folds text for matching, remembering how it folded each non-ASCII character.
///
/// Foundation's `folding(options:)` takes about 270 ms on a megabyte on Linux, and a search
/// folds every entry it looks at. Folding ASCII by hand and each distinct other character once
/// through Foundation gives the same result many times faster. The memory lives in the value,
/// one per document or evaluation, so nothing is shared between evaluations.
struct QueryTextFolder: Sendable {
    private var folded: [Unicode.Scalar: [UInt8]] = [:]

    init() {}

    /// `text` in lower case without diacritics ("Café" and "CAFE" both fold to "cafe"), as UTF-8.
    mutating func fold(_ text: String) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count)
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { utf8 in
            // Runs of ASCII are copied whole and lowercased at the end; only the other
            // characters go one by one.
            var index = 0
            while index < utf8.count {
                var end = index
                while end < utf8.count, utf8[end] < 0x80 { end += 1 }
                if end > index {
                    result.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[index..<end]))
                    index = end
                }
                guard index < utf8.count else { break }
                let (scalar, length) = Self.decode(utf8, at: index)
                index += length
                if let scalar { result.append(contentsOf: fold(scalar)) }
            }
        }
        if done == nil {
            // Strings bridged from elsewhere may not be contiguous UTF-8; walk their scalars.
            for scalar in text.unicodeScalars {
                if scalar.isASCII {
                    result.append(UInt8(truncatingIfNeeded: scalar.value))
                } else {
                    result.append(contentsOf: fold(scalar))
                }
            }
        }
        // Bytes of multi-byte characters are all 0x80 or above, so this touches ASCII only.
        result.withUnsafeMutableBufferPointer { bytes in
            for index in bytes.indices where bytes[index] &- 0x41 < 26 {
                bytes[index] |= 0x20
            }
        }
        return result
    }

    private mutating func fold(_ scalar: Unicode.Scalar) -> [UInt8] {
        if let known = folded[scalar] { return known }
        let result: [UInt8]
        if scalar.properties.generalCategory == .nonspacingMark, scalar.properties.isDiacritic {
            // Foundation drops a combining accent only with the letter it sits on, and this
            // folds one character at a time: drop it here, so "e\u{301}" folds like "é".
            result = []
        } else {
            let options: String.CompareOptions = [.caseInsensitive, .diacriticInsensitive, .widthInsensitive]
            result = Array(String(scalar).folding(options: options, locale: nil).utf8)
        }
        folded[scalar] = result
        return result
    }

    /// The scalar whose UTF-8 encoding starts at `index`, and that encoding's length. The bytes
    /// come from a `String` or from folding one, so they are valid UTF-8; a malformed lead byte
    /// would give nil and a length of one rather than a crash.
    static func decode(_ utf8: UnsafeBufferPointer<UInt8>, at index: Int) -> (Unicode.Scalar?, Int) {
        func byte(_ offset: Int) -> UInt32 {
            index + offset < utf8.count ? UInt32(utf8[index + offset]) : 0
        }
        let lead = byte(0)
        switch lead {
        case 0..<0x80:
            return (Unicode.Scalar(lead), 1)
        case 0xC0..<0xE0:
            return (Unicode.Scalar((lead & 0x1F) << 6 | byte(1) & 0x3F), 2)
        case 0xE0..<0xF0:
            return (Unicode.Scalar((lead & 0x0F) << 12 | (byte(1) & 0x3F) << 6 | byte(2) & 0x3F), 3)
        case 0xF0..<0xF8:
            let value = (lead & 0x07) << 18 | (byte(1) & 0x3F) << 12 | (byte(2) & 0x3F) << 6 | byte(3) & 0x3F
            return (Unicode.Scalar(value), 4)
        default:
            return (nil, 1)
        }
    }

    /// Whether `scalar` belongs to a word: a letter, a digit or other number, or a mark (which
    /// keeps scripts such as Devanagari whole). Everything else separates words.
    static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            switch scalar.value {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
            default: return false
            }
        }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .nonspacingMark, .spacingMark, .enclosingMark,
            .decimalNumber, .letterNumber, .otherNumber:
            return true
        default:
            return false
        }
    }

    /// Where the words of UTF-8 `bytes` lie.
    static func words(of bytes: [UInt8]) -> [Range<Int>] {
        bytes.withUnsafeBufferPointer { utf8 in
            var words: [Range<Int>] = []
            var index = 0
            while index < utf8.count {
                // Skip to the next word, then find its end.
                while index < utf8.count, !isWordStart(utf8, at: index) { index += scalarLength(utf8, at: index) }
                let start = index
                while index < utf8.count, isWordStart(utf8, at: index) { index += scalarLength(utf8, at: index) }
                if index > start { words.append(start..<index) }
            }
            return words
        }
    }

    /// Whether the scalar at `index` is part of a word, with ASCII decided without decoding.
    @inline(__always)
    private static func isWordStart(_ utf8: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        let byte = utf8[index]
        if byte < 0x80 { return byte &- 0x30 < 10 || byte &- 0x61 < 26 || byte &- 0x41 < 26 }
        return decode(utf8, at: index).0.map(isWordScalar) ?? false
    }

    @inline(__always)
    private static func scalarLength(_ utf8: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        switch utf8[index] {
        case 0xF0...: return 4
        case 0xE0...: return 3
        case 0xC0...: return 2
        default: return 1
        }
    }
}
