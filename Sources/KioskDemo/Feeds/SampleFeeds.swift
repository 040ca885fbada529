import Foundation
import Hummingbird

/// `/samples/N.xml`: a small RSS feed for every N below a million, the same every time (an ETag,
/// and 304 to a client that holds it), so a cluster can be given a thousand feeds to share.
enum SampleFeeds {
    static let limit = 1_000_000

    static func reply(path: String, headers: HTTPFields, conditional: Bool) -> DemoReply {
        let name = path.dropFirst(DemoSource.samples.path.count)
        guard name.hasSuffix(".xml"), let number = Int(name.dropLast(4)), (0..<limit).contains(number) else {
            return .notFound
        }
        return ConditionalRequest.reply(
            to: headers, conditional: conditional, etag: "\"sample-\(number)-1\"",
            lastModified: Date(timeIntervalSince1970: 1_700_000_000), contentType: "application/rss+xml; charset=utf-8"
        ) {
            let items = (1...3).map { item in
                """
                <item><title>Sample \(number), item \(item)</title><link>https://samples.example/\(number)/\(item)</link>\
                <guid>sample-\(number)-\(item)</guid><pubDate>Tue, 14 Nov 2023 22:1\(item):20 GMT</pubDate>\
                <description>Item \(item) of sample feed \(number).</description></item>
                """
            }
            let body = """
                <?xml version="1.0" encoding="UTF-8"?>
                <rss version="2.0"><channel><title>Sample feed \(number)</title>\
                <link>https://samples.example/\(number)/</link><description>One of many.</description>
                \(items.joined(separator: "\n"))
                </channel></rss>
                """
            return Array(body.utf8)
        }
    }
}
