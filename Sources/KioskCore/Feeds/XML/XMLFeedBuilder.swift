import Foundation

// Reads RSS 0.9x/1.0/2.0 and Atom 0.3/1.0 from scanner events in one pass. Elements are known
// by namespace and lowercased local name; a small stack gives each its scope (feed, entry, image,
// author...) so that a field is only ever filled from the place it belongs.

/// Builds a ``Feed`` from ``XMLScanner`` events.
struct XMLFeedBuilder: XMLEventHandler {
    private let limits: ParserLimits
    private(set) var format: FeedFormat?
    private var feed = MutableFeed()
    private var entries: [Entry] = []
    private var entry: MutableEntry?
    private var person: Author?
    private var stack: [OpenElement] = []
    private var bindings: [(prefix: [UInt8], namespace: XMLNamespace)] = []
    private var capture: Capture?
    private var buffer: [UInt8] = []

    init(limits: ParserLimits) {
        self.limits = limits
        stack.reserveCapacity(32)
        buffer.reserveCapacity(4096)
    }

    /// The feed read so far; call after the scan.
    func result() throws(FeedError) -> Feed {
        guard let format else { throw .notAFeed("no XML root element") }
        var entries = entries
        // An entry still open at the end of a truncated document is kept, like browsers do.
        if let entry { entries.append(entry.finished()) }
        return Feed(
            format: format, title: feed.title, link: feed.link ?? (isAtom ? feed.id : nil), language: feed.language ?? feed.rootLanguage,
            updated: feed.updated, image: feed.image ?? feed.icon, ttl: feed.ttl, entries: entries)
    }

    // MARK: - Events

    mutating func startElement(
        name: Range<Int>, attributes: [XMLAttribute], isEmpty: Bool,
        in bytes: UnsafeBufferPointer<UInt8>
    ) throws(FeedError) {
        guard stack.count < limits.maxDepth else { throw .tooDeep(limit: limits.maxDepth) }
        let bindingCount = bindings.count
        var base = stack.last?.base
        var lang = stack.last?.lang
        for attribute in attributes where Self.startsWithX(attribute.name, bytes) {
            let attributeName = bytes[attribute.name]
            if attributeName.starts(with: Self.xmlns) {
                let prefix = attributeName.count > 6 ? Array(attributeName.dropFirst(6)) : []
                bindings.append((prefix, XMLNamespace(uri: Self.string(attribute, bytes))))
            } else if attributeName.elementsEqual(Self.xmlBase) {
                base = URLResolution.resolve(Self.string(attribute, bytes), against: base)
            } else if attributeName.elementsEqual(Self.xmlLang) {
                lang = Self.string(attribute, bytes)
            }
        }
        let (namespace, local) = resolve(name, bytes)
        let parentScope = stack.last?.scope ?? .document
        var element = OpenElement(
            qname: name, namespace: namespace, local: local, scope: parentScope, bindingCount: bindingCount,
            base: base, lang: lang)

        if capture != nil {
            stack.append(element)
            serializeStart(element, attributes, bytes)
            return
        }
        if parentScope == .document {
            try detectFormat(element, attributes, bytes)
            element.scope = .feed
            if let lang { feed.rootLanguage = lang.replacingOccurrences(of: "_", with: "-") }
            stack.append(element)
            return
        }
        element.scope = childScope(of: element, in: parentScope, attributes, bytes)
        stack.append(element)
        if element.scope == .entry, parentScope != .entry {
            entry = MutableEntry()
            entry?.id = Self.attribute("about", attributes, bytes)
        } else if element.scope == parentScope || element.scope == .person || element.scope == .personField {
            startField(element, attributes, bytes)
        }
    }

    mutating func endElement(name: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) {
        // Liberal nesting: close back to the matching open element; ignore a stray end tag.
        guard let index = stack.lastIndex(where: { Self.equal($0.qname, name, bytes) }) else { return }
        while stack.count > index {
            guard let element = stack.popLast() else { break }
            close(element)
            bindings.removeLast(bindings.count - element.bindingCount)
        }
    }

    mutating func text(_ range: Range<Int>, hasReference: Bool, in bytes: UnsafeBufferPointer<UInt8>) {
        guard let capture else { return }
        if capture.mode == .xhtml {
            var decoded: [UInt8] = []
            if hasReference { XMLEntities.decode(bytes, range, into: &decoded) } else { decoded = Array(bytes[range]) }
            decoded.withUnsafeBufferPointer { HTMLEscaping.appendEscaped($0, to: &buffer, quotes: .none) }
        } else if hasReference {
            XMLEntities.decode(bytes, range, into: &buffer)
        } else {
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[range]))
        }
    }

    mutating func cdata(_ range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) {
        guard let capture else { return }
        if capture.mode == .xhtml {
            HTMLEscaping.appendEscaped(UnsafeBufferPointer(rebasing: bytes[range]), to: &buffer, quotes: .none)
        } else {
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[range]))
        }
    }

    // MARK: - Format and scopes

    private mutating func detectFormat(
        _ root: OpenElement, _ attributes: [XMLAttribute], _ bytes: UnsafeBufferPointer<UInt8>
    ) throws(FeedError) {
        let version = Self.attribute("version", attributes, bytes)?.trimmingASCIIWhitespace
        switch root.local {
        case "rss":
            format =
                switch version {
                case "0.90": .rss090
                case "0.91": .rss091
                case "0.92": .rss092
                case "0.93": .rss093
                case "0.94": .rss094
                case "2.0", "2", "2.0.1", "2.01": .rss20
                default: .rss
                }
        case "rdf":
            let isNetscape = attributes.contains { attribute in
                Self.string(attribute, bytes).lowercased().contains("my.netscape.com/rdf/simple/0.9")
            }
            format = isNetscape ? .rss090 : .rss10
        case "feed":
            let isAtom03 = version == "0.3" || attributes.contains { Self.string($0, bytes).contains("purl.org/atom/ns") }
            format = isAtom03 ? .atom03 : .atom10
        case "channel":
            format = .rss
        case "html":
            throw .notAFeed("an HTML page")
        default:
            throw .notAFeed("the root element is <\(root.local)>")
        }
    }

    private var isAtom: Bool { format == .atom03 || format == .atom10 }

    private func childScope(
        of element: OpenElement, in scope: Scope, _ attributes: [XMLAttribute], _ bytes: UnsafeBufferPointer<UInt8>
    ) -> Scope {
        let isCore = element.namespace == .core || element.namespace == .atom
        switch scope {
        case .person:
            return .personField
        case .ignored, .image, .personField:
            return .ignored
        case .document:
            return .feed
        case .feed:
            guard isCore else { return .feed }
            switch element.local {
            case "item", "entry":
                return entries.count < limits.maxEntries ? .entry : .ignored
            case "image":
                return .image
            case "author" where isAtom || element.namespace == .atom:
                return .ignoredPerson
            case "contributor", "textinput", "items", "source":
                return .ignored
            default:
                return .feed
            }
        case .ignoredPerson:
            return .ignored
        case .entry:
            guard isCore else { return .entry }
            switch element.local {
            case "author" where isAtom || element.namespace == .atom:
                return .person
            case "contributor", "source", "image":
                return .ignored
            default:
                return .entry
            }
        }
    }

    private mutating func startField(
        _ element: OpenElement, _ attributes: [XMLAttribute], _ bytes: UnsafeBufferPointer<UInt8>
    ) {
        let scope = element.scope
        switch (element.namespace, element.local) {
        case (.core, "title"), (.atom, "title"), (.dc, "title"):
            begin(.title, element, mode: textMode(attributes, bytes, defaultMode: .plain))
        case (.core, "link"), (.atom, "link"):
            if let href = Self.attribute("href", attributes, bytes) {
                atomLink(href, element, attributes, bytes)
            } else if element.namespace == .core {
                begin(.link, element, mode: .plain)
            }
        case (.core, "guid"):
            let isPermaLink = Self.attribute("ispermalink", attributes, bytes)?.lowercased() != "false"
            entry?.guidIsPermaLink = isPermaLink
            begin(.id, element, mode: .plain)
        case (.core, "id"), (.atom, "id"):
            entry?.guidIsPermaLink = true
            begin(.id, element, mode: .plain)
        case (.core, "description"), (.dc, "description"):
            begin(.summary, element, mode: .markup)
        case (.core, "summary"), (.atom, "summary"), (.core, "tagline"), (.core, "subtitle"):
            begin(.summary, element, mode: textMode(attributes, bytes, defaultMode: .text))
        case (.core, "content"), (.atom, "content"):
            begin(.content, element, mode: textMode(attributes, bytes, defaultMode: .text))
        case (.content, "encoded"):
            begin(.content, element, mode: .markup)
        case (.xhtml, "body"), (.xhtml, "div"):
            if scope == .entry, entry?.content == nil { begin(.content, element, mode: .xhtml) }
        case (.core, "pubdate"), (.core, "issued"), (.atom, "issued"), (.core, "published"), (.atom, "published"),
            (.dcterms, "issued"):
            begin(.published, element, mode: .plain)
        case (.core, "lastbuilddate"), (.core, "updated"), (.atom, "updated"), (.core, "modified"),
            (.atom, "modified"), (.dc, "date"), (.dcterms, "modified"):
            begin(.updated, element, mode: .plain)
        case (.core, "language"), (.dc, "language"):
            begin(.language, element, mode: .plain)
        case (.core, "ttl"):
            if scope == .feed { begin(.ttl, element, mode: .plain) }
        case (.core, "author"), (.dc, "creator"), (.dc, "author"), (.itunes, "author"):
            if element.scope == .person {
                person = Author()
            } else {
                begin(.author(element.namespace == .itunes), element, mode: .plain)
            }
        case (.core, "name"), (.atom, "name"):
            if scope == .personField { begin(.personName, element, mode: .plain) }
        case (.core, "email"), (.atom, "email"):
            if scope == .personField { begin(.personEmail, element, mode: .plain) }
        case (.core, "uri"), (.atom, "uri"):
            if scope == .personField { begin(.personURI, element, mode: .plain) }
        case (.core, "url"):
            if scope == .personField {
                begin(.personURI, element, mode: .plain)
            } else if scope == .image {
                begin(.imageURL, element, mode: .plain)
            }
        case (.core, "logo"), (.atom, "logo"):
            begin(.imageURL, element, mode: .plain)
        case (.core, "icon"), (.atom, "icon"):
            begin(.icon, element, mode: .plain)
        case (.core, "category"), (.atom, "category"), (.dc, "subject"):
            if let term = Self.attribute("term", attributes, bytes) ?? Self.attribute("label", attributes, bytes) {
                if !term.isEmpty { entry?.categories.append(term) }
            } else {
                begin(.category, element, mode: .plain)
            }
        case (.core, "enclosure"):
            if let url = Self.attribute("url", attributes, bytes), !url.isEmpty {
                entry?.add(
                    Enclosure(
                        url: URLResolution.resolve(url, against: element.base),
                        type: Self.attribute("type", attributes, bytes),
                        length: Self.attribute("length", attributes, bytes).flatMap { Int($0) }))
            }
        case (.media, "thumbnail"):
            if let url = Self.attribute("url", attributes, bytes), entry?.image == nil {
                entry?.image = URLResolution.resolve(url, against: element.base)
            }
        case (.media, "content"):
            let medium = Self.attribute("medium", attributes, bytes)?.lowercased()
            let type = Self.attribute("type", attributes, bytes)?.lowercased()
            guard let url = Self.attribute("url", attributes, bytes), !url.isEmpty else { break }
            let resolved = URLResolution.resolve(url, against: element.base)
            if medium == "image" || type?.hasPrefix("image/") == true {
                if entry?.image == nil { entry?.image = resolved }
            } else {
                // Audio and video (a `media:group` lists the same episode in several formats).
                let enclosure = Enclosure(
                    url: resolved, type: type, length: Self.attribute("filesize", attributes, bytes).flatMap(MediaDuration.count),
                    medium: medium, duration: Self.attribute("duration", attributes, bytes).flatMap(MediaDuration.count))
                if enclosure.kind != nil { entry?.add(media: enclosure) }
            }
        case (.itunes, "duration"):
            if scope == .entry { begin(.duration, element, mode: .plain) }
        case (.itunes, "episode"):
            if scope == .entry { begin(.episodeNumber, element, mode: .plain) }
        case (.itunes, "season"):
            if scope == .entry { begin(.season, element, mode: .plain) }
        case (.itunes, "explicit"):
            if scope == .entry { begin(.explicit, element, mode: .plain) }
        case (.podcast, "chapters"):
            if scope == .entry, entry?.chapters == nil, let url = Self.attribute("url", attributes, bytes), !url.isEmpty {
                entry?.chapters = MediaLink(
                    url: URLResolution.resolve(url, against: element.base), type: Self.attribute("type", attributes, bytes))
            }
        case (.podcast, "transcript"):
            if scope == .entry, let url = Self.attribute("url", attributes, bytes), !url.isEmpty {
                entry?.add(
                    transcript: MediaLink(
                        url: URLResolution.resolve(url, against: element.base), type: Self.attribute("type", attributes, bytes),
                        language: Self.attribute("language", attributes, bytes), rel: Self.attribute("rel", attributes, bytes)))
            }
        case (.itunes, "image"):
            if let href = Self.attribute("href", attributes, bytes) {
                if scope == .entry {
                    if entry?.image == nil { entry?.image = href }
                } else if scope == .feed, feed.image == nil {
                    feed.image = href
                }
            }
        case (.media, "title"):
            if scope == .entry, entry?.title == nil { begin(.title, element, mode: .plain) }
        case (.feedburner, "origlink"):
            begin(.origLink, element, mode: .plain)
        default:
            break
        }
    }

    private mutating func atomLink(
        _ href: String, _ element: OpenElement, _ attributes: [XMLAttribute], _ bytes: UnsafeBufferPointer<UInt8>
    ) {
        let rel = Self.attribute("rel", attributes, bytes)?.lowercased() ?? "alternate"
        let url = URLResolution.resolve(href, against: element.base)
        let type = Self.attribute("type", attributes, bytes)?.lowercased() ?? "text/html"
        let isPage = type == "text/html" || type == "application/xhtml+xml" || type == "html" || type == "xhtml"
        switch (rel, element.scope) {
        case ("alternate", .entry) where isPage:
            entry?.link = url
        case ("alternate", .feed) where isPage:
            feed.link = url
        case ("enclosure", .entry):
            entry?.add(
                Enclosure(
                    url: url, type: Self.attribute("type", attributes, bytes),
                    length: Self.attribute("length", attributes, bytes).flatMap { Int($0) }))
        default:
            break
        }
    }

    // MARK: - Capturing text

    private mutating func begin(_ target: Target, _ element: OpenElement, mode: TextMode) {
        buffer.removeAll(keepingCapacity: true)
        capture = Capture(target: target, depth: stack.count - 1, mode: mode, base: element.base, scope: element.scope)
    }

    private func textMode(_ attributes: [XMLAttribute], _ bytes: UnsafeBufferPointer<UInt8>, defaultMode: TextMode)
        -> TextMode
    {
        if Self.attribute("mode", attributes, bytes)?.lowercased() == "base64" { return .base64 }
        if Self.attribute("mode", attributes, bytes)?.lowercased() == "xml" { return .xhtml }
        guard let type = Self.attribute("type", attributes, bytes)?.lowercased().trimmingASCIIWhitespace,
            !type.isEmpty
        else {
            return Self.attribute("mode", attributes, bytes)?.lowercased() == "escaped" ? .markup : defaultMode
        }
        switch type {
        case "html", "text/html": return .markup
        case "xhtml", "application/xhtml+xml": return .xhtml
        case "text", "text/plain", "plain": return defaultMode == .plain ? .plain : .text
        default:
            // Atom: any other non-XML, non-text media type is base64.
            let isTextual = type.hasPrefix("text/") || type.hasSuffix("+xml") || type.hasSuffix("/xml")
            return isTextual ? defaultMode : .base64
        }
    }

    private mutating func serializeStart(
        _ element: OpenElement, _ attributes: [XMLAttribute], _ bytes: UnsafeBufferPointer<UInt8>
    ) {
        guard let capture, capture.mode == .xhtml || capture.mode == .markup else { return }
        if capture.mode == .xhtml, stack.count - 1 == capture.depth + 1, element.local == "div", buffer.isEmpty
            || buffer.allSatisfy(XMLScanner.isSpace)
        {
            self.capture?.skipDepth = stack.count - 1
            buffer.removeAll(keepingCapacity: true)
            return
        }
        buffer.append(.lt)
        buffer.append(contentsOf: element.local.utf8)
        for attribute in attributes {
            let attributeName = bytes[attribute.name]
            if attributeName.starts(with: Self.xmlns) { continue }
            buffer.append(0x20)
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: attributeName))
            buffer.append(contentsOf: "=\"".utf8)
            var value: [UInt8] = []
            XMLEntities.decode(bytes, attribute.value, into: &value)
            value.withUnsafeBufferPointer { HTMLEscaping.appendEscaped($0, to: &buffer, quotes: .double) }
            buffer.append(.quote)
        }
        buffer.append(.gt)
    }

    private mutating func close(_ element: OpenElement) {
        if let capture {
            if stack.count == capture.depth {
                finishCapture(capture)
                self.capture = nil
            } else if capture.mode == .xhtml || capture.mode == .markup {
                if capture.skipDepth == stack.count {
                    self.capture?.skipDepth = nil
                } else if !Self.voidElements.contains(element.local) {
                    buffer.append(contentsOf: "</".utf8)
                    buffer.append(contentsOf: element.local.utf8)
                    buffer.append(.gt)
                }
                return
            } else {
                return
            }
        }
        let parentScope = stack.last?.scope ?? .document
        if element.scope == .entry, parentScope != .entry, let finished = entry {
            entries.append(finished.finished())
            entry = nil
        } else if element.scope == .person, parentScope == .entry, let person {
            if person.name != nil || person.email != nil || person.uri != nil { entry?.authors.append(person) }
            self.person = nil
        }
    }

    private mutating func finishCapture(_ capture: Capture) {
        var text = ASCIIWhitespace.trimmedString(buffer)
        switch capture.mode {
        case .base64:
            let compact = text.filter { !$0.isWhitespace }
            if let data = Data(base64Encoded: compact) { text = TextDecoding.string(data) }
        case .text:
            text = HTMLEscaping.escape(text)
        default:
            break
        }
        let trimmed = capture.mode == .base64 ? text.trimmingASCIIWhitespace : text
        let scope = capture.scope
        switch capture.target {
        case .title:
            // Markup in a title (Atom `type="html"`, an RSS title with tags or references) is read
            // for its words: a title is never a document whose `<svg` hides the rest.
            let isText = capture.mode == .plain && !Self.looksLikeHTML(trimmed)
            let title = isText ? trimmed : HTMLText.plainText(fromTitle: trimmed)
            if scope == .entry { entry?.title = title } else if scope == .feed { feed.title = title }
        case .link:
            guard !trimmed.isEmpty else { return }
            let url = URLResolution.resolve(trimmed, against: capture.base)
            if scope == .entry { entry?.link = url } else if scope == .feed { feed.link = url }
        case .id:
            if scope == .entry, !trimmed.isEmpty { entry?.id = trimmed } else if scope == .feed { feed.id = trimmed }
        case .summary:
            if scope == .entry, !trimmed.isEmpty { entry?.summary = trimmed }
        case .content:
            if scope == .entry, !trimmed.isEmpty { entry?.content = trimmed }
        case .published:
            if scope == .entry { entry?.published = DateParser.parse(trimmed) }
        case .updated:
            let date = DateParser.parse(trimmed)
            if scope == .entry { entry?.updated = date } else if scope == .feed, date != nil { feed.updated = date }
        case .language:
            if scope == .feed, !trimmed.isEmpty { feed.language = trimmed.replacingOccurrences(of: "_", with: "-") }
        case .ttl:
            if scope == .feed, let minutes = Self.minutes(trimmed) { feed.ttl = minutes }
        case .author(let isFallback):
            guard scope == .entry, !trimmed.isEmpty else { return }
            if !isFallback || entry?.textAuthor == nil { entry?.textAuthor = trimmed }
        case .personName:
            if !trimmed.isEmpty { person?.name = trimmed }
        case .personEmail:
            if !trimmed.isEmpty { person?.email = trimmed }
        case .personURI:
            if !trimmed.isEmpty { person?.uri = URLResolution.resolve(trimmed, against: capture.base) }
        case .category:
            if scope == .entry, !trimmed.isEmpty { entry?.categories.append(trimmed) }
        case .imageURL:
            if !trimmed.isEmpty { feed.image = URLResolution.resolve(trimmed, against: capture.base) }
        case .icon:
            if !trimmed.isEmpty { feed.icon = URLResolution.resolve(trimmed, against: capture.base) }
        case .origLink:
            if scope == .entry, !trimmed.isEmpty { entry?.origLink = trimmed }
        case .duration:
            if scope == .entry { entry?.duration = MediaDuration.seconds(trimmed) }
        case .episodeNumber:
            if scope == .entry { entry?.episodeNumber = MediaDuration.count(trimmed) }
        case .season:
            if scope == .entry { entry?.season = MediaDuration.count(trimmed) }
        case .explicit:
            if scope == .entry { entry?.explicit = MediaDuration.explicit(trimmed) }
        }
    }

    /// A `<ttl>`'s minutes: digits only, else nil. A run too long for any sane ttl stops at a
    /// year (a poller caps it far lower anyway) instead of overflowing.
    private static func minutes(_ text: String) -> Int? {
        guard !text.isEmpty else { return nil }
        var number = BoundedNumber(ceiling: 366 * 24 * 60)
        for byte in text.utf8 {
            guard let digit = BoundedNumber.digitValue(byte) else { return nil }
            number.append(digit)
        }
        return number.value
    }

    // MARK: - Names

    /// The element's namespace and lowercased local name.
    private func resolve(_ name: Range<Int>, _ bytes: UnsafeBufferPointer<UInt8>) -> (XMLNamespace, String) {
        let qname = bytes[name]
        if let colon = qname.firstIndex(of: .colon) {
            let prefix = qname[..<colon]
            let local = Self.lowercased(qname[(colon + 1)...])
            if let binding = bindings.last(where: { $0.prefix.elementsEqual(prefix) }) {
                return (binding.namespace, local)
            }
            return (XMLNamespace(conventionalPrefix: String(decoding: UnsafeBufferPointer(rebasing: prefix), as: UTF8.self)), local)
        }
        let local = Self.lowercased(qname)
        if let binding = bindings.last(where: { $0.prefix.isEmpty }), !binding.namespace.isCoreWhenDefault {
            return (binding.namespace, local)
        }
        return (.core, local)
    }

    /// Whether two names in the input are the same bytes.
    @inline(__always) private static func equal(_ a: Range<Int>, _ b: Range<Int>, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        var i = a.lowerBound
        var j = b.lowerBound
        while i < a.upperBound {
            if bytes[i] != bytes[j] { return false }
            i += 1
            j += 1
        }
        return true
    }

    private static func lowercased(_ slice: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        let bytes = UnsafeBufferPointer(rebasing: slice)
        if !bytes.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) { return String(decoding: bytes, as: UTF8.self) }
        return String(decoding: bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    private static func attribute(_ name: String, _ attributes: [XMLAttribute], _ bytes: UnsafeBufferPointer<UInt8>)
        -> String?
    {
        for attribute in attributes {
            var qname = bytes[attribute.name]
            if let colon = qname.firstIndex(of: .colon) { qname = qname[(colon + 1)...] }
            if qname.count == name.utf8.count,
                zip(qname, name.utf8).allSatisfy({ ($0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0) == $1 })
            {
                return string(attribute, bytes)
            }
        }
        return nil
    }

    private static func string(_ attribute: XMLAttribute, _ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard attribute.hasReference else {
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[attribute.value]), as: UTF8.self)
        }
        var out: [UInt8] = []
        XMLEntities.decode(bytes, attribute.value, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private static func startsWithX(_ name: Range<Int>, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        name.count >= 5 && bytes[name.lowerBound] == 0x78  // "x": xmlns, xml:base, xml:lang
    }

    /// feedparser's test for an RSS title that is really HTML: an end tag or a reference.
    private static func looksLikeHTML(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var i = 0
        while i < bytes.count {
            if bytes[i] == .lt, i + 2 < bytes.count, bytes[i + 1] == .slash {
                var j = i + 2
                while j < bytes.count, isWordByte(bytes[j]) { j += 1 }
                if j > i + 2, j < bytes.count, bytes[j] == .gt { return true }
            } else if bytes[i] == .amp {
                var j = i + 1
                if j < bytes.count, bytes[j] == .hash { j += 1 }
                let start = j
                while j < bytes.count, isWordByte(bytes[j]) { j += 1 }
                if j > start, j < bytes.count, bytes[j] == .semicolon { return true }
            }
            i += 1
        }
        return false
    }

    private static func isWordByte(_ c: UInt8) -> Bool {
        (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A || (c >= 0x30 && c <= 0x39) || c == 0x5F
    }

    private static let xmlns = Array("xmlns".utf8)
    private static let xmlBase = Array("xml:base".utf8)
    private static let xmlLang = Array("xml:lang".utf8)
    private static let voidElements: Set<String> = ["br", "img", "hr", "input", "meta", "link", "area", "col", "source", "wbr"]
}

extension XMLFeedBuilder {
    /// What an open element does to the elements inside it.
    enum Scope: Equatable {
        case document, feed, entry, image, person, personField, ignoredPerson, ignored
    }

    struct OpenElement {
        var qname: Range<Int>
        var namespace: XMLNamespace
        var local: String
        var scope: Scope
        var bindingCount: Int
        var base: String?
        var lang: String?
    }

    /// How captured text is kept: `plain` text, `text` to be escaped into HTML, `markup` (HTML,
    /// possibly naked in the XML), `xhtml` (inline XHTML elements), or `base64`.
    enum TextMode: Equatable {
        case plain, text, markup, xhtml, base64
    }

    enum Target {
        case title, link, id, summary, content, published, updated, language, category, imageURL, icon, origLink, ttl
        case duration, episodeNumber, season, explicit
        case author(Bool)
        case personName, personEmail, personURI
    }

    struct Capture {
        var target: Target
        var depth: Int
        var mode: TextMode
        var base: String?
        var scope: Scope
        var skipDepth: Int?
    }
}
