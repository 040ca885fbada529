// Trimming without Foundation: `trimmingCharacters(in:)` bridges through NSString and UTF-16,
// which cost 80% of a parse of content-heavy feeds on Linux. XML and JSON white space is ASCII.

extension String {
    /// The string without leading and trailing ASCII white space (space, tab, CR, LF, FF, VT).
    package var trimmingASCIIWhitespace: String {
        let utf8 = self.utf8
        guard let first = utf8.firstIndex(where: { !ASCIIWhitespace.contains($0) }),
            let last = utf8.lastIndex(where: { !ASCIIWhitespace.contains($0) })
        else { return "" }
        if first == utf8.startIndex, utf8.index(after: last) == utf8.endIndex { return self }
        return String(self[first...last])
    }
}

/// ASCII white space as bytes.
package enum ASCIIWhitespace {
    @inline(__always) package static func contains(_ c: UInt8) -> Bool {
        c == 0x20 || (c >= 0x09 && c <= 0x0D)
    }

    /// `bytes` as a String with ASCII white space trimmed from both ends.
    static func trimmedString(_ bytes: [UInt8]) -> String {
        var lo = 0
        var hi = bytes.count
        while lo < hi, contains(bytes[lo]) { lo += 1 }
        while hi > lo, contains(bytes[hi - 1]) { hi -= 1 }
        return bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[lo..<hi]), as: UTF8.self) }
    }
}
