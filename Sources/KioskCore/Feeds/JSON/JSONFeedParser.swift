import Foundation

// JSON Feed 1.0 and 1.1 (https://jsonfeed.org). Every field is optional and read leniently: a
// field of the wrong type is dropped, never the item or the feed.
//
// Read in one pass with `JSONReader`: only the fields below are built, everything else (and every
// item past `maxEntries`) is skipped where it lies, so memory follows what is kept, not the
// document (JSONSerialization's tree cost about 65 times the input). Each item becomes its entry
// as it is read; its links are resolved at the end, in place, since `home_page_url` (what
// relative links resolve against) may come after the items.

/// Reads JSON Feed documents.
enum JSONFeedParser {
    static func parse(_ bytes: [UInt8], limits: ParserLimits) throws(FeedError) -> Feed {
        let root: RawFeed
        do {
            root = try bytes.withUnsafeBufferPointer { (buffer) throws(JSONReaderError) -> RawFeed in
                var reader = JSONReader(buffer, maxDepth: limits.maxDepth)
                guard try reader.nextKind() == .object else {
                    try reader.skipValue()  // too deep, or malformed, is said as such
                    throw .malformed("not an object", offset: -1)
                }
                let feed = try RawFeed.read(&reader, maxEntries: limits.maxEntries)
                try reader.finish()
                return feed
            }
        } catch {
            switch error {
            case .tooDeep(let limit): throw .tooDeep(limit: limit)
            case .malformed(_, offset: -1): throw .notAFeed("JSON that is not an object")
            case .malformed(let why, let offset):
                let position = JSONReader.position(of: offset, in: bytes)
                throw .malformed("invalid JSON: \(why)", line: position.line, column: position.column)
            }
        }
        guard root.version?.contains("jsonfeed.org") == true || root.hasItems else {
            throw .notAFeed("JSON that is not a JSON Feed")
        }
        var entries = root.entries
        if let base = root.homePage ?? root.feedURL {
            for index in entries.indices { RawItem.resolve(&entries[index], against: base) }
        }
        return Feed(
            format: root.version?.hasSuffix("/1.1") == true ? .jsonFeed11 : .jsonFeed10,
            title: root.title,
            link: root.homePage,
            language: root.language,
            image: root.icon ?? root.favicon,
            entries: entries)
    }
}

/// A JSON value's text when it is a non-blank string, trimmed; nil for anything else.
private func text(_ reader: inout JSONReader) throws(JSONReaderError) -> String? {
    guard try reader.nextKind() == .string else {
        try reader.skipValue()
        return nil
    }
    let trimmed = try reader.readString().trimmingASCIIWhitespace
    return trimmed.isEmpty ? nil : trimmed
}

/// The elements of an array that `element` makes something of (the others dropped); nil, and
/// the value skipped, when it is not an array.
private func list<Element>(
    _ reader: inout JSONReader, _ element: (inout JSONReader) throws(JSONReaderError) -> Element?
) throws(JSONReaderError) -> [Element]? {
    guard try reader.nextKind() == .array else {
        try reader.skipValue()
        return nil
    }
    var elements: [Element] = []
    try reader.readArray { (reader) throws(JSONReaderError) in
        if let made = try element(&reader) { elements.append(made) }
    }
    return elements
}

/// The top of a JSON Feed, as read.
private struct RawFeed {
    var version: String?
    var title: String?
    var homePage: String?
    var feedURL: String?
    var language: String?
    var icon: String?
    var favicon: String?
    /// Whether `items` is an array (which alone makes JSON a feed, version or not).
    var hasItems = false
    /// The items' entries, their links not yet resolved.
    var entries: [Entry] = []

    static func read(_ reader: inout JSONReader, maxEntries: Int) throws(JSONReaderError) -> RawFeed {
        var feed = RawFeed()
        try reader.readObject { (reader, name) throws(JSONReaderError) in
            switch name {
            case "version":
                // The version is compared as written (not trimmed), as before.
                if try reader.nextKind() == .string { feed.version = try reader.readString() } else { try reader.skipValue() }
            case "title": feed.title = try text(&reader)
            case "home_page_url": feed.homePage = try text(&reader)
            case "feed_url": feed.feedURL = try text(&reader)
            case "language": feed.language = try text(&reader)
            case "icon": feed.icon = try text(&reader)
            case "favicon": feed.favicon = try text(&reader)
            case "items":
                feed.entries = []  // a repeated member: the last one counts
                guard try reader.nextKind() == .array else {
                    try reader.skipValue()
                    feed.hasItems = false
                    return
                }
                feed.hasItems = true
                var seen = 0  // elements, objects or not: the first `maxEntries` are looked at
                try reader.readArray { (reader) throws(JSONReaderError) in
                    seen += 1
                    guard seen <= maxEntries, try reader.nextKind() == .object else {
                        try reader.skipValue()
                        return
                    }
                    feed.entries.append(try RawItem.read(&reader).entry)
                }
            default: try reader.skipValue()
            }
        }
        return feed
    }
}

/// One item's fields, as read.
private struct RawItem {
    var id: String?
    var title: String?
    var url: String?
    var externalURL: String?
    var published: String?
    var modified: String?
    var summary: String?
    var contentHTML: String?
    var contentText: String?
    var image: String?
    var bannerImage: String?
    var tags: [String] = []
    var attachments: [Enclosure] = []
    /// 1.1's `authors`, when present (an array).
    var authors: [Author]?
    /// 1.0's `author`.
    var author: Author??

    static func read(_ reader: inout JSONReader) throws(JSONReaderError) -> RawItem {
        var item = RawItem()
        try reader.readObject { (reader, name) throws(JSONReaderError) in
            switch name {
            case "id":
                // A number is taken as written (`123`, and `1.5` as Foundation wrote it).
                switch try reader.nextKind() {
                case .number: item.id = Self.identifier(try reader.readNumber())
                case .string: item.id = try text(&reader)
                default:
                    try reader.skipValue()
                    item.id = nil
                }
            case "title": item.title = try text(&reader)
            case "url": item.url = try text(&reader)
            case "external_url": item.externalURL = try text(&reader)
            case "date_published": item.published = try text(&reader)
            case "date_modified": item.modified = try text(&reader)
            case "summary": item.summary = try text(&reader)
            case "content_html": item.contentHTML = try text(&reader)
            case "content_text": item.contentText = try text(&reader)
            case "image": item.image = try text(&reader)
            case "banner_image": item.bannerImage = try text(&reader)
            case "tags": item.tags = try list(&reader, text) ?? []
            case "attachments": item.attachments = try list(&reader, Self.attachment) ?? []
            case "authors": item.authors = try list(&reader, Self.author)
            case "author": item.author = .some(try Self.author(&reader))
            default: try reader.skipValue()
            }
        }
        return item
    }

    /// An id given as a number: whole numbers in full, others as Foundation's NSNumber says them.
    private static func identifier(_ number: JSONReader.Number) -> String? {
        if number.isWhole, let whole = Int64(exactly: number.value) { return String(whole) }
        guard number.value.isFinite else { return nil }
        return NSNumber(value: number.value).stringValue
    }

    private static func attachment(_ reader: inout JSONReader) throws(JSONReaderError) -> Enclosure? {
        guard try reader.nextKind() == .object else {
            try reader.skipValue()
            return nil
        }
        var url: String?
        var type: String?
        var length: Int?
        var duration: Int?
        try reader.readObject { (reader, name) throws(JSONReaderError) in
            switch name {
            case "url": url = try text(&reader)
            case "mime_type": type = try text(&reader)
            case "duration_in_seconds":
                guard try reader.nextKind() == .number else {
                    try reader.skipValue()
                    return
                }
                let value = try reader.readNumber().value
                duration = value.isFinite && value >= 0 && value <= Double(MediaDuration.longest) ? Int(value) : nil
            case "size_in_bytes":
                length = nil
                guard try reader.nextKind() == .number else {
                    try reader.skipValue()
                    return
                }
                let value = try reader.readNumber().value
                // NSNumber's intValue: truncated toward zero.
                if value.isFinite, value > Double(Int.min), value < Double(Int.max) { length = Int(value) }
            default: try reader.skipValue()
            }
        }
        return url.map { Enclosure(url: $0, type: type, length: length, duration: duration) }
    }

    private static func author(_ reader: inout JSONReader) throws(JSONReaderError) -> Author? {
        guard try reader.nextKind() == .object else {
            try reader.skipValue()
            return nil
        }
        var name: String?
        var url: String?
        try reader.readObject { (reader, member) throws(JSONReaderError) in
            switch member {
            case "name": name = try text(&reader)
            case "url": url = try text(&reader)
            default: try reader.skipValue()
            }
        }
        return name == nil && url == nil ? nil : Author(name: name, uri: url)
    }

    /// The entry, its link and attachments' URLs as written (see ``resolve(_:against:)``).
    var entry: Entry {
        let enclosures = Array(attachments.prefix(MutableEntry.maxEnclosures))
        let authorList: [Author] = authors ?? (author.flatMap { $0 }.map { [$0] } ?? [])
        return Entry(
            id: id,
            title: title,
            link: url ?? externalURL,
            published: published.flatMap(DateParser.parse),
            updated: modified.flatMap(DateParser.parse),
            authors: authorList,
            summary: summary.map(HTMLEscaping.escape),
            content: contentHTML ?? contentText.map(HTMLEscaping.escape),
            categories: tags,
            enclosures: enclosures,
            image: image ?? bannerImage ?? Self.attachmentImage(enclosures))
    }

    /// Resolves an entry's link and attachments against the feed's home page, in place; an
    /// image taken from an attachment follows its attachment (`image` and `banner_image` are kept
    /// as written, as before).
    static func resolve(_ entry: inout Entry, against base: String) {
        let fromAttachment = entry.image != nil && entry.image == attachmentImage(entry.enclosures)
        if let link = entry.link { entry.link = URLResolution.resolve(link, against: base) }
        for index in entry.enclosures.indices {
            entry.enclosures[index].url = URLResolution.resolve(entry.enclosures[index].url, against: base)
        }
        if fromAttachment { entry.image = attachmentImage(entry.enclosures) }
    }

    private static func attachmentImage(_ enclosures: [Enclosure]) -> String? {
        enclosures.first { $0.type?.hasPrefix("image/") ?? false }?.url
    }
}
