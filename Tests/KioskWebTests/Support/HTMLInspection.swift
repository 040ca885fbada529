import Foundation

/// Crude but sufficient looks into rendered pages (Kiosk's markup is regular: double-quoted
/// attributes, no comments).
enum HTMLInspection {
    /// How often `needle` occurs in `text`.
    static func count(_ needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    /// The element with `id`, from its start tag to its matching end tag (nesting of the same tag
    /// name counted); nil when absent.
    static func element(id: String, in html: String) -> String? {
        guard let idRange = html.range(of: " id=\"\(id)\"") else { return nil }
        guard let open = html[..<idRange.lowerBound].lastIndex(of: "<") else { return nil }
        let name = String(html[html.index(after: open)...].prefix(while: { $0.isLetter || $0.isNumber }))
        var depth = 0
        var cursor = open
        while cursor < html.endIndex {
            let rest = html[cursor...]
            if rest.hasPrefix("</\(name)>") {
                depth -= 1
                let end = html.index(cursor, offsetBy: name.count + 3)
                if depth == 0 { return String(html[open..<end]) }
                cursor = end
            } else if rest.hasPrefix("<\(name)"),
                let next = rest.dropFirst(name.count + 1).first, next == " " || next == ">"
            {
                depth += 1
                cursor = html.index(cursor, offsetBy: name.count + 1)
            } else {
                cursor = html.index(after: cursor)
            }
        }
        return nil
    }

    /// The text between an element's start and end tags.
    static func inner(_ element: String) -> String {
        guard let start = element.firstIndex(of: ">"), let end = element.range(of: "</", options: .backwards) else {
            return ""
        }
        return String(element[element.index(after: start)..<end.lowerBound])
    }

    /// Every start tag of `name` (`<script …>`), as written.
    static func startTags(_ name: String, in html: String) -> [String] {
        var tags: [String] = []
        var search = html.startIndex..<html.endIndex
        while let found = html.range(of: "<\(name)", options: .caseInsensitive, range: search) {
            let after = html[found.upperBound...].first
            guard let close = html[found.upperBound...].firstIndex(of: ">") else { break }
            if after == " " || after == ">" || after == "\n" || after == "/" {
                tags.append(String(html[found.lowerBound...close]))
            }
            search = html.index(after: close)..<html.endIndex
        }
        return tags
    }

    /// Every start tag in `html` (for attribute checks: text between tags is left out).
    static func allTags(in html: String) -> [String] {
        var tags: [String] = []
        var cursor = html.startIndex
        while let open = html[cursor...].firstIndex(of: "<") {
            guard let close = html[open...].firstIndex(of: ">") else { break }
            tags.append(String(html[open...close]))
            cursor = html.index(after: close)
        }
        return tags
    }

    /// Whether some tag carries an attribute named `on…` (an inline event handler).
    static func hasEventHandlerAttribute(_ html: String) -> Bool {
        allTags(in: html).contains { tag in
            tag.range(of: #"\son[a-z]+\s*="#, options: [.regularExpression, .caseInsensitive]) != nil
        }
    }

    /// Whether some tag carries a `style` attribute.
    static func hasStyleAttribute(_ html: String) -> Bool {
        allTags(in: html).contains { tag in
            tag.range(of: #"\sstyle\s*="#, options: [.regularExpression, .caseInsensitive]) != nil
        }
    }

    /// `&amp;` and friends back to characters (for attribute values such as `data-src`).
    static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    /// The values of attribute `name` in every tag, unescaped.
    static func attributeValues(_ name: String, in html: String) -> [String] {
        let marker = " \(name)=\""
        return allTags(in: html).compactMap { tag in
            guard let start = tag.range(of: marker) else { return nil }
            guard let end = tag[start.upperBound...].firstIndex(of: "\"") else { return nil }
            return unescape(String(tag[start.upperBound..<end]))
        }
    }
}
