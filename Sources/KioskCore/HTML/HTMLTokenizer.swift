import Foundation

/// A small, forgiving HTML tokenizer after the HTML standard's tokenizer, for feed content.
///
/// It yields start tags (names and attribute names lowercased, attribute values decoded, the
/// first of duplicate attributes kept), end tags and text; comments, doctypes and processing
/// instructions are skipped. Like a browser it reads the content of `script`,
/// `style`, `title`, `textarea` and friends as text up to their end tag, and a tag cut off by
/// the end of the input is dropped. CDATA sections, which only escaped-twice feeds contain in
/// HTML, are read as text. It works on UTF-8 bytes, in time linear in the input, and
/// never traps, whatever the input.
package struct HTMLTokenizer {
    /// One piece of markup.
    package enum Token {
        /// Text whose character references ``appendText(_:to:)`` decodes (byte range in the input).
        case text(Range<Int>)
        /// Content of a raw-text element such as `script` or `xmp`, or of a CDATA section: no
        /// references, no tags.
        case rawText(Range<Int>)
        case startTag(Tag)
        case endTag(name: String)
    }

    /// A start tag.
    package struct Tag {
        /// Lowercased name.
        package var name: String
        /// Attributes in source order, names lowercased, values decoded, without duplicates.
        package var attributes: [Attribute]
        /// Written with a trailing `/` (`<br/>`); only meaningful for void and foreign elements.
        package var selfClosing: Bool

        /// The value of the named (lowercase) attribute, if present.
        package func value(of name: String) -> String? {
            attributes.first(where: { $0.name == name })?.value
        }

        /// FeedBurner's `<div class="feedflare">`: sharing links and their counters, not the item.
        package var isFeedFlare: Bool {
            guard name == "div", let classes = value(of: "class") else { return false }
            // Most divs have a class and few are FeedBurner's: the bytes are looked for first
            // (splitting every class list into Characters was a percent of the reader view).
            guard containsBytes(classes.utf8, Self.feedFlare) else { return false }
            return classes.split(whereSeparator: { $0.isWhitespace }).contains("feedflare")
        }

        private static let feedFlare = Array("feedflare".utf8)
    }

    /// One attribute of a start tag; a valueless attribute has an empty value.
    package struct Attribute: Equatable {
        package var name: String
        package var value: String

        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Attributes kept per tag: the duplicate check is quadratic in this, not in the input.
    package static let maximumAttributes = 64

    /// How markup is read.
    package enum Mode {
        /// As a browser reads a document: `script`, `title`, `textarea`... hold text up to their
        /// end tag, and markup cut off by the end of the input is dropped.
        case document
        /// As text that may hold tags, such as a title: every tag is only a tag (a `<script>` no
        /// longer swallows what follows it), and markup cut off by the end of the input (`x<y`,
        /// `a <b`, `<!-- b`) stays text, so no word is lost to a stray `<`.
        case text
    }

    /// The input as UTF-8.
    package let bytes: [UInt8]
    private let mode: Mode
    private var position = 0
    /// Set after a start tag whose content is text up to its end tag (`script`, `title`...).
    private var rawTextElement: (name: [UInt8], decodesReferences: Bool)?
    /// Set after `<plaintext>`: everything that follows is text.
    private var inPlaintext = false

    /// A tokenizer over the UTF-8 of `html`.
    package init(_ html: String, mode: Mode = .document) {
        bytes = Array(html.utf8)
        self.mode = mode
    }

    /// A tokenizer over `utf8`, which must be valid UTF-8 (as `TextDecoding.utf8Bytes` gives):
    /// the bytes are read where they are, not copied.
    package init(utf8: [UInt8], mode: Mode = .document) {
        bytes = utf8
        self.mode = mode
    }

    /// The next token, or nil at the end of the input.
    package mutating func next() -> Token? {
        while position < bytes.count {
            if inPlaintext {
                defer { position = bytes.count }
                return .rawText(position..<bytes.count)
            }
            if let element = rawTextElement {
                rawTextElement = nil
                let end = rawTextEnd(for: element.name)
                guard end > position else { continue }
                defer { position = end }
                return element.decodesReferences ? .text(position..<end) : .rawText(position..<end)
            }
            if bytes[position] != Byte.lessThan {
                let end = index(of: Byte.lessThan, from: position)
                defer { position = end }
                return .text(position..<end)
            }
            if let token = markup() { return token }
        }
        return nil
    }

    /// Appends the text of a `.text` or `.rawText` range to `out`, references decoded for `.text`
    /// ranges only if `decode`, and NUL bytes dropped (browsers ignore them in text).
    package func appendText(_ range: Range<Int>, to out: inout [UInt8], decode: Bool = true) {
        bytes.withUnsafeBufferPointer { buffer in
            let slice = UnsafeBufferPointer(rebasing: buffer[range.clamped(to: 0..<buffer.count)])
            if decode {
                HTMLEntities.appendDecoded(slice, to: &out, inAttribute: false, nul: .drop)
            } else {
                for byte in slice where byte != 0 { out.append(byte) }
            }
        }
    }

    /// Consumes tokens up to the end tag closing the element `name` whose start tag was just
    /// read, counting nested elements of the same name; unterminated, it runs to the end.
    ///
    /// `head` ends, as in browsers, also before `<body>`, before any tag that does not belong in
    /// a head, or before text that is not whitespace; that token is returned for the caller to
    /// handle. Every other element returns nil.
    package mutating func skipContent(of name: String) -> Token? {
        var depth = 1
        while let token = next() {
            switch token {
            case .startTag(let tag):
                if name == "head" {
                    guard Self.headContent.contains(tag.name) else { return token }
                    // A second <head> is ignored; the rest are void or end at their own end tag,
                    // so this recursion is one level deep. A '/' closes none of them in HTML.
                    if tag.name != "head" && !Self.isVoid(tag.name) {
                        _ = skipContent(of: tag.name)
                    }
                } else if tag.name == name && !(tag.selfClosing && Self.isForeign(name)) {
                    depth += 1
                }
            case .endTag(let endName):
                if endName == name {
                    depth -= 1
                    if depth == 0 { return nil }
                }
            case .text(let range):
                if name == "head" && !isWhitespace(range) { return token }
            case .rawText:
                break
            }
        }
        return nil
    }

    /// Elements that have no content and no end tag.
    package static func isVoid(_ name: String) -> Bool {
        voidElements.contains(name)
    }

    /// SVG and MathML, where a trailing `/` really closes an element.
    package static func isForeign(_ name: String) -> Bool {
        name == "svg" || name == "math"
    }

    private static let voidElements: Set<String> = [
        "area", "base", "basefont", "bgsound", "br", "col", "embed", "frame", "hr", "image", "img",
        "input", "keygen", "link", "meta", "param", "source", "track", "wbr",
    ]

    /// Elements a browser leaves inside `head` rather than starting the body.
    private static let headContent: Set<String> = [
        "base", "basefont", "bgsound", "link", "meta", "title", "noscript", "noframes", "style",
        "script", "template", "head",
    ]

    // MARK: - Markup

    /// Reads the markup at the `<` under `position`. Returns nil when it was skipped (comment,
    /// doctype, a tag cut off by the end of input); a `<` that starts no markup is text.
    private mutating func markup() -> Token? {
        let start = position
        let next = position + 1
        guard next < bytes.count else { return lessThanAsText() }
        let byte = bytes[next]
        if isASCIIAlpha(byte) {
            guard let tag = tag(nameAt: next, keepAttributes: true) else { return cutOff(from: start) }
            guard mode == .document else { return .startTag(tag) }
            switch tag.name {
            case "script", "style", "xmp", "iframe", "noembed", "noframes", "noscript":
                rawTextElement = (Array(tag.name.utf8), false)
            case "title", "textarea":
                rawTextElement = (Array(tag.name.utf8), true)
            case "plaintext":
                inPlaintext = true
            default:
                break
            }
            return .startTag(tag)
        }
        switch byte {
        case Byte.slash:
            let nameStart = next + 1
            guard nameStart < bytes.count else { return lessThanAsText() }
            if isASCIIAlpha(bytes[nameStart]) {
                guard let tag = tag(nameAt: nameStart, keepAttributes: false) else { return cutOff(from: start) }
                return .endTag(name: tag.name)
            }
            // `</>` is dropped; `</3` and the like are bogus comments, as in browsers.
            return skipBogusComment(from: nameStart) ? nil : cutOff(from: start)
        case Byte.exclamation:
            if hasPrefix("--", at: next + 1) {
                return skipComment(from: next + 3) ? nil : cutOff(from: start)
            } else if hasPrefix("[CDATA[", at: next + 1) {
                return cdataSection(from: next + 8)
            } else {
                return skipBogusComment(from: next + 1) ? nil : cutOff(from: start)
            }
        case Byte.question:
            return skipBogusComment(from: next) ? nil : cutOff(from: start)
        default:
            return lessThanAsText()
        }
    }

    /// Markup from `start` that the end of the input cut off: dropped in a document, the rest of
    /// the input as text in ``Mode/text``.
    private mutating func cutOff(from start: Int) -> Token? {
        guard mode == .text, start < bytes.count else { return nil }
        position = bytes.count
        return .text(start..<bytes.count)
    }

    /// A `<` that starts no tag is text, together with what follows it up to the next `<`.
    private mutating func lessThanAsText() -> Token {
        let end = index(of: Byte.lessThan, from: position + 1)
        defer { position = end }
        return .text(position..<end)
    }

    /// Parses a start or end tag whose name starts at `nameStart`; nil (with `position` at the
    /// end) when the input ends inside the tag, which browsers drop.
    private mutating func tag(nameAt nameStart: Int, keepAttributes: Bool) -> Tag? {
        let count = bytes.count
        var index = nameStart
        while index < count && !isTagNameEnd(bytes[index]) { index += 1 }
        let name = lowercasedName(nameStart..<index)
        var attributes: [Attribute] = []
        var selfClosing = false
        while true {
            while index < count && isWhitespace(bytes[index]) { index += 1 }
            guard index < count else { return endOfInputInTag() }
            let byte = bytes[index]
            if byte == Byte.greaterThan {
                position = index + 1
                return Tag(name: name, attributes: attributes, selfClosing: selfClosing)
            }
            if byte == Byte.slash {
                index += 1
                selfClosing = index < count && bytes[index] == Byte.greaterThan
                continue
            }
            selfClosing = false
            // An attribute name runs to whitespace, '/', '>' or '='; a leading '=' is part of it.
            let attributeStart = index
            index += 1
            while index < count && !isTagNameEnd(bytes[index]) && bytes[index] != Byte.equals { index += 1 }
            let attributeEnd = index
            while index < count && isWhitespace(bytes[index]) { index += 1 }
            var valueRange = index..<index
            if index < count && bytes[index] == Byte.equals {
                index += 1
                while index < count && isWhitespace(bytes[index]) { index += 1 }
                guard index < count else { return endOfInputInTag() }
                let quote = bytes[index]
                if quote == Byte.doubleQuote || quote == Byte.singleQuote {
                    let valueStart = index + 1
                    let valueEnd = self.index(of: quote, from: valueStart)
                    guard valueEnd < count else { return endOfInputInTag() }
                    valueRange = valueStart..<valueEnd
                    index = valueEnd + 1
                } else {
                    let valueStart = index
                    while index < count && !isWhitespace(bytes[index]) && bytes[index] != Byte.greaterThan {
                        index += 1
                    }
                    valueRange = valueStart..<index
                }
            }
            guard keepAttributes && attributes.count < Self.maximumAttributes else { continue }
            let attributeName = lowercasedName(attributeStart..<attributeEnd)
            if !attributes.contains(where: { $0.name == attributeName }) {
                attributes.append(Attribute(name: attributeName, value: attributeValue(valueRange)))
            }
        }
    }

    private mutating func endOfInputInTag() -> Tag? {
        position = bytes.count
        return nil
    }

    /// Skips a comment whose body starts at `bodyStart` (just after `<!--`), ending like a
    /// browser's at `-->`, `--!>`, or an abrupt `<!-->` / `<!--->`; unterminated, it runs to the
    /// end. Returns whether it was terminated.
    private mutating func skipComment(from bodyStart: Int) -> Bool {
        let count = bytes.count
        if bodyStart < count && bytes[bodyStart] == Byte.greaterThan {
            position = bodyStart + 1
            return true
        }
        if hasPrefix("->", at: bodyStart) {
            position = bodyStart + 2
            return true
        }
        var search = bodyStart
        while true {
            let close = index(of: Byte.greaterThan, from: search)
            guard close < count else {
                position = count
                return false
            }
            if close - 2 >= bodyStart && bytes[close - 1] == Byte.dash && bytes[close - 2] == Byte.dash {
                position = close + 1
                return true
            }
            if close - 3 >= bodyStart && bytes[close - 1] == Byte.exclamation && bytes[close - 2] == Byte.dash
                && bytes[close - 3] == Byte.dash
            {
                position = close + 1
                return true
            }
            search = close + 1
        }
    }

    /// A CDATA section's content as raw text. Browsers hide CDATA outside SVG, but in feeds it
    /// is text escaped once too often by the publisher, so it is kept (and re-escaped) instead.
    private mutating func cdataSection(from start: Int) -> Token? {
        let count = bytes.count
        var search = start
        var end = count
        while search < count {
            let close = index(of: Byte.greaterThan, from: search)
            if close < count && close - 2 >= start && bytes[close - 1] == Byte.closeBracket
                && bytes[close - 2] == Byte.closeBracket
            {
                end = close - 2
                break
            }
            search = close + 1
        }
        position = min(end + 3, count)
        return end > start ? .rawText(start..<end) : nil
    }

    /// Skips a doctype, processing instruction or other `<!...>` / `<?...>` up to the next `>`;
    /// returns whether there was one.
    private mutating func skipBogusComment(from start: Int) -> Bool {
        let close = index(of: Byte.greaterThan, from: start)
        position = min(close + 1, bytes.count)
        return close < bytes.count
    }

    /// Where the content of a raw-text element ends: the next `</name` followed by whitespace,
    /// `/` or `>` (case-insensitively), or the end of the input.
    private func rawTextEnd(for name: [UInt8]) -> Int {
        let count = bytes.count
        var search = position
        while true {
            let open = index(of: Byte.lessThan, from: search)
            let nameStart = open + 2
            let nameEnd = nameStart + name.count
            guard nameEnd < count else { return count }
            if bytes[open + 1] == Byte.slash && isTagNameEnd(bytes[nameEnd]) {
                var matches = true
                for offset in 0..<name.count where asciiLowercased(bytes[nameStart + offset]) != name[offset] {
                    matches = false
                    break
                }
                if matches { return open }
            }
            search = open + 1
        }
    }

    // MARK: - Bytes

    private func attributeValue(_ range: Range<Int>) -> String {
        guard !range.isEmpty else { return "" }
        return bytes.withUnsafeBufferPointer { buffer in
            let slice = UnsafeBufferPointer(rebasing: buffer[range])
            if !slice.contains(where: { $0 == UInt8(ascii: "&") || $0 == 0 }) {
                return String(decoding: slice, as: UTF8.self)
            }
            var out: [UInt8] = []
            out.reserveCapacity(range.count)
            HTMLEntities.appendDecoded(slice, to: &out, inAttribute: true, nul: .replace)
            return String(decoding: out, as: UTF8.self)
        }
    }

    /// ASCII-lowercased tag or attribute name; NUL becomes U+FFFD as in browsers.
    private func lowercasedName(_ range: Range<Int>) -> String {
        bytes.withUnsafeBufferPointer { buffer in
            let slice = UnsafeBufferPointer(rebasing: buffer[range])
            // Most names are already lowercase: then no copy is needed before making the String.
            if !slice.contains(where: { ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) || $0 == 0 }) {
                return String(decoding: slice, as: UTF8.self)
            }
            var out: [UInt8] = []
            out.reserveCapacity(range.count)
            for byte in slice {
                if byte == 0 {
                    out.append(contentsOf: HTMLEntities.replacementCharacter)
                } else {
                    out.append(asciiLowercased(byte))
                }
            }
            return String(decoding: out, as: UTF8.self)
        }
    }

    /// The index of the first `byte` at or after `start`, or `bytes.count`.
    private func index(of byte: UInt8, from start: Int) -> Int {
        guard start < bytes.count else { return bytes.count }
        return bytes.withUnsafeBufferPointer { buffer in
            var index = start
            while index < buffer.count && buffer[index] != byte { index += 1 }
            return index
        }
    }

    private func hasPrefix(_ prefix: StaticString, at start: Int) -> Bool {
        guard start >= 0 && start + prefix.utf8CodeUnitCount <= bytes.count else { return false }
        return prefix.withUTF8Buffer { expected in
            for offset in 0..<expected.count where bytes[start + offset] != expected[offset] { return false }
            return true
        }
    }

    private func isWhitespace(_ range: Range<Int>) -> Bool {
        range.allSatisfy { isWhitespace(bytes[$0]) }
    }

    private func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0C || byte == 0x0D
    }

    private func isTagNameEnd(_ byte: UInt8) -> Bool {
        isWhitespace(byte) || byte == Byte.slash || byte == Byte.greaterThan
    }

    private func isASCIIAlpha(_ byte: UInt8) -> Bool {
        let lower = byte | 0x20
        return lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z")
    }

    private func asciiLowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    private enum Byte {
        static let lessThan = UInt8(ascii: "<")
        static let greaterThan = UInt8(ascii: ">")
        static let slash = UInt8(ascii: "/")
        static let exclamation = UInt8(ascii: "!")
        static let question = UInt8(ascii: "?")
        static let equals = UInt8(ascii: "=")
        static let dash = UInt8(ascii: "-")
        static let doubleQuote = UInt8(ascii: "\"")
        static let singleQuote = UInt8(ascii: "'")
        static let closeBracket = UInt8(ascii: "]")
    }
}
