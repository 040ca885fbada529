/// A news article page as sites write them, for the reader view in demo mode and its tests:
/// navigation, a share bar, a related-links aside and a footer around the story, metadata in
/// OpenGraph and JSON-LD. Written for Kiosk (no captured page), served at `/sites/story/`.
enum SampleArticle {
    static let path = "/sites/story/"
    static let title = "Harbour town turns its old ferry into a floating library"
    static let firstParagraph =
        "When the last diesel ferry of Port Ellery was retired in March, the town council expected to sell it for scrap."
    static let image = "/images/story/ferry/1200x675bb.png"

    static var page: DemoReply {
        let html = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <title>\(title) | The Coastal Courier</title>
            <meta property="og:title" content="\(title)">
            <meta property="og:site_name" content="The Coastal Courier">
            <meta property="og:image" content="\(image)">
            <meta name="description" content="Volunteers rebuilt the retired ferry's lounge into shelves and reading rooms.">
            <script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle",
            "headline":"\(title)","author":{"@type":"Person","name":"Mara Quinn"},
            "datePublished":"2026-11-20T08:30:00Z","publisher":{"@type":"Organization","name":"The Coastal Courier"}}</script>
            </head><body>
            <header class="site-header"><a href="/">The Coastal Courier</a>
            <nav class="menu"><ul><li><a href="/news">News</a></li><li><a href="/sport">Sport</a></li>
            <li><a href="/weather">Weather</a></li><li><a href="/subscribe">Subscribe</a></li></ul></nav></header>
            <main><article class="story">
            <h1>\(title)</h1>
            <p class="byline">By <a href="/authors/mara-quinn" rel="author">Mara Quinn</a> · 20 November 2026</p>
            <div class="share"><a href="/share/mail">Email</a> <a href="/share/print">Print</a></div>
            <figure><img src="\(image)" alt="The ferry at its new mooring"><figcaption>The ferry at its new mooring.</figcaption></figure>
            <div class="story-body">
            <p>\(firstParagraph) Instead, a group of volunteers asked for a year to turn it into something else.</p>
            <p>Eight months later the ferry's passenger lounge holds more than four thousand books, most of them
            given by families along the coast. The car deck, once crowded with delivery vans, has become a reading
            room with long tables, reading lamps wired to the old shore-power connection, and a corner for children.</p>
            <p>"People kept telling us a boat is a terrible place for paper," said Ines Ortega, a retired engineer
            who led the work. "So we spent the first three months on the hull, the heating and the damp, and only
            then on the shelves." The volunteers replaced the windows, insulated the deck and fitted dehumidifiers
            that run on the ferry's own solar panels.</p>
            <h2>A library that moves twice a year</h2>
            <p>The council agreed to lend the berth for free on one condition: the library must travel. Every spring
            and autumn a tug tows it to the villages across the bay, where it stays for six weeks at a time. Readers
            borrow books in one harbour and return them in another.</p>
            <p>Librarians from the county service train the volunteers, and the catalogue is shared with the county's
            branches, so a book reserved online can be collected on board. Opening hours follow the tides as much as
            the clock; a board on the quay lists them a week ahead.</p>
            <p>The project cost less than the scrap value the council had hoped for, its treasurer said, because
            almost every fitting came from the ferry itself. The next plan is a small café in the former wheelhouse.</p>
            </div>
            <aside class="related"><h3>Related</h3><ul>
            <li><a href="/news/1">Harbour fees to rise next year</a></li>
            <li><a href="/news/2">Lifeboat crew rescues kayakers</a></li>
            <li><a href="/news/3">Ferry timetable changes for winter</a></li></ul></aside>
            </article></main>
            <footer><p>© 2026 The Coastal Courier</p><ul><li><a href="/about">About</a></li>
            <li><a href="/privacy">Privacy</a></li><li><a href="/contact">Contact</a></li></ul></footer>
            </body></html>
            """
        return DemoReply(contentType: "text/html; charset=utf-8", body: Array(html.utf8))
    }
}
