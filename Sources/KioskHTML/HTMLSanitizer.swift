import Foundation
import KioskCore

/// An allow-list HTML sanitizer for feed content, whose output is safe to insert into a page as is.
///
/// Only a reading set of elements survives (paragraphs, links, images, lists, quotes, tables,
/// inline emphasis...), each with a few checked attributes; unknown elements are unwrapped (their
/// content kept), and active or embedding ones (`script`, `style`, `iframe`, `object`, `form`,
/// `svg`, `template`...) are removed with their content. Links may only point to http, https and
/// mailto URLs (a link to anything else, or to nothing, is shown as its text), images to http(s)
/// or base64 PNG/GIF/JPEG/WebP/AVIF data; every link gets `rel="noopener noreferrer"`. What only
/// tracks the reader goes, in every feed: tracking pixels, FeedBurner's feedflare block, links to
/// feedflare and feed ads, and links left with no text and no image (invisible, yet a Tab stop
/// whose URL a screen reader reads out). The output is re-serialized from scratch: every text and
/// attribute value escaped, attributes double-quoted, every element closed in order, nesting
/// capped at ``maximumDepth``. It takes time linear in the input, in one pass: a link is judged
/// when it closes, and a dropped one is cut back off the output.
public struct HTMLSanitizer: Sendable {
    /// The URL relative links and image sources are resolved against, as given to the initializer.
    public let baseURL: String?
    /// The parsed base, kept only when it is an http(s) URL.
    private let base: URL?
    /// Maps each surviving http(s) image source to what the page loads instead (an image proxy),
    /// or drops the image when it answers nil. Data URLs are kept as they are.
    private let imageProxy: (@Sendable (String) -> String?)?

    /// Elements open at once beyond which further elements are unwrapped (their content kept).
    public static let maximumDepth = 100

    /// Output bytes inside a feedflare or feed-ad link up to which the link is dropped with them;
    /// a longer one is no sharing button, so it stays (and the cut-back stays small).
    static let maximumDroppedLinkBytes = 2_048

    /// A sanitizer resolving relative URLs against `baseURL` (an http or https URL, typically the
    /// entry's link). Without one, relative URLs are kept as written.
    /// - Parameter imageProxy: rewrites http(s) image sources (so pages never load third-party
    ///   images directly); nil keeps them.
    public init(baseURL: String? = nil, imageProxy: (@Sendable (String) -> String?)? = nil) {
        self.baseURL = baseURL
        self.imageProxy = imageProxy
        if let baseURL, let url = URL(string: baseURL),
            let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https"
        {
            base = url
        } else {
            base = nil
        }
    }

    /// Safe HTML for the given (hostile) HTML.
    public func sanitize(_ html: String) -> String {
        sanitize(tokenizer: HTMLTokenizer(html))
    }

    /// Safe HTML for the given (hostile) HTML, as valid UTF-8 bytes read in place (the reader
    /// view's article, written as bytes: no `String` of it made only to be copied back).
    func sanitize(utf8: [UInt8]) -> String {
        sanitize(tokenizer: HTMLTokenizer(utf8: utf8))
    }

    private func sanitize(tokenizer: consuming HTMLTokenizer) -> String {
        var tokenizer = tokenizer
        var writer = Writer()
        writer.out.reserveCapacity(tokenizer.bytes.count)
        var scratch: [UInt8] = []
        var pending: HTMLTokenizer.Token?
        while let token = pending ?? tokenizer.next() {
            pending = nil
            switch token {
            case .text(let range):
                scratch.removeAll(keepingCapacity: true)
                tokenizer.appendText(range, to: &scratch)
                writer.appendText(scratch)
            case .rawText(let range):
                // `xmp`, `plaintext` and CDATA content (the rest is dropped): shown as written.
                scratch.removeAll(keepingCapacity: true)
                tokenizer.appendText(range, to: &scratch, decode: false)
                writer.appendText(scratch)
            case .startTag(let tag):
                if Self.removedWithContent.contains(tag.name) {
                    if !HTMLTokenizer.isVoid(tag.name) && !(tag.selfClosing && HTMLTokenizer.isForeign(tag.name)) {
                        pending = tokenizer.skipContent(of: tag.name)
                    }
                } else if tag.isFeedFlare {
                    pending = tokenizer.skipContent(of: tag.name)
                } else if let element = Self.elements[tag.name] {
                    startElement(tag, element: element, writer: &writer)
                }
            case .endTag(let name):
                if let element = Self.elements[name] {
                    // Browsers read a stray </br> as <br>.
                    if element.flags.contains(.void) {
                        if name == "br" { writer.open(element, attributes: []) }
                    } else {
                        writer.close(element)
                    }
                }
            }
        }
        writer.closeAll()
        return String(decoding: writer.out, as: UTF8.self)
    }

    /// Writes an allowed start tag with its allowed, checked attributes (or drops an `img` with
    /// no usable source, or one that is a tracking pixel).
    private func startElement(_ tag: HTMLTokenizer.Tag, element: Element, writer: inout Writer) {
        var attributes: [(name: String, value: String)] = []
        for attribute in tag.attributes {
            guard let rule = element.attributes[attribute.name] ?? Self.globalAttributeRules[attribute.name],
                let value = sanitizedValue(attribute.value, rule: rule)
            else { continue }
            attributes.append((attribute.name, value))
        }
        switch tag.name {
        case "img":
            guard let index = attributes.firstIndex(where: { $0.name == "src" }),
                !Self.isTrackingImage(tag, source: attributes[index].value)
            else { return }
            if let imageProxy, !attributes[index].value.lowercased().hasPrefix("data:") {
                guard let proxied = imageProxy(attributes[index].value) else { return }
                attributes[index].value = proxied
            }
            writer.noteImage()
        case "a":
            // Without a target a browser may follow (`javascript:`, an empty or no `href`) it would
            // still look like a link and be one to a screen reader: only its content is shown.
            guard let href = attributes.first(where: { $0.name == "href" })?.value else {
                writer.openUnwritten(element)
                return
            }
            let isTracking = Self.isTrackingLink(href)
            attributes.append(("rel", "noopener noreferrer"))
            writer.open(element, attributes: attributes, link: isTracking ? .dropped : .keptIfNotEmpty)
            return
        default:
            break
        }
        writer.open(element, attributes: attributes)
    }

    // MARK: - Attributes

    /// What an allowed attribute's value must look like.
    private enum AttributeRule {
        /// Any text (escaped on output).
        case text
        /// A link target: http, https or mailto.
        case link
        /// An image source: http(s), or base64 raster image data.
        case imageSource
        /// A pixel size: digits, optionally followed by `px`.
        case dimension
        /// An integer within the range.
        case integer(ClosedRange<Int>)
        /// One of a few keywords (compared as written, case-insensitively for letters).
        case keyword(Set<String>)
        /// Present or not; written with an empty value.
        case boolean
        /// A BCP 47 language tag's characters.
        case language
    }

    private func sanitizedValue(_ value: String, rule: AttributeRule) -> String? {
        switch rule {
        case .text:
            return value
        case .link:
            return sanitizedURL(value, image: false)
        case .imageSource:
            return sanitizedURL(value, image: true)
        case .dimension:
            return Self.pixels(value).map { String(min($0, 10_000)) }
        case .integer(let range):
            let trimmed = Self.trimmingASCIIWhitespace(value)
            guard trimmed.utf8.count <= 10, let number = Int(trimmed) else { return nil }
            return String(min(max(number, range.lowerBound), range.upperBound))
        case .keyword(let keywords):
            let trimmed = String(Self.trimmingASCIIWhitespace(value))
            if keywords.contains(trimmed) { return trimmed }
            let lowered = trimmed.lowercased()
            return keywords.contains(lowered) ? lowered : nil
        case .boolean:
            return ""
        case .language:
            let valid = !value.isEmpty && value.utf8.count <= 35
                && value.utf8.allSatisfy { Self.isASCIIAlphanumeric($0) || $0 == UInt8(ascii: "-") }
            return valid ? value : nil
        }
    }

    /// A URL safe to follow or load, resolved against the base when relative; nil to drop it.
    private func sanitizedURL(_ value: String, image: Bool) -> String? {
        let url = Self.browserCleanedURL(value)
        guard !url.isEmpty else { return nil }
        if let scheme = Self.scheme(of: url) {
            switch scheme {
            case .http:
                return String(decoding: url, as: UTF8.self)
            case .mailto:
                return image ? nil : String(decoding: url, as: UTF8.self)
            case .rasterImageData:
                return image ? String(decoding: url, as: UTF8.self) : nil
            case .other:
                return nil
            }
        }
        guard let base else { return String(decoding: url, as: UTF8.self) }
        // Resolution could, in theory, yield a new scheme: check the result again.
        guard let resolved = Self.resolve(String(decoding: url, as: UTF8.self), against: base),
            Self.scheme(of: Array(resolved.utf8)) == .http
        else { return nil }
        return resolved
    }

    /// The URL as a browser's URL parser reads it: leading and trailing C0 controls and spaces
    /// removed, tabs and newlines removed everywhere.
    private static func browserCleanedURL(_ value: String) -> [UInt8] {
        var value = value
        return value.withUTF8 { bytes in
            var start = 0
            var end = bytes.count
            while start < end && bytes[start] <= 0x20 { start += 1 }
            while end > start && bytes[end - 1] <= 0x20 { end -= 1 }
            var out: [UInt8] = []
            out.reserveCapacity(end - start)
            for byte in bytes[start..<end] where byte != 0x09 && byte != 0x0A && byte != 0x0D {
                out.append(byte)
            }
            return out
        }
    }

    /// The kinds of URL scheme the sanitizer tells apart.
    enum Scheme: Equatable {
        /// http or https.
        case http
        case mailto
        /// `data:image/png|gif|jpeg|webp|avif;base64,`: never SVG, which can script.
        case rasterImageData
        /// Anything else, including every other `data:` URL.
        case other
    }

    /// The URL's scheme, or nil when it is relative. Stricter than a browser: every ASCII control
    /// and space is ignored and letters are compared case-insensitively, so neither
    /// `java\u{B}script:` nor `JaVaScRiPt:` can pass as relative or harmless.
    static func scheme(of url: [UInt8]) -> Scheme? {
        var scheme: [UInt8] = []
        var index = 0
        var sawColon = false
        while index < url.count {
            let byte = url[index]
            index += 1
            if byte <= 0x20 || byte == 0x7F { continue }
            if byte == UInt8(ascii: ":") {
                sawColon = true
                break
            }
            let lower = asciiLowercased(byte)
            let isLetter = lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z")
            let isSchemeCharacter = isLetter || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            // A path, query or fragment (or anything odd) before any ':' makes the URL relative.
            guard scheme.isEmpty ? isLetter : isSchemeCharacter else { return nil }
            if scheme.count < 16 { scheme.append(lower) }
        }
        guard sawColon, !scheme.isEmpty else { return nil }
        switch String(decoding: scheme, as: UTF8.self) {
        case "http", "https":
            return .http
        case "mailto":
            return .mailto
        case "data":
            var mediaType: [UInt8] = []
            while index < url.count && mediaType.count < 20 {
                let byte = url[index]
                index += 1
                if byte > 0x20 && byte != 0x7F { mediaType.append(asciiLowercased(byte)) }
            }
            let text = String(decoding: mediaType, as: UTF8.self)
            let raster = ["png", "gif", "jpeg", "jpg", "webp", "avif"].contains {
                text.hasPrefix("image/\($0);base64,")
            }
            return raster ? .rasterImageData : .other
        default:
            return .other
        }
    }

    private static func asciiLowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    private static func resolve(_ url: String, against base: URL) -> String? {
        if let resolved = URL(string: url, relativeTo: base) { return resolved.absoluteString }
        // Foundation may refuse spaces or non-ASCII characters that browsers escape themselves.
        guard let escaped = url.addingPercentEncoding(withAllowedCharacters: urlCharacters),
            let resolved = URL(string: escaped, relativeTo: base)
        else { return nil }
        return resolved.absoluteString
    }

    /// Characters left alone when escaping a URL Foundation refused ('%' too, for its escapes).
    private static let urlCharacters: CharacterSet = {
        var characters = CharacterSet.urlQueryAllowed
        characters.formUnion(.urlPathAllowed)
        characters.insert(charactersIn: "%#[]@!$&'()*+,;=")
        return characters
    }()

    // MARK: - Tracking images

    /// Images that only report reading: pixels (1×1, 0 wide or high, or 1 one way and no size
    /// the other; a 1×300 rule stays) and FeedBurner, feed-ad and Feedsportal beacons.
    private static func isTrackingImage(_ tag: HTMLTokenizer.Tag, source: String) -> Bool {
        let width = tag.value(of: "width").flatMap(pixels)
        let height = tag.value(of: "height").flatMap(pixels)
        switch (width, height) {
        case (0?, _), (_, 0?), (1?, nil), (nil, 1?):
            return true
        case (let width?, let height?) where width <= 1 && height <= 1:
            return true
        default:
            break
        }
        guard let (host, path) = hostAndPath(of: source) else { return false }
        if host == "feedsportal.com" || host.hasSuffix(".feedsportal.com") || isFeedAdsHost(host) { return true }
        return isFeedBurnerHost(host) && (path.hasPrefix("/~r/") || path.hasPrefix("/~ff/") || path.hasPrefix("/~a/"))
    }

    /// Links to FeedBurner's feedflare (`/~ff/`: "Email this", share counters) and ads (`/~a/`,
    /// `feedads.`): tracked sharing buttons, not the story. `/~r/` links are the story itself.
    static func isTrackingLink(_ href: String) -> Bool {
        guard let (host, path) = hostAndPath(of: href) else { return false }
        return isFeedAdsHost(host) || (isFeedBurnerHost(host) && (path.hasPrefix("/~ff/") || path.hasPrefix("/~a/")))
    }

    /// FeedBurner itself and the `feeds.` hosts publishers point at it (`feeds.reuters.com`).
    private static func isFeedBurnerHost(_ host: String) -> Bool {
        host.hasSuffix("feedburner.com") || host.hasPrefix("feeds.")
    }

    /// FeedBurner's ad server (`feedads.g.doubleclick.net`).
    private static func isFeedAdsHost(_ host: String) -> Bool {
        host.hasPrefix("feedads.") || host.contains(".feedads.")
    }

    /// The lowercased host and the path of an absolute http(s) URL (Foundation's parser is
    /// needlessly slow for a look at every image).
    private static func hostAndPath(of url: String) -> (host: String, path: String)? {
        let bytes = Array(url.utf8)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")),
            ["http", "https"].contains(String(decoding: bytes[..<colon], as: UTF8.self).lowercased())
        else { return nil }
        var start = colon + 1
        while start < bytes.count && (bytes[start] == UInt8(ascii: "/") || bytes[start] == UInt8(ascii: "\\")) {
            start += 1
        }
        let isDelimiter = { (byte: UInt8) in
            byte == UInt8(ascii: "/") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "?")
                || byte == UInt8(ascii: "#")
        }
        let end = bytes[start...].firstIndex(where: isDelimiter) ?? bytes.count
        var authority = bytes[start..<end]
        if let at = authority.lastIndex(of: UInt8(ascii: "@")) { authority = authority[(at + 1)...] }
        if let port = authority.lastIndex(of: UInt8(ascii: ":")) { authority = authority[..<port] }
        let pathEnd =
            bytes[end...].firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) ?? bytes.count
        let host = String(decoding: authority, as: UTF8.self).lowercased()
        return (host, String(decoding: bytes[end..<pathEnd], as: UTF8.self))
    }

    /// The pixels of a `width`/`height` value: digits, optionally followed by a fraction or `px`.
    private static func pixels(_ value: String) -> Int? {
        let bytes = Array(trimmingASCIIWhitespace(value).utf8)
        var index = 0
        var number = BoundedNumber(ceiling: 1_000_000_000)
        while index < bytes.count, let digit = BoundedNumber.digitValue(bytes[index]) {
            number.append(digit)
            index += 1
        }
        guard index > 0 else { return nil }
        if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            index += 1
            while index < bytes.count && bytes[index] >= UInt8(ascii: "0") && bytes[index] <= UInt8(ascii: "9") {
                index += 1
            }
        }
        let suffix = bytes[index...]
        let isPixels = suffix.count == 2 && asciiLowercased(suffix[index]) == UInt8(ascii: "p")
            && asciiLowercased(suffix[index + 1]) == UInt8(ascii: "x")
        return suffix.isEmpty || isPixels ? number.value : nil
    }

    /// The value without leading and trailing ASCII whitespace (Foundation's trimming is slow).
    private static func trimmingASCIIWhitespace(_ value: String) -> Substring {
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D }
        guard let first = value.utf8.firstIndex(where: { !isSpace($0) }),
            let last = value.utf8.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return value[first...last]
    }

    private static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
        let lower = byte | 0x20
        return (lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    // MARK: - Element tables

    /// Removed together with everything inside them: active content, embeds, forms, metadata.
    private static let removedWithContent: Set<String> = [
        "script", "style", "iframe", "object", "embed", "form", "input", "button", "textarea", "select",
        "template", "noscript", "svg", "math", "frame", "frameset", "applet", "base", "link", "meta",
        "title", "head", "noembed", "noframes", "param", "keygen", "dialog",
    ]

    /// Attributes allowed on every allowed element.
    private static let globalAttributeRules: [String: AttributeRule] = [
        "lang": .language,
        "dir": .keyword(["ltr", "rtl", "auto"]),
    ]

    /// An allowed element: its id, its place in the parser's rules, its allowed attributes.
    private struct Element: Sendable {
        /// Index in ``HTMLSanitizer/elementNames``, so the open-element stack holds small integers.
        let id: Int
        let flags: ElementFlags
        let attributes: [String: AttributeRule]
    }

    /// What the HTML parser's implied-end-tag and scope rules need to know about an element.
    private struct ElementFlags: OptionSet, Sendable {
        let rawValue: UInt32
        static let void = ElementFlags(rawValue: 1 << 0)
        /// Starting it closes an open `p` (block-level content).
        static let closesParagraph = ElementFlags(rawValue: 1 << 1)
        /// "Special" in the parser's sense (minus `div` and `p`): bounds the search for an open `li`.
        static let special = ElementFlags(rawValue: 1 << 2)
        /// Bounds "button scope" (and the search for an open `a`): `caption`, `table`, `td`, `th`.
        static let scopeBoundary = ElementFlags(rawValue: 1 << 3)
        static let paragraph = ElementFlags(rawValue: 1 << 4)
        static let listItem = ElementFlags(rawValue: 1 << 5)
        /// `dt` or `dd`.
        static let definition = ElementFlags(rawValue: 1 << 6)
        static let heading = ElementFlags(rawValue: 1 << 7)
        static let anchor = ElementFlags(rawValue: 1 << 8)
        static let table = ElementFlags(rawValue: 1 << 9)
        static let row = ElementFlags(rawValue: 1 << 10)
        /// `td` or `th`.
        static let cell = ElementFlags(rawValue: 1 << 11)
        /// `thead`, `tbody` or `tfoot`.
        static let section = ElementFlags(rawValue: 1 << 12)
        /// Only on the open-element stack: an element kept for the parser's rules (a link still
        /// closes the one before it) whose tags are not written.
        static let unwritten = ElementFlags(rawValue: 1 << 13)
    }

    /// The allowed elements with their allowed attributes, in id order; any other is unwrapped.
    private static let elementDefinitions:
        [(name: String, flags: ElementFlags, attributes: [String: AttributeRule])] = {
        let block: ElementFlags = [.closesParagraph, .special]
        let heading: ElementFlags = [.closesParagraph, .special, .heading]
        let cellAttributes: [String: AttributeRule] = ["colspan": .integer(1...1_000), "rowspan": .integer(0...65_534)]
        let number = AttributeRule.integer(-1_000_000...1_000_000)
        return [
            ("p", [.closesParagraph, .paragraph], [:]),
            ("div", [.closesParagraph], [:]),
            ("br", [.void, .special], [:]),
            ("hr", [.void, .closesParagraph, .special], [:]),
            ("a", [.anchor], ["href": .link, "title": .text]),
            ("img", [.void, .special], [
                "src": .imageSource, "alt": .text, "title": .text, "width": .dimension, "height": .dimension,
            ]),
            ("ul", block, [:]),
            ("ol", block, ["start": number, "reversed": .boolean, "type": .keyword(["1", "a", "A", "i", "I"])]),
            ("li", [.closesParagraph, .special, .listItem], ["value": number]),
            ("dl", block, [:]),
            ("dt", [.closesParagraph, .special, .definition], [:]),
            ("dd", [.closesParagraph, .special, .definition], [:]),
            ("blockquote", block, ["cite": .link]),
            ("pre", block, [:]),
            ("figure", block, [:]),
            ("figcaption", block, [:]),
            ("details", block, ["open": .boolean]),
            ("summary", block, [:]),
            ("h1", heading, [:]), ("h2", heading, [:]), ("h3", heading, [:]),
            ("h4", heading, [:]), ("h5", heading, [:]), ("h6", heading, [:]),
            ("table", [.closesParagraph, .special, .scopeBoundary, .table], [:]),
            ("caption", [.special, .scopeBoundary], [:]),
            ("thead", [.special, .section], [:]),
            ("tbody", [.special, .section], [:]),
            ("tfoot", [.special, .section], [:]),
            ("tr", [.special, .row], [:]),
            ("td", [.special, .scopeBoundary, .cell], cellAttributes),
            ("th", [.special, .scopeBoundary, .cell],
                cellAttributes.merging(["scope": .keyword(["row", "col", "rowgroup", "colgroup"])]) { old, _ in old }),
            ("q", [], ["cite": .link]),
            ("del", [], ["cite": .link, "datetime": .text]),
            ("ins", [], ["cite": .link, "datetime": .text]),
            ("time", [], ["datetime": .text]),
            ("abbr", [], ["title": .text]),
            ("cite", [], [:]), ("code", [], [:]), ("kbd", [], [:]), ("samp", [], [:]), ("em", [], [:]),
            ("strong", [], [:]), ("b", [], [:]), ("i", [], [:]), ("u", [], [:]), ("s", [], [:]),
            ("sub", [], [:]), ("sup", [], [:]), ("small", [], [:]), ("mark", [], [:]), ("span", [], [:]),
            // Readings above East Asian characters (and their fallback brackets).
            ("ruby", [], [:]), ("rt", [], [:]), ("rp", [], [:]),
        ]
    }()

    private static let elementNames: [String] = elementDefinitions.map(\.name)

    private static let elements: [String: Element] = {
        var elements: [String: Element] = [:]
        for (id, definition) in elementDefinitions.enumerated() {
            elements[definition.name] = Element(id: id, flags: definition.flags, attributes: definition.attributes)
        }
        return elements
    }()

    // MARK: - Output

    /// What becomes of a link when it closes.
    private enum LinkFate {
        /// Kept if it holds text or an image, else cut back off the output.
        case keptIfNotEmpty
        /// Cut back off with its content (up to ``HTMLSanitizer/maximumDroppedLinkBytes``).
        case dropped
    }

    /// A link still open, whose output can be cut back off when it closes.
    private struct OpenLink {
        /// Its index in the open-element stack.
        let depth: Int
        /// Where its start tag begins in the output, and where its content begins.
        let start: Int
        let contentStart: Int
        /// The writer's ``Writer/content`` and ``Writer/texts`` counts when it opened.
        let content: Int
        let texts: Int
        let fate: LinkFate
    }

    /// The serialized output and the stack of elements open in it.
    private struct Writer {
        var out: [UInt8] = []
        private var stack: [(id: Int, flags: ElementFlags)] = []
        /// Start tags left out beyond the depth cap, by element id, so their end tags are too.
        private var unwrappedBeyondDepth = [Int](repeating: 0, count: HTMLSanitizer.elementNames.count)
        /// Links open in the output, innermost last.
        private var links: [OpenLink] = []
        /// Text runs with something visible, and images, written while a link was open; a link
        /// whose count has not moved when it closes is empty.
        private var content = 0
        /// Text runs (whitespace too) written while a link was open: a dropped link that held
        /// some leaves a space, so the words on either side stay apart.
        private var texts = 0

        /// Opens an element, first closing those the HTML parser would close implicitly (an open
        /// `p` before a block, the previous `li`, cell or row...), so that a browser reading the
        /// output builds the same tree. A link is judged when it closes (see ``LinkFate``).
        mutating func open(
            _ element: Element, attributes: [(name: String, value: String)], link fate: LinkFate? = nil
        ) {
            impliedEndTags(before: element.flags)
            let isVoid = element.flags.contains(.void)
            if !isVoid && stack.count >= HTMLSanitizer.maximumDepth {
                unwrappedBeyondDepth[element.id] += 1
                return
            }
            let start = out.count
            out.append(UInt8(ascii: "<"))
            out.append(contentsOf: HTMLSanitizer.elementNames[element.id].utf8)
            for attribute in attributes {
                out.append(UInt8(ascii: " "))
                out.append(contentsOf: attribute.name.utf8)
                out.append(UInt8(ascii: "="))
                out.append(UInt8(ascii: "\""))
                var value = attribute.value
                value.withUTF8 { appendEscaped($0) }
                out.append(UInt8(ascii: "\""))
            }
            out.append(UInt8(ascii: ">"))
            guard !isVoid else { return }
            if let fate {
                links.append(
                    OpenLink(
                        depth: stack.count, start: start, contentStart: out.count, content: content, texts: texts,
                        fate: fate))
            }
            stack.append((element.id, element.flags))
        }

        /// Opens an element without writing it (nor, later, its end tag): its content is written
        /// as if it were not there, while the implied end tags it causes stay those of the element.
        mutating func openUnwritten(_ element: Element) {
            impliedEndTags(before: element.flags)
            if stack.count >= HTMLSanitizer.maximumDepth {
                unwrappedBeyondDepth[element.id] += 1
                return
            }
            stack.append((element.id, element.flags.union(.unwritten)))
        }

        /// Counts an image about to be written as content of the open links.
        mutating func noteImage() {
            if !links.isEmpty { content += 1 }
        }

        /// Appends text, escaped, counting it for the open links.
        mutating func appendText(_ bytes: [UInt8]) {
            if !links.isEmpty && !bytes.isEmpty {
                texts += 1
                if !Self.isBlank(bytes) { content += 1 }
            }
            appendEscaped(bytes)
        }

        /// Whitespace only, no-break spaces included: nothing to see or to read out.
        private static func isBlank(_ bytes: [UInt8]) -> Bool {
            var index = 0
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0C, 0x0D:
                    index += 1
                case 0xC2 where index + 1 < bytes.count && bytes[index + 1] == 0xA0:
                    index += 2
                default:
                    return false
                }
            }
            return true
        }

        /// Closes the innermost open element of that kind and any still open inside it; an end
        /// tag with nothing to close is dropped.
        mutating func close(_ element: Element) {
            if unwrappedBeyondDepth[element.id] > 0 {
                unwrappedBeyondDepth[element.id] -= 1
                return
            }
            guard let index = stack.lastIndex(where: { $0.id == element.id }) else { return }
            popElements(downTo: index)
        }

        mutating func closeAll() {
            popElements(downTo: 0)
        }

        mutating func appendEscaped(_ bytes: [UInt8]) {
            bytes.withUnsafeBufferPointer { appendEscaped($0) }
        }

        mutating func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>) {
            HTMLEscaping.appendEscaped(bytes, to: &out)
        }

        private mutating func popElements(downTo index: Int) {
            while stack.count > index, let element = stack.popLast() {
                if !element.flags.contains(.unwritten) {
                    out.append(UInt8(ascii: "<"))
                    out.append(UInt8(ascii: "/"))
                    out.append(contentsOf: HTMLSanitizer.elementNames[element.id].utf8)
                    out.append(UInt8(ascii: ">"))
                }
                if let link = links.last, link.depth == stack.count {
                    links.removeLast()
                    finish(link)
                }
            }
        }

        /// Cuts a link that just closed back off the output when it is empty or tracking. Every
        /// byte after its start was written inside it (elements close innermost first), so the cut
        /// leaves a well-formed output; each byte is cut at most once, so it stays linear.
        private mutating func finish(_ link: OpenLink) {
            let drop: Bool
            switch link.fate {
            case .keptIfNotEmpty:
                drop = content == link.content
            case .dropped:
                drop = out.count - link.contentStart <= HTMLSanitizer.maximumDroppedLinkBytes
            }
            guard drop else { return }
            let heldText = texts > link.texts
            out.removeSubrange(link.start...)
            content = link.content
            texts = link.texts
            if heldText {
                out.append(UInt8(ascii: " "))
                texts += 1
            }
        }

        private mutating func impliedEndTags(before flags: ElementFlags) {
            if flags.contains(.closesParagraph) {
                closeInScope(.paragraph, boundaries: .scopeBoundary)
            }
            if flags.contains(.listItem) {
                closeInScope(.listItem, boundaries: .special)
            } else if flags.contains(.definition) {
                closeInScope(.definition, boundaries: .special)
            } else if flags.contains(.heading) {
                // The innermost element written: one that is not (a link without a target) is
                // absent from the output, and the browser reading it decides without it.
                if let index = stack.lastIndex(where: { !$0.flags.contains(.unwritten) }), stack[index].flags.contains(.heading) {
                    popElements(downTo: index)
                }
            } else if flags.contains(.anchor) {
                closeInScope(.anchor, boundaries: .scopeBoundary)
            } else if flags.contains(.row) {
                closeInScope(.row, boundaries: .table)
            } else if flags.contains(.cell) {
                closeInScope(.cell, boundaries: [.row, .table])
            } else if flags.contains(.section) {
                closeInScope(.section, boundaries: .table)
            }
        }

        /// Closes the innermost open element among `targets`, unless a boundary comes first.
        /// The stack is at most ``HTMLSanitizer/maximumDepth`` deep, so this is bounded.
        private mutating func closeInScope(_ targets: ElementFlags, boundaries: ElementFlags) {
            var index = stack.count - 1
            while index >= 0 {
                let flags = stack[index].flags
                if !flags.isDisjoint(with: targets) {
                    popElements(downTo: index)
                    return
                }
                if !flags.isDisjoint(with: boundaries) { return }
                index -= 1
            }
        }
    }
}
