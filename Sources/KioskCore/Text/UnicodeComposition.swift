/// Whether a text may read differently in Unicode's composed form (NFC), told from its UTF-8
/// bytes without decoding it into a `String`: anything outside the ranges known to be left as
/// they are may change. Known unchanged: ASCII; precomposed Latin, Greek and Cyrillic letters;
/// punctuation, symbols, arrows and emoji; CJK ideographs, kana and Hangul syllables; and
/// compatibility forms, which only NFKC rewrites. Scripts with combining marks or characters
/// NFC rewrites (Indic letters such as Bengali য়, Thai, Hebrew points, Arabic marks, Hangul jamo,
/// CJK compatibility ideographs) are normalized. Normalizing only then keeps NFC off the common
/// case (English, German, French pages), where it was a measurable share of extraction.
public enum UnicodeComposition {
    public static func mayChangeInNFC(_ utf8: [UInt8]) -> Bool {
        var position = 0
        let count = utf8.count
        while position < count {
            let lead = utf8[position]
            if lead < 0x80 {
                position += 1
                continue
            }
            // A stray continuation byte, or a sequence cut short: not text to judge, and no
            // reason to lose step.
            guard lead >= 0xC2 else {
                position += 1
                continue
            }
            let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
            guard position + length <= count else { return true }
            var value = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
            for offset in 1..<length { value = value << 6 | UInt32(utf8[position + offset] & 0x3F) }
            if !isUnchanged(value) { return true }
            position += length
        }
        return false
    }

    private static func isUnchanged(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0x00A0...0x02FF,  // Latin-1, Latin Extended-A and -B, IPA, spacing modifiers
            0x0370...0x0373, 0x0375...0x037D, 0x037F...0x0386, 0x0388...0x03FF,  // Greek
            0x0400...0x0482, 0x048A...0x052F,  // Cyrillic
            0x1E00...0x1EFF,  // Latin Extended Additional (precomposed)
            0x2002...0x20CF,  // punctuation, super- and subscripts, currency
            0x2100...0x2125, 0x2127...0x2129, 0x212C...0x2328, 0x232B...0x2BFF,  // letterlike, arrows, maths, shapes
            0x2E00...0x2E7F, 0x3000...0x3029, 0x3030...0x3098, 0x309B...0x9FFF,  // CJK punctuation, kana, ideographs
            0xAC00...0xD7A3,  // Hangul syllables
            0xE000...0xF8FF,  // private use
            0xFE30...0xFFEF,  // compatibility forms (NFKC's, not NFC's)
            0x1F000...0x1FAFF:  // emoji and symbols
            true
        default:
            false
        }
    }
}
