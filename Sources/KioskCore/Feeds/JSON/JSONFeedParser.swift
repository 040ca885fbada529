import Foundation

// JSON Feed 1.0 and 1.1 (https://jsonfeed.org). Every field is optional and read leniently: a
// field of the wrong type is dropped, never the item or the feed.

/// Reads JSON Feed documents.
enum JSONFeedParser {
    static func parse(_ bytes: [UInt8], limits: ParserLimits) throws(FeedError) -> Feed {
        // Foundation's JSON reader recurses; refuse hostile nesting before it sees the bytes.
        guard JSONDepth.maximum(bytes, limit: limits.maxDepth) <= limits.maxDepth else {
            throw .tooDeep(limit: limits.maxDepth)
        }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
        } catch {
            let position = errorPosition(error, in: bytes)
            throw .malformed("invalid JSON", line: position.line, column: position.column)
        }
        guard let root = object as? [String: Any] else { throw .notAFeed("JSON that is not an object") }
        let version = root["version"] as? String ?? ""
        guard version.contains("jsonfeed.org") || root["items"] is [Any] else {
            throw .notAFeed("JSON that is not a JSON Feed")
        }
        let base = string(root["home_page_url"]) ?? string(root["feed_url"])
        let items = (root["items"] as? [Any] ?? []).prefix(limits.maxEntries)
        return Feed(
            format: version.hasSuffix("/1.1") ? .jsonFeed11 : .jsonFeed10,
            title: string(root["title"]),
            link: string(root["home_page_url"]),
            language: string(root["language"]),
            image: string(root["icon"]) ?? string(root["favicon"]),
            entries: items.compactMap { ($0 as? [String: Any]).map { entry($0, base: base) } })
    }

    private static func entry(_ item: [String: Any], base: String?) -> Entry {
        let id: String? =
            if let number = item["id"] as? NSNumber, !(item["id"] is String) { number.stringValue } else { string(item["id"]) }
        let contentText = string(item["content_text"]).map(HTMLEscaping.escape)
        let link = string(item["url"]) ?? string(item["external_url"])
        let attachments = (item["attachments"] as? [Any] ?? []).compactMap { value -> Enclosure? in
            guard let attachment = value as? [String: Any], let url = string(attachment["url"]) else { return nil }
            return Enclosure(
                url: URLResolution.resolve(url, against: base), type: string(attachment["mime_type"]),
                length: (attachment["size_in_bytes"] as? NSNumber)?.intValue)
        }
        return Entry(
            id: id,
            title: string(item["title"]),
            link: link.map { URLResolution.resolve($0, against: base) },
            published: string(item["date_published"]).flatMap(DateParser.parse),
            updated: string(item["date_modified"]).flatMap(DateParser.parse),
            authors: authors(item),
            summary: string(item["summary"]).map(HTMLEscaping.escape),
            content: string(item["content_html"]) ?? contentText,
            categories: (item["tags"] as? [Any] ?? []).compactMap(string),
            enclosures: attachments,
            image: string(item["image"]) ?? string(item["banner_image"])
                ?? attachments.first { $0.type?.hasPrefix("image/") ?? false }?.url)
    }

    /// JSON Feed 1.1 `authors`, or 1.0's single `author`.
    private static func authors(_ item: [String: Any]) -> [Author] {
        let list = item["authors"] as? [Any] ?? (item["author"].map { [$0] } ?? [])
        return list.compactMap { value in
            guard let author = value as? [String: Any] else { return nil }
            let name = string(author["name"])
            let url = string(author["url"])
            return name == nil && url == nil ? nil : Author(name: name, uri: url)
        }
    }

    /// Where Foundation's reader gave up. It only says so in prose ("around character 15"), so the
    /// offset is read from there and turned into a line and column; 1:1 when it is absent.
    private static func errorPosition(_ error: any Error, in bytes: [UInt8]) -> (line: Int, column: Int) {
        let message = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? ""
        guard let range = message.range(of: "character "),
            let offset = Int(message[range.upperBound...].prefix { $0.isNumber })
        else { return (1, 1) }
        var line = 1
        var column = 1
        for byte in bytes.prefix(min(offset, bytes.count)) {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }

    private static func string(_ value: Any?) -> String? {
        guard let text = value as? String else { return nil }
        let trimmed = text.trimmingASCIIWhitespace
        return trimmed.isEmpty ? nil : trimmed
    }
}
