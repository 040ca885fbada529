// Reads OPML subscription lists from scanner events in one pass. Exporters disagree on nearly
// everything (attribute case, `text` or `title`, OPML 1.0 to 2.0, where folders go, whether a
// feed has a `type`), so the reader asks one question of each outline: does it name a feed
// (`xmlUrl`)? Everything else about an outline only names the folder its children are in.

extension OPML {
    /// Reads the subscriptions of an OPML file.
    ///
    /// The size is checked before anything is decoded; outlines and depth are counted while
    /// scanning, so a hostile file stops at the first limit it passes rather than after it was
    /// all read. Encodings are those ``TextDecoding`` reads (BOM, declaration, Windows-1252).
    /// Declared entities are never expanded and nothing outside `bytes` is ever read.
    public static func parse(_ bytes: [UInt8], limits: OPMLLimits = .default) throws(OPMLError) -> OPMLDocument {
        guard bytes.count <= limits.maxBytes else { throw .tooLarge(limit: limits.maxBytes) }
        let text = TextDecoding.utf8Bytes(bytes)
        var reader = OPMLReader(limits: limits)
        do {
            try text.withUnsafeBufferPointer { (buffer) throws(FeedError) in
                var scanner = XMLScanner(buffer)
                try scanner.scan(into: &reader)
            }
        } catch {
            // The scanner can only carry a FeedError; the reader kept the real reason.
            throw reader.failure ?? .notOPML
        }
        return try reader.document()
    }
}

/// Builds an ``OPMLDocument`` from ``XMLScanner`` events.
struct OPMLReader: XMLEventHandler {
    private let limits: OPMLLimits
    /// Why the reader stopped the scan. ``XMLEventHandler`` throws `FeedError` only, so the
    /// reader throws a stand-in and keeps the reason here for ``OPML/parse(_:limits:)``.
    private(set) var failure: OPMLError?
    private var sawRoot = false
    private var rootClosed = false
    private var stack: [OpenElement] = []
    /// The names of the folders around the current outline, outermost first.
    private var folders: [String] = []
    private var outlineCount = 0
    private var title: String?
    /// Set while inside `head/title`, whose text (and CDATA) goes to ``titleBuffer``.
    private var capturingTitle = false
    private var titleBuffer: [UInt8] = []
    private var subscriptions: [OPMLSubscription] = []
    private var duplicates: [OPMLSubscription] = []
    private var seenFeedURLs: Set<String> = []

    init(limits: OPMLLimits) {
        self.limits = limits
        stack.reserveCapacity(min(max(limits.maxDepth, 0), 64))
    }

    /// The document read; call after the scan.
    mutating func document() throws(OPMLError) -> OPMLDocument {
        guard sawRoot else { throw .notOPML }
        // A file cut off inside its title keeps what it had, as a cut-off outline list does.
        if capturingTitle { finishTitle() }
        return OPMLDocument(title: title, subscriptions: subscriptions, duplicates: duplicates)
    }

    // MARK: - Events

    mutating func startElement(
        name: Range<Int>, attributes: [XMLAttribute], isEmpty: Bool,
        in bytes: UnsafeBufferPointer<UInt8>
    ) throws(FeedError) {
        // Whatever follows the root (a second root, trailing junk) is not part of the list.
        guard !rootClosed else { return }
        guard let parent = stack.last else {
            // The first element decides: an RSS feed or an HTML page stops here, unread.
            guard Self.localName(name, bytes, is: Names.opml) else { try stop(.notOPML) }
            guard limits.maxDepth > 0 else { try stop(.tooDeep(limit: limits.maxDepth)) }
            sawRoot = true
            stack.append(OpenElement(name: name, kind: .root, inHead: false))
            return
        }
        guard stack.count < limits.maxDepth else { try stop(.tooDeep(limit: limits.maxDepth)) }
        let inHead = parent.inHead || parent.kind == .head
        let kind: Kind
        if parent.kind == .root, Self.localName(name, bytes, is: Names.head) {
            kind = .head
        } else if parent.kind == .head, Self.localName(name, bytes, is: Names.title), title == nil {
            kind = .headTitle
            capturingTitle = true
            titleBuffer.removeAll(keepingCapacity: true)
        } else if !inHead, Self.localName(name, bytes, is: Names.outline) {
            outlineCount += 1
            guard outlineCount <= limits.maxOutlines else { try stop(.tooManyOutlines(limit: limits.maxOutlines)) }
            kind = .outline(addsFolder: readOutline(attributes, bytes))
        } else {
            kind = .other
        }
        stack.append(OpenElement(name: name, kind: kind, inHead: inHead))
    }

    mutating func endElement(name: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) {
        // Liberal nesting: close back to the matching open element; ignore a stray end tag.
        guard !rootClosed, let index = stack.lastIndex(where: { Self.sameName($0.name, name, bytes) }) else { return }
        while stack.count > index, let element = stack.popLast() {
            switch element.kind {
            case .outline(addsFolder: true):
                folders.removeLast()
            case .headTitle:
                finishTitle()
            case .root:
                rootClosed = true
            case .head, .outline(addsFolder: false), .other:
                break
            }
        }
    }

    mutating func text(_ range: Range<Int>, hasReference: Bool, in bytes: UnsafeBufferPointer<UInt8>) {
        guard capturingTitle else { return }
        if hasReference {
            XMLEntities.decode(bytes, range, into: &titleBuffer)
        } else {
            titleBuffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[range]))
        }
    }

    mutating func cdata(_ range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) {
        guard capturingTitle else { return }
        titleBuffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[range]))
    }

    // MARK: - Outlines

    /// Records the feed an outline names, if any, and pushes the folder name its children are
    /// in. Returns whether a folder name was pushed.
    private mutating func readOutline(_ attributes: [XMLAttribute], _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var xmlURL: String?
        var htmlURL: String?
        var titleAttribute: String?
        var textAttribute: String?
        for attribute in attributes {
            // Exporters spell these in every case (`xmlUrl`, `xmlurl`, `XMLURL`); the first wins.
            let attributeName = attribute.name
            if xmlURL == nil, Self.equalsIgnoringCase(attributeName, bytes, Names.xmlURL) {
                xmlURL = Self.value(attribute, bytes)
            } else if htmlURL == nil, Self.equalsIgnoringCase(attributeName, bytes, Names.htmlURL) {
                htmlURL = Self.value(attribute, bytes)
            } else if titleAttribute == nil, Self.equalsIgnoringCase(attributeName, bytes, Names.title) {
                titleAttribute = Self.value(attribute, bytes)
            } else if textAttribute == nil, Self.equalsIgnoringCase(attributeName, bytes, Names.text) {
                textAttribute = Self.value(attribute, bytes)
            }
        }
        let name = Self.nonEmpty(titleAttribute) ?? Self.nonEmpty(textAttribute)
        guard let feedURL = Self.nonEmpty(xmlURL) else {
            // A folder (or a link, or a note): it names nothing to subscribe to, only a level.
            guard let name else { return false }
            folders.append(name)
            return true
        }
        // Some exporters name an untitled feed by its address; that is no name to show.
        let feedTitle = name == feedURL ? nil : name
        let subscription = OPMLSubscription(
            feedURL: feedURL, title: feedTitle, siteURL: Self.nonEmpty(htmlURL),
            folder: folders.isEmpty ? nil : folders.joined(separator: " / "))
        if seenFeedURLs.insert(feedURL).inserted {
            subscriptions.append(subscription)
        } else {
            duplicates.append(subscription)
        }
        // A feed outline with children is a folder too (some readers nest a site's feeds under
        // its main one); its children are still subscriptions, in a folder named after it.
        guard let feedTitle else { return false }
        folders.append(feedTitle)
        return true
    }

    private mutating func finishTitle() {
        capturingTitle = false
        if title == nil { title = Self.nonEmpty(ASCIIWhitespace.trimmedString(titleBuffer)) }
        titleBuffer = []
    }

    /// Records why the scan stops and stops it.
    private mutating func stop(_ reason: OPMLError) throws(FeedError) -> Never {
        failure = reason
        throw .notAFeed(reason.message)
    }

    // MARK: - Bytes

    /// An attribute's value as XML reads it: literal tabs and line breaks are spaces (attribute
    /// value normalisation, which is why writers use `&#10;`), then references are decoded once.
    private static func value(_ attribute: XMLAttribute, _ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let raw = UnsafeBufferPointer(rebasing: bytes[attribute.value])
        guard raw.contains(where: { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) else {
            guard attribute.hasReference else { return String(decoding: raw, as: UTF8.self) }
            var decoded: [UInt8] = []
            XMLEntities.decode(bytes, attribute.value, into: &decoded)
            return String(decoding: decoded, as: UTF8.self)
        }
        var normalized: [UInt8] = []
        normalized.reserveCapacity(raw.count)
        var index = 0
        while index < raw.count {
            let byte = raw[index]
            if byte == 0x0D, index + 1 < raw.count, raw[index + 1] == 0x0A { index += 1 }  // CR LF is one break
            normalized.append(byte == 0x09 || byte == 0x0A || byte == 0x0D ? 0x20 : byte)
            index += 1
        }
        guard attribute.hasReference else { return String(decoding: normalized, as: UTF8.self) }
        var decoded: [UInt8] = []
        normalized.withUnsafeBufferPointer { XMLEntities.decode($0, 0..<$0.count, into: &decoded) }
        return String(decoding: decoded, as: UTF8.self)
    }

    /// The text without surrounding white space, or nil when nothing is left.
    private static func nonEmpty(_ text: String?) -> String? {
        guard let trimmed = text?.trimmingASCIIWhitespace, !trimmed.isEmpty else { return nil }
        return trimmed
    }

    /// Whether an element's local name (after any prefix) is `lowercase`, in any case.
    private static func localName(_ name: Range<Int>, _ bytes: UnsafeBufferPointer<UInt8>, is lowercase: [UInt8]) -> Bool {
        var start = name.lowerBound
        if let colon = bytes[name].lastIndex(of: .colon) { start = colon + 1 }
        return equalsIgnoringCase(start..<name.upperBound, bytes, lowercase)
    }

    /// Whether `bytes[range]` is `lowercase` with ASCII letters in any case.
    private static func equalsIgnoringCase(_ range: Range<Int>, _ bytes: UnsafeBufferPointer<UInt8>, _ lowercase: [UInt8]) -> Bool {
        guard range.count == lowercase.count else { return false }
        var i = range.lowerBound
        for expected in lowercase {
            if lowercased(bytes[i]) != expected { return false }
            i += 1
        }
        return true
    }

    /// Whether two names in the input are the same, ignoring ASCII case (`<Outline>…</outline>`).
    private static func sameName(_ a: Range<Int>, _ b: Range<Int>, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        var i = a.lowerBound
        var j = b.lowerBound
        while i < a.upperBound {
            if lowercased(bytes[i]) != lowercased(bytes[j]) { return false }
            i += 1
            j += 1
        }
        return true
    }

    @inline(__always) private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }
}

extension OPMLReader {
    /// The element and attribute names the reader knows, lowercased.
    enum Names {
        static let opml = Array("opml".utf8)
        static let head = Array("head".utf8)
        static let title = Array("title".utf8)
        static let outline = Array("outline".utf8)
        static let text = Array("text".utf8)
        static let xmlURL = Array("xmlurl".utf8)
        static let htmlURL = Array("htmlurl".utf8)
    }

    /// What an open element is to the reader.
    enum Kind: Equatable {
        case root, head, headTitle, other
        /// An outline; `addsFolder` when it pushed a folder name its end must pop.
        case outline(addsFolder: Bool)
    }

    struct OpenElement {
        var name: Range<Int>
        var kind: Kind
        /// Inside `<head>`, where outlines are not subscriptions.
        var inHead: Bool
    }
}
