import Foundation
import KioskCore

/// The article page behind a sample feed's item, as news sites write them: navigation, an
/// advertisement, share buttons, a newsletter box, comments, related links and a footer around
/// the story, and, on two of the three sites, metadata in JSON-LD or OpenGraph. The story opens
/// with the item's own summary and goes on with paragraphs of ``DemoArticleText``, so a reader
/// that shows only the summary shows a fifth of it.
enum DemoArticle {
    /// One of the sites a story can be published on, by the story's hash.
    private enum Site: CaseIterable {
        case ledger, metro, coast

        var name: String {
            switch self {
            case .ledger: "The Daily Ledger"
            case .metro: "Metro Wire"
            case .coast: "Coastline Times"
            }
        }
    }

    /// The page for `item` (the feed's XML of it) at `path`, with `related` stories linked.
    static func page(item: String, path: DemoArticlePath, related: [(title: String, path: DemoArticlePath)]) -> DemoReply {
        let title = CapturedXML.text(of: "title", in: item).map { plain(String(RSSItemRewriter.withoutUpdatePrefix($0))) } ?? ""
        let summary = CapturedXML.text(of: "description", in: item).map(summaryText) ?? ""
        let published = CapturedXML.text(of: "pubDate", in: item).map { plain(String($0)) } ?? ""
        let date = DateParser.parse(published) ?? Date(timeIntervalSince1970: 1_560_000_000)
        let seed = StableHash.fnv1a64(path.path)
        let site = Site.allCases[Int(seed % UInt64(Site.allCases.count))]
        let author = authors[Int((seed >> 24) % UInt64(authors.count))]
        let text = DemoArticleText.body(for: path.source, seed: seed >> 4)
        let image = "/images/story/\(path.source.rawValue)-\(path.component)/1200x675bb.png"
        let iso = InternetDate.rfc3339(date)
        let human = longDate(date)

        var paragraphs = [summary.isEmpty ? title : summary] + text.paragraphs
        paragraphs.insert("“\(text.quote)”", at: min(3, paragraphs.count))
        let middle = min(4, paragraphs.count)
        let body =
            paragraphs[..<middle].map { "<p>\(escaped($0))</p>" }.joined(separator: "\n")
            + "\n<h2>\(escaped(text.subheading))</h2>\n"
            + paragraphs[middle...].map { "<p>\(escaped($0))</p>" }.joined(separator: "\n")
        let relatedList = related.map { #"<li><a href="\#($0.path.path)">\#(escaped($0.title))</a></li>"# }
            .joined(separator: "\n")

        let head: String
        switch site {
        case .ledger:
            head = """
                <script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle",\
                "headline":\(json(title)),"author":{"@type":"Person","name":\(json(author))},\
                "datePublished":"\(iso)","image":["\(image)"],\
                "publisher":{"@type":"Organization","name":"\(site.name)"}}</script>
                """
        case .metro:
            head = """
                <meta property="og:type" content="article">
                <meta property="og:title" content="\(escaped(title))">
                <meta property="og:site_name" content="\(site.name)">
                <meta property="og:image" content="\(image)">
                <meta property="article:published_time" content="\(iso)">
                <meta name="author" content="\(escaped(author))">
                """
        case .coast:
            head = #"<meta name="description" content="\#(escaped(summary))">"#
        }

        let html = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(escaped(title)) | \(site.name)</title>
            \(head)
            <link rel="stylesheet" href="/sites/style.css">
            </head><body>
            <div class="cookie-banner" role="dialog"><p>We use cookies to improve your experience and to show you
            relevant advertising.</p><button>Accept all</button> <button>Manage choices</button></div>
            <header class="masthead"><a class="logo" href="/">\(site.name)</a>
            <nav class="primary"><ul><li><a href="/world">World</a></li><li><a href="/business">Business</a></li>
            <li><a href="/culture">Culture</a></li><li><a href="/climate">Climate</a></li><li><a href="/opinion">Opinion</a></li>
            <li><a href="/subscribe" class="cta">Subscribe</a></li><li><a href="/login">Sign in</a></li></ul></nav></header>
            <div class="ad ad-leaderboard" id="ad-top"><span>Advertisement</span>
            <a href="/ads/click?id=\(seed % 1000)"><img src="/images/ad/banner/728x90bb.png" alt="" width="728" height="90"></a></div>
            <main id="content">
            <article class="story">
            <header class="story-header">
            <p class="kicker"><a href="/\(path.source.rawValue)">\(path.source.rawValue.capitalized)</a></p>
            <h1>\(escaped(title))</h1>
            <p class="byline">By <a href="/authors/\(slug(author))" rel="author" class="author">\(escaped(author))</a>
            · <time datetime="\(iso)">\(human)</time></p>
            <ul class="share"><li><a href="/share/facebook">Share on Facebook</a></li><li><a href="/share/x">Post</a></li>
            <li><a href="/share/mail">Email</a></li><li><a href="/share/print">Print</a></li></ul>
            </header>
            <figure class="lead"><img src="\(image)" alt="" width="1200" height="675">
            <figcaption>\(escaped(title)). Photo: \(site.name)</figcaption></figure>
            <div class="story-body">
            \(body)
            </div>
            <aside class="newsletter"><h3>Get the morning briefing</h3><p>The day's top stories in your inbox.</p>
            <form action="/newsletter"><input type="email" name="email" placeholder="you@example.com"><button>Sign up</button></form></aside>
            <footer class="story-footer"><p class="tags">Topics: <a href="/topics/\(path.source.rawValue)">\(path.source.rawValue)</a>
            <a href="/topics/latest">latest</a></p></footer>
            </article>
            <section class="comments" id="comments"><h3>Comments (3)</h3><ol>
            <li><p class="who">reader_2041</p><p>Interesting piece, but I would have liked more on what happens next.</p></li>
            <li><p class="who">M. Duarte</p><p>Saw this coming months ago. Thanks for covering it.</p></li>
            <li><p class="who">northbank</p><p>Does anyone have a link to the original report?</p></li></ol>
            <a href="/login?next=comments">Sign in to comment</a></section>
            <aside class="related"><h3>More from \(site.name)</h3><ul>
            \(relatedList)
            </ul></aside>
            <aside class="most-read"><h3>Most read</h3><ol><li><a href="/most-read/1">Ten questions about your pension</a></li>
            <li><a href="/most-read/2">The best walks within an hour of the city</a></li><li><a href="/most-read/3">Quiz of the week</a></li></ol></aside>
            <div class="ad ad-box"><span>Advertisement</span><img src="/images/ad/box/300x250bb.png" alt="" width="300" height="250"></div>
            </main>
            <footer class="site-footer"><p>© 2026 \(site.name). A sample site of Kiosk's demo mode.</p>
            <ul><li><a href="/about">About us</a></li><li><a href="/privacy">Privacy</a></li><li><a href="/terms">Terms</a></li>
            <li><a href="/contact">Contact</a></li></ul></footer>
            </body></html>
            """
        return DemoReply(contentType: "text/html; charset=utf-8", body: Array(html.utf8))
    }

    /// Text of an XML element as plain text: references decoded, any markup dropped.
    static func plain(_ xml: String) -> String {
        HTMLText.plainText(fromHTML: unwrappingCDATA(xml))
    }

    /// A feed's description (HTML, escaped once more as XML text) as plain text, without
    /// FeedBurner's sharing block.
    private static func summaryText(_ xml: Substring) -> String {
        let text = String(xml)
        if text.contains("<![CDATA[") { return HTMLText.plainText(fromHTML: unwrappingCDATA(text)) }
        // The XML's references decoded give the HTML; the HTML's text is the summary.
        return HTMLText.plainText(fromHTML: XMLText.unescaped(text))
    }

    private static func unwrappingCDATA(_ text: String) -> String {
        text.replacingOccurrences(of: "<![CDATA[", with: "").replacingOccurrences(of: "]]>", with: "")
    }

    private static func escaped(_ text: String) -> String { HTMLEscaping.escape(text) }

    /// `19 January 2019`, as the page prints its date.
    private static func longDate(_ date: Date) -> String {
        let civil = CivilDate(unixSeconds: Int(date.timeIntervalSince1970.rounded(.down)))
        return "\(civil.day) \(fullMonths[civil.month - 1]) \(civil.year)"
    }

    private static let fullMonths = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
        "December",
    ]

    /// A JSON string safe inside `<script>`: no `<` to end it early.
    private static func json(_ text: String) -> String {
        JSONText.string(text).replacingOccurrences(of: "<", with: "\\u003c")
    }

    private static func slug(_ name: String) -> String {
        String(name.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" })
    }

    private static let authors = [
        "Mara Quinn", "Tomás Lindqvist", "Aisha Okafor", "Daniel Reyes", "Priya Natarajan", "Henrik Sørensen",
        "Lucía Fernández", "Owen Hartley",
    ]
}
