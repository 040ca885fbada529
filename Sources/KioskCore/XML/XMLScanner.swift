// A liberal, single-pass XML tokenizer over UTF-8 bytes. It never builds a tree and never
// expands declared entities: DOCTYPEs (internal subsets included) are skipped whole, which makes
// billion-laughs and external-entity attacks inert. Malformed markup degrades to text.

/// Tokenizes XML and hands each start tag, end tag, text run and CDATA section to a handler.
struct XMLScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var attributes: [XMLAttribute] = []

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        attributes.reserveCapacity(16)
    }

    /// Scans the whole input, in time linear in its length.
    mutating func scan<H: XMLEventHandler>(into handler: inout H) throws(FeedError) {
        let n = bytes.count
        var i = 0
        var textStart = 0
        var textHasReference = false
        while i < n {
            // Hot loop: runs of text until the next markup character.
            let c = bytes[i]
            if c != .lt {
                if c == .amp { textHasReference = true }
                i += 1
                continue
            }
            guard i + 1 < n else { break }
            let next = bytes[i + 1]
            let markupEnd: Int
            switch next {
            case .slash:
                guard let end = endTag(at: i) else { i += 1; continue }
                flush(textStart..<i, textHasReference, into: &handler)
                handler.endElement(name: end.name, in: bytes)
                markupEnd = end.next
            case .bang:
                flush(textStart..<i, textHasReference, into: &handler)
                markupEnd = declaration(at: i, into: &handler)
            case .question:
                flush(textStart..<i, textHasReference, into: &handler)
                markupEnd = (find(.question, .gt, from: i + 2) ?? (n - 2)) + 2
            default:
                guard Self.isNameStart(next) else { i += 1; continue }  // "a < b": plain text
                flush(textStart..<i, textHasReference, into: &handler)
                markupEnd = try startTag(at: i, into: &handler)
            }
            i = min(markupEnd, n)
            textStart = i
            textHasReference = false
        }
        flush(textStart..<n, textHasReference, into: &handler)
    }

    private func flush<H: XMLEventHandler>(_ range: Range<Int>, _ hasReference: Bool, into handler: inout H) {
        if !range.isEmpty { handler.text(range, hasReference: hasReference, in: bytes) }
    }

    // MARK: - Tags

    private mutating func startTag<H: XMLEventHandler>(at start: Int, into handler: inout H) throws(FeedError) -> Int {
        let n = bytes.count
        var j = start + 1
        while j < n, !Self.isSpace(bytes[j]), bytes[j] != .gt, bytes[j] != .slash { j += 1 }
        let name = (start + 1)..<j
        attributes.removeAll(keepingCapacity: true)
        var isEmpty = false
        while j < n {
            let c = bytes[j]
            if Self.isSpace(c) { j += 1; continue }
            if c == .gt { j += 1; break }
            if c == .slash {
                if j + 1 < n, bytes[j + 1] == .gt { isEmpty = true; j += 2; break }
                j += 1
                continue
            }
            let nameStart = j
            while j < n, !Self.isSpace(bytes[j]), bytes[j] != .eq, bytes[j] != .gt, bytes[j] != .slash { j += 1 }
            let attributeName = nameStart..<j
            while j < n, Self.isSpace(bytes[j]) { j += 1 }
            var value = j..<j
            var hasReference = false
            if j < n, bytes[j] == .eq {
                j += 1
                while j < n, Self.isSpace(bytes[j]) { j += 1 }
                if j < n, bytes[j] == .quote || bytes[j] == .apostrophe {
                    let quote = bytes[j]
                    let valueStart = j + 1
                    j = valueStart
                    while j < n, bytes[j] != quote {
                        if bytes[j] == .amp { hasReference = true }
                        j += 1
                    }
                    value = valueStart..<j
                    j = min(j + 1, n)
                } else {
                    let valueStart = j
                    while j < n, !Self.isSpace(bytes[j]), bytes[j] != .gt {
                        if bytes[j] == .amp { hasReference = true }
                        j += 1
                    }
                    value = valueStart..<j
                }
            }
            if !attributeName.isEmpty {
                attributes.append(XMLAttribute(name: attributeName, value: value, hasReference: hasReference))
            }
        }
        try handler.startElement(name: name, attributes: attributes, isEmpty: isEmpty, in: bytes)
        if isEmpty { handler.endElement(name: name, in: bytes) }
        return j
    }

    private func endTag(at start: Int) -> (name: Range<Int>, next: Int)? {
        let n = bytes.count
        var j = start + 2
        guard j < n, Self.isNameStart(bytes[j]) else { return nil }
        while j < n, !Self.isSpace(bytes[j]), bytes[j] != .gt { j += 1 }
        let name = (start + 2)..<j
        while j < n, bytes[j] != .gt { j += 1 }
        return (name, min(j + 1, n))
    }

    // MARK: - Comments, CDATA, DOCTYPE

    private func declaration<H: XMLEventHandler>(at start: Int, into handler: inout H) -> Int {
        let n = bytes.count
        if matches("<!--", at: start) {
            return (find(.dash, .dash, .gt, from: start + 4) ?? (n - 3)) + 3
        }
        if matches("<![CDATA[", at: start) {
            let contentStart = start + 9
            let end = find(.rbracket, .rbracket, .gt, from: contentStart) ?? n
            if end > contentStart { handler.cdata(contentStart..<end, in: bytes) }
            return end + 3
        }
        // <!DOCTYPE ...> with an optional [internal subset]: skipped, never interpreted.
        var j = start + 2
        var quote: UInt8 = 0
        var subsetDepth = 0
        while j < n {
            let c = bytes[j]
            if quote != 0 {
                if c == quote { quote = 0 }
            } else if c == .quote || c == .apostrophe {
                quote = c
            } else if c == .lbracket {
                subsetDepth += 1
            } else if c == .rbracket {
                subsetDepth = max(0, subsetDepth - 1)
            } else if c == .lt, matches("<!--", at: j) {
                j = (find(.dash, .dash, .gt, from: j + 4) ?? (n - 3)) + 3
                continue
            } else if c == .gt, subsetDepth == 0 {
                return j + 1
            }
            j += 1
        }
        return n
    }

    // MARK: - Byte helpers

    private func matches(_ literal: StaticString, at offset: Int) -> Bool {
        literal.withUTF8Buffer { needle in
            let count = needle.count
            guard offset + count <= bytes.count else { return false }
            var k = 0
            while k < count {
                if bytes[offset + k] != needle[k] { return false }
                k += 1
            }
            return true
        }
    }

    private func find(_ a: UInt8, _ b: UInt8, from start: Int) -> Int? {
        var j = start
        let last = bytes.count - 1
        while j < last {
            if bytes[j] == a, bytes[j + 1] == b { return j }
            j += 1
        }
        return nil
    }

    private func find(_ a: UInt8, _ b: UInt8, _ c: UInt8, from start: Int) -> Int? {
        var j = start
        let last = bytes.count - 2
        while j < last {
            if bytes[j] == a, bytes[j + 1] == b, bytes[j + 2] == c { return j }
            j += 1
        }
        return nil
    }

    @inline(__always) static func isSpace(_ c: UInt8) -> Bool {
        c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D
    }

    @inline(__always) static func isNameStart(_ c: UInt8) -> Bool {
        (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A || c == 0x5F || c == 0x3A || c >= 0x80
    }
}

extension UInt8 {
    static let lt: UInt8 = 0x3C
    static let gt: UInt8 = 0x3E
    static let amp: UInt8 = 0x26
    static let slash: UInt8 = 0x2F
    static let bang: UInt8 = 0x21
    static let question: UInt8 = 0x3F
    static let eq: UInt8 = 0x3D
    static let quote: UInt8 = 0x22
    static let apostrophe: UInt8 = 0x27
    static let dash: UInt8 = 0x2D
    static let lbracket: UInt8 = 0x5B
    static let rbracket: UInt8 = 0x5D
    static let semicolon: UInt8 = 0x3B
    static let hash: UInt8 = 0x23
    static let colon: UInt8 = 0x3A
}
