/// XML text, written and read: what the OPML writer, the sync API's Atom and the demo's feeds share.
public enum XMLText {
    /// Text for an attribute value or element content.
    ///
    /// `&`, `<`, `>` and `"` are references. Tab, line feed and carriage return are numeric
    /// references, because a reader must turn literal ones in an attribute into spaces. Other
    /// control characters, and U+FFFE/U+FFFF, are left out: XML 1.0 forbids C0 controls even as
    /// references (strict readers refuse the whole file), and `&#128;`–`&#159;` are read as
    /// Windows-1252 by browsers and by Kiosk, so no reference would bring a C1 control back.
    public static func escaped(_ text: String) -> String {
        let needsWork = text.utf8.contains { byte in
            byte < 0x20 || byte == 0x26 || byte == 0x3C || byte == 0x3E || byte == 0x22 || byte == 0x7F
                || byte == 0xC2 || byte == 0xEF  // lead bytes of U+0080–U+009F and U+FFFE/U+FFFF
        }
        guard needsWork else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x26: out += "&amp;"
            case 0x3C: out += "&lt;"
            case 0x3E: out += "&gt;"
            case 0x22: out += "&quot;"
            case 0x09: out += "&#9;"
            case 0x0A: out += "&#10;"
            case 0x0D: out += "&#13;"
            case 0x00...0x1F, 0x7F...0x9F, 0xFFFE, 0xFFFF: continue
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// XML character data decoded as the feed parser decodes it: the five predefined references,
    /// numeric ones and HTML's named entities; anything else is left as written.
    public static func unescaped(_ text: String) -> String {
        guard text.utf8.contains(0x26) else { return text }
        var contiguous = text
        return contiguous.withUTF8 { bytes in
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count)
            XMLEntities.decode(bytes, 0..<bytes.count, into: &out)
            return String(decoding: out, as: UTF8.self)
        }
    }
}
