import Foundation
import KioskCore

/// Turns a captured item into a new entry: fresh guid, a Reuters-style `UPDATE n-` title so titles
/// never repeat exactly, the current pubDate and a link to its own article page on the demo
/// server; or, where `content` says otherwise, its own title, description and link, XML-escaped.
enum RSSItemRewriter {
    /// The guid of the `ordinal`-th added entry of `source` in the server run `run`: the run keeps
    /// ids unique when the server starts again and counts from 1 anew.
    static func guid(source: DemoSource, run: String, ordinal: Int) -> String {
        "urn:kiosk-demo:\(source.rawValue):\(run)-\(ordinal)"
    }

    static func rewrite(
        _ item: String, source: DemoSource, run: String, ordinal: Int, round: Int, pubDate: String, page: String,
        content: ManualEntry = ManualEntry()
    ) -> String {
        let guid = guid(source: source, run: run, ordinal: ordinal)
        var entry = CapturedXML.replacingText(of: "title", in: item) { captured in
            content.title.map(XMLText.escaped) ?? "UPDATE \(round)-" + withoutUpdatePrefix(captured)
        }
        entry = CapturedXML.replacingText(of: "pubDate", in: entry) { _ in pubDate }
        entry = linking(entry, to: content.link ?? page)
        if let description = content.description.map(XMLText.escaped) {
            entry = CapturedXML.replacingText(of: "description", in: entry) { _ in description }
        }
        if CapturedXML.contains("guid", in: entry) {
            entry = CapturedXML.replacingText(of: "guid", in: entry) { _ in guid }
        } else if let end = entry.range(of: "</item>", options: .backwards) {
            entry.replaceSubrange(end, with: "<guid isPermaLink=\"false\">\(guid)</guid></item>")
        }
        return entry
    }

    /// `item` with its `link` (and FeedBurner's `origLink`, which readers prefer) set to `url`.
    static func linking(_ item: String, to url: String) -> String {
        let link = XMLText.escaped(url)
        let entry = CapturedXML.replacingText(of: "link", in: item) { _ in link }
        return CapturedXML.replacingText(of: "feedburner:origLink", in: entry) { _ in link }
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
