/// Escapes text for HTML element content and quoted attribute values: `&`, `<`, `>`, `"` and
/// `'` as character references, everything else unchanged. The one table every writer of HTML
/// uses (pages, the sanitizer, the reader view's serializer, the feed parser's XHTML, the demo's
/// and the benchmarks' generated pages).
public enum HTMLEscaping {
    /// `text` escaped.
    public static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: { reference(for: $0) != nil }) else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 16)
        appendEscaped(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `text`'s UTF-8, escaped, to `out`.
    public static func appendEscaped(_ text: String, to out: inout [UInt8]) {
        var contiguous = text
        contiguous.withUTF8 { appendEscaped($0, to: &out) }
    }

    /// Which quotes become references besides `&`, `<` and `>`.
    public enum Quotes: Sendable {
        /// `"` and `'`: text and attributes alike (the default).
        case both
        /// None: element content only, as XML writes it (the feed parser's XHTML keeps the bytes
        /// it always wrote, so stored entries do not change).
        case none
        /// `"`: a double-quoted attribute value, as XML writes it.
        case double
    }

    /// Appends `bytes` (UTF-8), escaped, to `out`, copying the runs between special bytes whole.
    public static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8], quotes: Quotes = .both) {
        var copied = 0
        for index in 0..<bytes.count {
            guard let replacement = reference(for: bytes[index]) else { continue }
            switch (quotes, bytes[index]) {
            case (.none, UInt8(ascii: "\"")), (.none, UInt8(ascii: "'")), (.double, UInt8(ascii: "'")): continue
            default: break
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<index]))
            replacement.withUTF8Buffer { out.append(contentsOf: $0) }
            copied = index + 1
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<bytes.count]))
    }

    @inline(__always) private static func reference(for byte: UInt8) -> StaticString? {
        switch byte {
        case UInt8(ascii: "&"): "&amp;"
        case UInt8(ascii: "<"): "&lt;"
        case UInt8(ascii: ">"): "&gt;"
        case UInt8(ascii: "\""): "&quot;"
        case UInt8(ascii: "'"): "&#39;"
        default: nil
        }
    }
}
