import Foundation

/// A captured RSS document cut into the text before its first item, its items, and the text after
/// the last one, so editions can be assembled from the original bytes without re-serializing XML.
struct RSSTemplate: Sendable {
    /// Everything before the first `<item>` (the channel header).
    let head: String
    /// Each `<item>...</item>`, in document order.
    let items: [String]
    /// Everything after the last `</item>`.
    let tail: String

    init(xml: String, name: String) throws(DemoError) {
        guard let first = xml.range(of: "<item>") else { throw .malformedResource(name) }
        var items: [String] = []
        var cursor = first.lowerBound
        while let open = xml.range(of: "<item>", range: cursor..<xml.endIndex),
            let close = xml.range(of: "</item>", range: open.upperBound..<xml.endIndex)
        {
            items.append(String(xml[open.lowerBound..<close.upperBound]))
            cursor = close.upperBound
        }
        head = String(xml[..<first.lowerBound])
        self.items = items
        tail = String(xml[cursor...])
    }

    /// The document with `items` in place of the captured ones and a fresh `lastBuildDate`.
    func render(items: [String], lastBuildDate: String) -> String {
        let head = CapturedXML.replacingText(of: "lastBuildDate", in: self.head) { _ in lastBuildDate }
        return head + items.joined(separator: "\n") + tail
    }
}
