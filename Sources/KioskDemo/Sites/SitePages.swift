/// Small web sites on the demo server, for adding a feed by a site's address: pages that link
/// the sample feeds as real sites do (`<link rel="alternate">`), one linking none, and a page
/// that is not a feed at all. Served at once, with no latency or faults of their own. The links
/// carry a query (`?via=site`) so they are other addresses than the built-in News sources.
enum SitePages {
    static let prefix = "/sites/"

    /// The page at `path`, or nil when there is none.
    static func reply(for path: String) -> DemoReply? {
        switch path {
        case "/sites/reuters/":
            html(
                title: "Reuters (sample)",
                links: [
                    ("Reuters: Business News", "/reuters/business.xml?via=site"),
                    ("Reuters: Entertainment News", "/reuters/entertainment.xml?via=site"),
                    ("Reuters: Environment", "/reuters/environment.xml?via=site"),
                ])
        case "/sites/podcast/":
            html(
                title: "Kiosk Demo Podcast (sample)",
                links: [("Kiosk Demo Podcast", DemoPodcasts.audioFeed), ("Kiosk Demo Video", DemoPodcasts.videoFeed)])
        case "/sites/business/":
            html(title: "Business desk (sample)", links: [("Business", "/reuters/business.xml?via=desk")])
        case "/sites/quiet/":
            html(title: "A site with no feed", links: [])
        case SampleArticle.path:
            SampleArticle.page
        case "/sites/notes.txt":
            DemoReply(contentType: "text/plain; charset=utf-8", body: Array("Just some notes, no feed here.\n".utf8))
        default:
            nil
        }
    }

    private static func html(title: String, links: [(title: String, href: String)]) -> DemoReply {
        let head = links.map { link in
            #"<link rel="alternate" type="application/rss+xml" title="\#(link.title)" href="\#(link.href)">"#
        }.joined(separator: "\n")
        let page = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>\(title)</title>
            <link rel="stylesheet" href="/sites/style.css">
            \(head)
            </head><body><h1>\(title)</h1><p>A sample site of Kiosk's demo mode.</p></body></html>
            """
        return DemoReply(contentType: "text/html; charset=utf-8", body: Array(page.utf8))
    }
}
