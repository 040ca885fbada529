import Foundation
import KioskCore

/// Tells a web page from a feed by how the document starts, and reads the charset a page
/// declares in `<meta>`, which ``TextDecoding`` (made for XML) does not look for.
enum HTMLSniffer {
    /// What the start of a document says.
    enum Verdict: Equatable {
        case html
        /// A feed (`<rss>`, `<feed>`, `<rdf:RDF>`) or JSON: no page, whatever the server called it.
        case notHTML
        /// Nothing telling within the window (text, an unknown element, an endless comment).
        case unknown
    }

    /// Bytes read to find the first element: enough for long licence comments and several
    /// processing instructions, little enough to cost nothing.
    static let window = 8 * 1024

    /// The verdict on the start of `bytes`: after a BOM, whitespace, comments, processing
    /// instructions and a non-HTML doctype, the first element or JSON value decides.
    static func sniff(_ bytes: [UInt8]) -> Verdict {
        // Decoding the window handles UTF-16 and UTF-32 pages and drops the byte-order mark.
        let text = TextDecoding.utf8Bytes(Array(bytes.prefix(window)))
        var scanner = Scanner(bytes: text)
        return scanner.verdict()
    }

    /// Whether a `Content-Type` value names an HTML page.
    static func isHTMLMediaType(_ contentType: String?) -> Bool {
        guard let contentType, let mediaType = FeedLinkRules.mediaType(contentType) else { return false }
        return mediaType == "text/html" || mediaType == "application/xhtml+xml"
    }

    /// The charset a `<meta charset>` or `<meta http-equiv="Content-Type" content="...; charset=">`
    /// declares: within the first 1024 bytes, where browsers' prescan looks; else the first such
    /// `<meta>` further on (within `lateWindow`), as a browser's tree builder meets it and
    /// switches to it ("change the encoding"); nil when none does.
    static func declaredCharset(_ bytes: [UInt8]) -> String? {
        if let early = metaCharset(bytes.prefix(1024)) { return early }
        guard bytes.count > 1024, let late = metaCharset(bytes.prefix(lateWindow)) else { return nil }
        // A late declaration is weaker evidence (a pasted snippet's <meta> says it too): a page
        // whose bytes are all valid UTF-8 stays UTF-8 whatever it says that late.
        if late != "utf-8", String(validating: bytes, as: UTF8.self) != nil { return nil }
        return late
    }

    /// How far a late `<meta charset>` is looked for: its head, on any real page (one seen at
    /// byte 1,232, after a long `<title>` and keywords).
    static let lateWindow = 64 * 1024

    private static func metaCharset(_ bytes: ArraySlice<UInt8>) -> String? {
        // Non-ASCII bytes turn into U+FFFD here, which no label or attribute name contains.
        var tokenizer = HTMLTokenizer(String(decoding: bytes, as: UTF8.self))
        while let token = tokenizer.next() {
            guard case .startTag(let tag) = token, tag.name == "meta" else { continue }
            var label = tag.value(of: "charset")
            if label == nil, tag.value(of: "http-equiv")?.lowercased() == "content-type",
                let content = tag.value(of: "content")
            {
                label = charsetParameter(content)
            }
            guard let label = label?.trimmingASCIIWhitespace.lowercased(), !label.isEmpty else { continue }
            // A page that could be read as ASCII to find its meta is no UTF-16, whatever it says.
            return label.hasPrefix("utf-16") ? "utf-8" : label
        }
        return nil
    }

    /// The value of `charset=` in a content type, quotes removed.
    private static func charsetParameter(_ content: String) -> String? {
        let lower = content.lowercased()
        guard let range = lower.range(of: "charset=") else { return nil }
        let value = lower[range.upperBound...].trimmingCharacters(in: CharacterSet(charactersIn: " \"'"))
        let end = value.firstIndex(where: { $0 == ";" || $0 == " " || $0 == "\"" || $0 == "'" }) ?? value.endIndex
        return String(value[..<end])
    }

    /// Elements that start HTML documents, after the browsers' own sniffing table plus what
    /// pages without `<html>` open with. None is the root of a feed.
    private static let htmlElements: Set<String> = [
        "html", "head", "body", "meta", "title", "link", "base", "script", "style", "noscript", "iframe",
        "div", "span", "p", "a", "b", "i", "br", "h1", "h2", "h3", "h4", "h5", "h6", "table", "font",
        "center", "header", "nav", "main", "section", "article", "form", "img", "ul", "ol",
    ]

    /// Roots of XML feeds (RSS 1.0 is `rdf:RDF` under any prefix; broken RSS starts at `channel`).
    private static let feedRoots: Set<String> = ["rss", "feed", "rdf", "channel"]

    /// Walks the decoded window from the start.
    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        mutating func verdict() -> Verdict {
            while true {
                skipWhitespaceAndBOM()
                guard index < bytes.count else { return .unknown }
                switch bytes[index] {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    return .notHTML
                case UInt8(ascii: "<"):
                    break
                default:
                    return .unknown
                }
                if starts(with: "<!--") {
                    // From `<!` on, so the abrupt `<!-->` and `<!--->` end where browsers end them.
                    guard skip(past: "-->", from: index + 2) else { return .unknown }
                } else if starts(with: "<?") {
                    guard skip(past: "?>", from: index + 2) else { return .unknown }
                } else if starts(with: "<!") {
                    if isHTMLDoctype() { return .html }
                    guard skipDeclaration() else { return .unknown }
                } else {
                    return elementVerdict()
                }
            }
        }

        /// The verdict from the name of the element at `index`.
        private func elementVerdict() -> Verdict {
            var end = index + 1
            while end < bytes.count && isNameByte(bytes[end]) { end += 1 }
            guard end > index + 1 else { return .unknown }
            let name = String(decoding: bytes[(index + 1)..<end], as: UTF8.self).lowercased()
            let terminated = end == bytes.count || ASCIIWhitespace.contains(bytes[end])
                || bytes[end] == UInt8(ascii: ">") || bytes[end] == UInt8(ascii: "/")
            if terminated && HTMLSniffer.htmlElements.contains(name) { return .html }
            let localName = name.split(separator: ":").last.map(String.init) ?? name
            return HTMLSniffer.feedRoots.contains(localName) ? .notHTML : .unknown
        }

        /// `<!doctype html` followed by whitespace or `>` (HTML 4 and XHTML doctypes too).
        private func isHTMLDoctype() -> Bool {
            guard startsIgnoringCase(with: "<!doctype", at: index) else { return false }
            var cursor = index + 9
            while cursor < bytes.count && ASCIIWhitespace.contains(bytes[cursor]) { cursor += 1 }
            guard startsIgnoringCase(with: "html", at: cursor) else { return false }
            let after = cursor + 4
            return after == bytes.count || ASCIIWhitespace.contains(bytes[after])
                || bytes[after] == UInt8(ascii: ">")
        }

        /// Skips a `<!...>` declaration, including a doctype's `[...]` internal subset.
        private mutating func skipDeclaration() -> Bool {
            var cursor = index + 2
            while cursor < bytes.count {
                switch bytes[cursor] {
                case UInt8(ascii: "["):
                    guard let close = bytes[cursor...].firstIndex(of: UInt8(ascii: "]")) else { return false }
                    cursor = close + 1
                case UInt8(ascii: ">"):
                    index = cursor + 1
                    return true
                default:
                    cursor += 1
                }
            }
            return false
        }

        private mutating func skipWhitespaceAndBOM() {
            while index < bytes.count {
                if ASCIIWhitespace.contains(bytes[index]) {
                    index += 1
                } else if starts(with: "\u{FEFF}") {
                    index += 3
                } else {
                    return
                }
            }
        }

        /// Moves past the next `terminator` at or after `start`; false when there is none.
        private mutating func skip(past terminator: String, from start: Int) -> Bool {
            let needle = Array(terminator.utf8)
            var cursor = start
            while cursor + needle.count <= bytes.count {
                if bytes[cursor] == needle[0] && bytes[cursor..<(cursor + needle.count)].elementsEqual(needle) {
                    index = cursor + needle.count
                    return true
                }
                cursor += 1
            }
            return false
        }

        private func starts(with prefix: String) -> Bool {
            bytes[index...].starts(with: prefix.utf8)
        }

        private func startsIgnoringCase(with prefix: String, at start: Int) -> Bool {
            guard start <= bytes.count else { return false }
            let candidate = String(decoding: bytes[start...].prefix(prefix.utf8.count), as: UTF8.self)
            return DiscoveryURL.hasPrefixIgnoringCase(candidate, prefix)
        }

        private func isNameByte(_ byte: UInt8) -> Bool {
            let lower = byte | 0x20
            let isLetter = lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z")
            let isDigit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
            return isLetter || isDigit || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
        }
    }
}
