/// Whether a text may read differently in Unicode's composed form (NFC), told from its UTF-8
/// bytes without decoding it: only scripts with combining marks or with characters that NFC
/// rewrites (Indic letters such as Bengali য়, Hebrew presentation forms, CJK compatibility
/// ideographs, Hangul jamo) can; Latin, Greek and Cyrillic text that is already precomposed, and
/// punctuation such as typographic quotes, cannot. Normalizing only then keeps NFC off the
/// common case (English, German, French pages), where it was a measurable share of extraction.
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
            let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
            guard position + length <= count else { return false }
            var value = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
            for offset in 1..<length { value = value << 6 | UInt32(utf8[position + offset] & 0x3F) }
            if mayChange(value) { return true }
            position += length
        }
        return false
    }

    private static func mayChange(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0x0300...0x036F, 0x0374, 0x037E, 0x0387, 0x0483...0x0489, 0x0591...0x05C7, 0x0610...0x061A, 0x064B...0x065F, 0x0670,
            0x06D6...0x06ED, 0x0900...0x0DFF, 0x0F00...0x0FFF, 0x1100...0x11FF, 0x1AB0...0x1AFF, 0x1DC0...0x1DFF,
            0x1F00...0x1FFF, 0x2000...0x2001, 0x20D0...0x20FF, 0x2126, 0x212A...0x212B, 0x2329...0x232A,
            0x3099...0x309A, 0xF900...0xFAFF, 0xFB1D...0xFB4F, 0x1D15E...0x1D1C0, 0x2F800...0x2FA1F:
            true
        default:
            false
        }
    }
}
