// Documents written to hurt a feed parser, shared by the tests and `kiosk-bench hostile`.

/// Generators of hostile and oversized feeds.
public enum HostileFeeds {
    /// The classic exponential entity expansion ("billion laughs"), used in the channel title.
    public static let billionLaughs: String = {
        var lines = ["<?xml version=\"1.0\"?>", "<!DOCTYPE rss [", "<!ENTITY lol \"lol\">"]
        for level in 1...9 {
            let previous = level == 1 ? "lol" : "lol\(level - 1)"
            lines.append("<!ENTITY lol\(level) \"" + String(repeating: "&\(previous);", count: 10) + "\">")
        }
        lines.append("]>")
        lines.append("<rss version=\"2.0\"><channel><title>&lol9;</title></channel></rss>")
        return lines.joined(separator: "\n")
    }()

    /// An external entity that would read a local file into the title and an item.
    public static func externalEntity(path: String) -> String {
        """
        <?xml version="1.0"?>
        <!DOCTYPE rss [<!ENTITY xxe SYSTEM "file://\(path)">]>
        <rss version="2.0"><channel><title>&xxe;</title><item><description>&xxe;</description></item></channel></rss>
        """
    }

    /// An RSS document whose item nests `depth` elements deep.
    public static func deepNesting(_ depth: Int) -> String {
        "<rss><channel><item>" + String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
            + "</item></channel></rss>"
    }

    /// A channel title made of about `bytes` bytes of character and entity references.
    public static func entityFlood(bytes: Int) -> String {
        let unit = "&amp;&#169;&eacute;&lol;"
        return "<rss><channel><title>" + String(repeating: unit, count: bytes / unit.utf8.count)
            + "</title></channel></rss>"
    }

    /// A well-formed RSS 2.0 feed of about `bytes` bytes, and how many items it holds.
    public static func largeRSS(bytes: Int) -> (feed: [UInt8], items: Int) {
        var out: [UInt8] = []
        out.reserveCapacity(bytes + 4096)
        out.append(contentsOf: "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<rss version=\"2.0\"><channel><title>Large</title>\n".utf8)
        var items = 0
        while out.count < bytes {
            out.append(
                contentsOf: """
                    <item><title>Item \(items)</title><link>https://example.org/items/\(items)</link>\
                    <guid isPermaLink="false">item-\(items)</guid><pubDate>Sat, 19 Jan 2019 03:47:23 -0500</pubDate>\
                    <description>Summary of item \(items) with &lt;b&gt;markup&lt;/b&gt; &amp; an entity, caf&#233;.</description>\
                    <category>news</category></item>

                    """.utf8)
            items += 1
        }
        out.append(contentsOf: "</channel></rss>\n".utf8)
        return (out, items)
    }
}
