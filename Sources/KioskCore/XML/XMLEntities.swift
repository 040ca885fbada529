// Character references and entities in XML text. The five XML entities and numeric references
// are always understood; HTML's named entities are too, because real feeds use them without a
// DTD. Declared entities are never expanded, and an unknown reference stays as written.

enum XMLEntities {
    /// Appends `bytes[range]` to `out` with every reference replaced by its UTF-8.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, into out: inout [UInt8]) {
        var i = range.lowerBound
        var chunk = i
        let end = range.upperBound
        while i < end {
            guard bytes[i] == .amp else { i += 1; continue }
            if chunk < i { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[chunk..<i])) }
            if let next = reference(bytes, at: i, end: end, into: &out) {
                i = next
            } else {
                out.append(.amp)
                i += 1
            }
            chunk = i
        }
        if chunk < end { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[chunk..<end])) }
    }

    /// Decodes the reference starting at `start` (an `&`), returning the offset after it, or nil
    /// when it is not a reference (the `&` is then literal text).
    private static func reference(
        _ bytes: UnsafeBufferPointer<UInt8>, at start: Int, end: Int, into out: inout [UInt8]
    ) -> Int? {
        var j = start + 1
        guard j < end else { return nil }
        if bytes[j] == .hash {
            j += 1
            var hex = false
            if j < end, bytes[j] | 0x20 == 0x78 { hex = true; j += 1 }
            // Every digit is consumed, however many: "&#4294967295;" is one U+FFFD, not "\u{FFFD}5;".
            var number = BoundedNumber(radix: hex ? 16 : 10, ceiling: 0x11_0000)
            while j < end, let digit = BoundedNumber.digitValue(bytes[j], radix: number.radix) {
                number.append(digit)
                j += 1
            }
            guard number.digitCount > 0 else { return nil }
            if j < end, bytes[j] == .semicolon { j += 1 }
            TextDecoding.appendUTF8(HTMLEntities.codePoint(forReference: UInt32(clamping: number.value)), to: &out)
            return j
        }
        let nameStart = j
        while j < end, j - nameStart < 40, isNameByte(bytes[j]) { j += 1 }
        guard j < end, bytes[j] == .semicolon, j > nameStart else { return nil }
        let name = UnsafeBufferPointer(rebasing: bytes[nameStart..<j])
        if let predefined = predefined(name) {
            out.append(predefined)
        } else {
            let text = String(decoding: name, as: UTF8.self)
            // Feeds are of HTML 4's era: its angle brackets, not HTML5's mathematical ones.
            let html4 = text == "lang" ? "\u{2329}" : text == "rang" ? "\u{232A}" : nil
            guard let replacement = html4 ?? HTMLEntities.character(named: text[...]) else { return nil }
            out.append(contentsOf: replacement.utf8)
        }
        return j + 1
    }

    private static func predefined(_ name: UnsafeBufferPointer<UInt8>) -> UInt8? {
        switch name.count {
        case 2:
            if name[1] == 0x74 {  // "lt" / "gt"
                if name[0] == 0x6C { return .lt }
                if name[0] == 0x67 { return .gt }
            }
        case 3:
            if name[0] == 0x61, name[1] == 0x6D, name[2] == 0x70 { return .amp }
        case 4:
            if name.elementsEqual("quot".utf8) { return .quote }
            if name.elementsEqual("apos".utf8) { return .apostrophe }
        default:
            break
        }
        return nil
    }

    @inline(__always) private static func isNameByte(_ c: UInt8) -> Bool {
        (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A || (c >= 0x30 && c <= 0x39)
    }
}
