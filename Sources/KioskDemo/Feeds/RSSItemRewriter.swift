import Foundation

/// Turns a captured item into a new entry: fresh guid, a Reuters-style `UPDATE n-` title so titles
/// never repeat exactly, the current pubDate and a distinct link; or, where `content` says
/// otherwise, its own title, description and link, XML-escaped.
enum RSSItemRewriter {
    static func rewrite(
        _ item: String, source: DemoSource, ordinal: Int, round: Int, pubDate: String, content: ManualEntry = ManualEntry()
    ) -> String {
        let guid = "urn:kiosk-demo:\(source.rawValue):\(ordinal)"
        var entry = XMLText.replacingText(of: "title", in: item) { captured in
            content.title.map(XMLText.escaped) ?? "UPDATE \(round)-" + withoutUpdatePrefix(captured)
        }
        entry = XMLText.replacingText(of: "pubDate", in: entry) { _ in pubDate }
        if let link = content.link.map(XMLText.escaped) {
            entry = XMLText.replacingText(of: "link", in: entry) { _ in link }
            entry = XMLText.replacingText(of: "feedburner:origLink", in: entry) { _ in link }
        } else {
            entry = XMLText.replacingText(of: "link", in: entry) { $0 + "#kiosk-\(source.rawValue)-\(ordinal)" }
        }
        if let description = content.description.map(XMLText.escaped) {
            entry = XMLText.replacingText(of: "description", in: entry) { _ in description }
        }
        if XMLText.contains("guid", in: entry) {
            entry = XMLText.replacingText(of: "guid", in: entry) { _ in guid }
        } else if let end = entry.range(of: "</item>", options: .backwards) {
            entry.replaceSubrange(end, with: "<guid isPermaLink=\"false\">\(guid)</guid></item>")
        }
        return entry
    }

    /// `UPDATE 2-Foo` → `Foo`, so a reused title gets exactly one prefix.
    static func withoutUpdatePrefix(_ title: Substring) -> Substring {
        guard title.hasPrefix("UPDATE ") else { return title }
        let rest = title.dropFirst("UPDATE ".count)
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, rest.dropFirst(digits.count).first == "-" else { return title }
        return rest.dropFirst(digits.count + 1)
    }
}
