import Foundation
import KioskCore
import KioskTesting
/// Writes realistic RSS 2.0, Atom 1.0 and JSON Feed 1.1 documents of about a requested size, in memory.
///
/// Entries look like those of a WordPress blog behind FeedBurner: entity-escaped HTML descriptions,
/// CDATA `content:encoded`, `&#8217;`-style references, non-ASCII text (é, 日本, emoji) and tracking
/// links. The text comes from a seeded generator, so a given format, size and seed always give the
/// same bytes and runs compare like with like. Every format gets the same articles in the same order,
/// and a smaller feed's entries are the first entries of a larger one.
struct FeedGenerator {
    /// The formats the generator writes.
    enum Format: String, CaseIterable, Sendable {
        case rss, atom, json

        /// The extension used when the feed is written to disk.
        var fileExtension: String { self == .json ? "json" : "xml" }
    }

    /// A generated document and the number of entries written into it.
    struct Output: Sendable {
        var bytes: [UInt8]
        var entries: Int
    }

    /// The default seed; any value works, this one spells "Kiosk".
    static let defaultSeed: UInt64 = 0x4B_69_6F_73_6B

    /// Generates a `format` document of at most `targetBytes` bytes (but always at least one entry).
    ///
    /// Entries are added while the next one still fits, so the result falls short of the target by
    /// less than one entry (a few kilobytes).
    static func generate(_ format: Format, targetBytes: Int, seed: UInt64 = defaultSeed) -> Output {
        var generator = FeedGenerator(seed: seed)
        var out: [UInt8] = []
        // Reserving up front avoids the array doubling, which would double the peak memory at 100 MB.
        out.reserveCapacity(targetBytes + 64 * 1024)
        appendHeader(format, to: &out)
        let footer = Array(footerText(format).utf8)
        var entries = 0
        var entry: [UInt8] = []
        while true {
            entry.removeAll(keepingCapacity: true)
            if entries > 0 { entry.append(contentsOf: entrySeparator(format).utf8) }
            let article = generator.makeArticle(index: entries)
            switch format {
            case .rss: appendRSSItem(article, to: &entry)
            case .atom: appendAtomEntry(article, to: &entry)
            case .json: appendJSONItem(article, to: &entry)
            }
            if entries > 0, out.count + entry.count + footer.count > targetBytes { break }
            out.append(contentsOf: entry)
            entries += 1
        }
        out.append(contentsOf: footer)
        return Output(bytes: out, entries: entries)
    }

    // MARK: - Seeded randomness

    /// Fully specified randomness, so the output never depends on the standard library's
    /// choice of algorithm for `random(in:)`.
    private var random: SplitMix64

    private init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    private mutating func next() -> UInt64 {
        random.next()
    }

    /// A value in `0..<bound` (bound > 0), by multiply-high to avoid modulo bias worth caring about.
    private mutating func below(_ bound: Int) -> Int {
        Int(next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    private mutating func between(_ low: Int, _ high: Int) -> Int {
        low + below(high - low + 1)
    }

    /// True with probability `percent`/100.
    private mutating func chance(_ percent: Int) -> Bool {
        below(100) < percent
    }

    private mutating func pick<T>(_ choices: [T]) -> T {
        choices[below(choices.count)]
    }

    /// A FeedBurner-style opaque token of `length` letters and digits.
    private mutating func token(_ length: Int) -> String {
        var scalars = String.UnicodeScalarView()
        for _ in 0..<length { scalars.append(Self.tokenAlphabet[below(Self.tokenAlphabet.count)]) }
        return String(scalars)
    }

    // MARK: - Article content (format-neutral)

    /// One entry's content before it is serialised: `HTML` fields hold UTF-8 HTML source (built as
    /// bytes because string appends dominated generation time), the others plain text.
    private struct Article {
        var postID: Int
        var title: String
        var slug: String
        var permalink: String
        var trackingLink: String
        var author: String
        var authorSlug: String
        var categories: [String]
        var summaryText: String
        var descriptionHTML: [UInt8]
        var contentHTML: [UInt8]
        var published: Int
        var updated: Int
        var timeZoneMinutes: Int
        var enclosureURL: String
        var enclosureType: String
        var enclosureLength: Int
        var durationSeconds: Int
        var thumbnailURL: String
    }

    private mutating func makeArticle(index: Int) -> Article {
        let postID = 48_210 - index * 3 - below(3)
        // Newest first, about one post every half hour, like a busy news site.
        let published = Self.newestPost - index * 1800 - below(1800)
        let updated = chance(40) ? published + between(60, 86_400) : published
        let title = makeSentence(words: between(5, 11), terminated: false)
        let slug = Self.slug(title, id: postID)
        let date = CivilDate(unixSeconds: published)
        let datePath = "\(date.year)/\(Self.twoDigits(date.month))/\(Self.twoDigits(date.day))"
        let permalink = "https://news.example.com/\(datePath)/\(slug)/"
        let trackingLink = "https://feeds.feedburner.com/~r/KioskDaily/~3/\(token(11))/\(slug)"
        let author = pick(Self.authors)
        var categories: [String] = []
        for _ in 0..<between(1, 3) {
            let category = pick(Self.categories)
            if !categories.contains(category) { categories.append(category) }
        }
        var lead: [UInt8] = []
        let summaryText = appendParagraph(sentences: between(2, 3), to: &lead)
        var description = Array("<p>".utf8) + lead + Array("</p>".utf8)
        if chance(50) {
            description.append(contentsOf: """
                <div class="feedflare"><a href="https://feeds.feedburner.com/~ff/KioskDaily?a=\(token(11)):\(token(8)):yIl2AUoC8zA">\
                <img src="https://feeds.feedburner.com/~ff/KioskDaily?d=yIl2AUoC8zA" border="0"></img></a></div>
                """.utf8)
        }
        description.append(contentsOf: "<img src=\"https://feeds.feedburner.com/~r/KioskDaily/~4/\(token(11))\" height=\"1\" width=\"1\" alt=\"\"/>".utf8)
        let thumbnailURL = "https://cdn.example.com/uploads/\(date.year)/\(Self.twoDigits(date.month))/\(slug)-150x150.jpg"
        let contentHTML = makeBody(lead: lead, slug: slug, datePath: datePath)
        let podcast = index % 3 == 0
        return Article(
            postID: postID, title: title, slug: slug, permalink: permalink, trackingLink: trackingLink,
            author: author, authorSlug: Self.slug(author, id: nil), categories: categories,
            summaryText: summaryText, descriptionHTML: description, contentHTML: contentHTML,
            published: published, updated: updated, timeZoneMinutes: pick(Self.timeZones),
            enclosureURL: podcast
                ? "https://media.example.com/podcasts/kiosk-daily-\(postID).mp3?dest-id=\(between(100_000, 999_999))"
                : "https://cdn.example.com/uploads/\(date.year)/\(Self.twoDigits(date.month))/\(slug).jpg",
            enclosureType: podcast ? "audio/mpeg" : "image/jpeg",
            enclosureLength: podcast ? between(8_000_000, 90_000_000) : between(40_000, 900_000),
            durationSeconds: between(300, 5400),
            thumbnailURL: thumbnailURL
        )
    }

    /// The article body: the lead paragraph then a mix of paragraphs, headings, lists, quotes and figures.
    private mutating func makeBody(lead: [UInt8], slug: String, datePath: String) -> [UInt8] {
        var html: [UInt8] = []
        html.reserveCapacity(4096)
        html.append(contentsOf: "<p>".utf8)
        html.append(contentsOf: lead)
        html.append(contentsOf: "</p>\n".utf8)
        for _ in 0..<between(3, 8) {
            switch below(12) {
            case 0:
                html.append(contentsOf: "<h2>".utf8)
                Self.appendEscaped(makeSentence(words: between(3, 7), terminated: false), to: &html)
                html.append(contentsOf: "</h2>\n".utf8)
            case 1:
                html.append(contentsOf: "<blockquote><p>".utf8)
                appendParagraph(sentences: between(1, 2), to: &html)
                html.append(contentsOf: "</p></blockquote>\n".utf8)
            case 2:
                html.append(contentsOf: "<ul>\n".utf8)
                for _ in 0..<between(2, 5) {
                    html.append(contentsOf: "<li>".utf8)
                    Self.appendEscaped(makeSentence(words: between(4, 10), terminated: false), to: &html)
                    html.append(contentsOf: "</li>\n".utf8)
                }
                html.append(contentsOf: "</ul>\n".utf8)
            case 3:
                let caption = makeSentence(words: between(4, 9), terminated: true)
                html.append(contentsOf: """
                    <figure class="wp-block-image size-large"><img loading="lazy" decoding="async" \
                    src="https://cdn.example.com/uploads/\(datePath.prefix(7))/\(slug)-\(below(9))-1024x576.jpg" alt="
                    """.utf8)
                Self.appendEscaped(caption, to: &html)
                html.append(contentsOf: "\" width=\"1024\" height=\"576\" /><figcaption>".utf8)
                Self.appendEscaped(caption, to: &html)
                html.append(contentsOf: "</figcaption></figure>\n".utf8)
            default:
                html.append(contentsOf: "<p>".utf8)
                appendParagraph(sentences: between(2, 6), to: &html)
                html.append(contentsOf: "</p>\n".utf8)
            }
        }
        html.append(contentsOf: """
            <p>The post <a href="https://news.example.com/\(datePath)/\(slug)/">\(slug)</a> \
            appeared first on <a href="https://news.example.com">Kiosk Daily</a>.</p>
            """.utf8)
        return html
    }

    /// Appends a paragraph's HTML source (with inline links and emphasis) to `html` and returns
    /// the same paragraph as plain text.
    @discardableResult
    private mutating func appendParagraph(sentences: Int, to html: inout [UInt8]) -> String {
        var text = ""
        for number in 0..<sentences {
            let sentence = makeSentence(words: between(8, 22), terminated: true)
            if number > 0 {
                text += " "
                html.append(0x20)
            }
            text += sentence
            let (open, close): (String, String)
            switch below(10) {
            case 0:
                open = "<a href=\"https://news.example.com/2025/0\(between(1, 6))/\(token(6).lowercased())/?utm_source=rss&amp;utm_medium=rss&amp;utm_campaign=kiosk\">"
                close = "</a>"
            case 1: (open, close) = ("<strong>", "</strong>")
            case 2: (open, close) = ("<em>", "</em>")
            default: (open, close) = ("", "")
            }
            html.append(contentsOf: open.utf8)
            Self.appendEscaped(sentence, to: &html)
            html.append(contentsOf: close.utf8)
        }
        return text
    }

    /// A plain-text sentence: mostly common English words, sometimes accented, CJK or emoji tokens,
    /// curly apostrophes and ampersands, occasionally a quotation.
    private mutating func makeSentence(words: Int, terminated: Bool) -> String {
        var sentence = ""
        var quoting = false
        for position in 0..<words {
            var word: String
            let roll = below(1000)
            if position == 0 {
                word = pick(Self.commonWords).capitalizedASCII
            } else if roll < 50 {
                word = pick(Self.exoticWords)
            } else if roll < 80 {
                word = pick(Self.apostropheWords)
            } else if roll < 95 {
                word = pick(Self.ampersandWords)
            } else if roll < 105 {
                word = pick(Self.numbers)
            } else {
                word = pick(Self.commonWords)
            }
            if position > 0 {
                sentence += chance(6) && position < words - 1 ? ", " : " "
            }
            if !quoting, position > 1, position < words - 2, chance(3) {
                quoting = true
                word = "\u{201C}" + word
            } else if quoting, chance(30) || position == words - 1 {
                quoting = false
                word += "\u{201D}"
            }
            sentence += word
        }
        if terminated {
            let roll = below(20)
            sentence += roll == 0 ? "?" : roll == 1 ? "!" : roll == 2 ? " \u{2013} really." : "."
        }
        return sentence
    }

    // MARK: - Headers and footers

    private static func appendHeader(_ format: Format, to out: inout [UInt8]) {
        let built = rfc822(newestPost + 600, offsetMinutes: 0)
        switch format {
        case .rss:
            out.append(contentsOf: """
                <?xml version="1.0" encoding="UTF-8"?><?xml-stylesheet type="text/xsl" media="screen" href="/~d/styles/rss2full.xsl"?>
                <rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" \
                xmlns:wfw="http://wellformedweb.org/CommentAPI/" xmlns:dc="http://purl.org/dc/elements/1.1/" \
                xmlns:atom="http://www.w3.org/2005/Atom" xmlns:sy="http://purl.org/rss/1.0/modules/syndication/" \
                xmlns:slash="http://purl.org/rss/1.0/modules/slash/" xmlns:media="http://search.yahoo.com/mrss/" \
                xmlns:feedburner="http://rssnamespace.org/feedburner/ext/1.0">
                <channel>
                \t<title>Kiosk Daily &#8211; News, Caf\u{E9} Culture &amp; 日本</title>
                \t<link>https://news.example.com</link>
                \t<description>All the news that fits, and some that doesn&#8217;t \u{1F4F0}</description>
                \t<lastBuildDate>\(built)</lastBuildDate>
                \t<language>en-US</language>
                \t<sy:updatePeriod>hourly</sy:updatePeriod>
                \t<sy:updateFrequency>1</sy:updateFrequency>
                \t<generator>https://wordpress.org/?v=6.5.3</generator>
                \t<image>
                \t\t<url>https://cdn.example.com/uploads/2024/01/cropped-kiosk-32x32.png</url>
                \t\t<title>Kiosk Daily &#8211; News, Caf\u{E9} Culture &amp; 日本</title>
                \t\t<link>https://news.example.com</link>
                \t\t<width>32</width>
                \t\t<height>32</height>
                \t</image>
                \t<atom10:link xmlns:atom10="http://www.w3.org/2005/Atom" rel="self" type="application/rss+xml" href="https://feeds.feedburner.com/KioskDaily" />
                \t<feedburner:info uri="kioskdaily" />
                \t<atom10:link xmlns:atom10="http://www.w3.org/2005/Atom" rel="hub" href="http://pubsubhubbub.appspot.com/" />

                """.utf8)
        case .atom:
            out.append(contentsOf: """
                <?xml version="1.0" encoding="utf-8"?>
                <feed xmlns="http://www.w3.org/2005/Atom" xmlns:thr="http://purl.org/syndication/thread/1.0" xml:lang="en-US">
                \t<title type="text">Kiosk Daily &#8211; News, Caf\u{E9} Culture &amp; 日本</title>
                \t<subtitle type="text">All the news that fits, and some that doesn&#8217;t \u{1F4F0}</subtitle>
                \t<updated>\(rfc3339(newestPost + 600, offsetMinutes: 0, fraction: nil))</updated>
                \t<link rel="alternate" type="text/html" href="https://news.example.com" />
                \t<id>https://news.example.com/feed/atom/</id>
                \t<link rel="self" type="application/atom+xml" href="https://news.example.com/feed/atom/" />
                \t<icon>https://cdn.example.com/uploads/2024/01/cropped-kiosk-32x32.png</icon>
                \t<generator uri="https://wordpress.org/" version="6.5.3">WordPress</generator>

                """.utf8)
        case .json:
            out.append(contentsOf: """
                {
                  "version": "https://jsonfeed.org/version/1.1",
                  "title": "Kiosk Daily \\u2013 News, Caf\u{E9} Culture & 日本",
                  "home_page_url": "https://news.example.com",
                  "feed_url": "https://news.example.com/feed/json",
                  "description": "All the news that fits, and some that doesn\u{2019}t \u{1F4F0}",
                  "icon": "https://cdn.example.com/uploads/2024/01/cropped-kiosk-512x512.png",
                  "favicon": "https://cdn.example.com/uploads/2024/01/cropped-kiosk-32x32.png",
                  "language": "en-US",
                  "authors": [{ "name": "Kiosk Daily", "url": "https:\\/\\/news.example.com" }],
                  "items": [

                """.utf8)
        }
    }

    private static func footerText(_ format: Format) -> String {
        switch format {
        case .rss: "</channel>\n</rss>\n"
        case .atom: "</feed>\n"
        case .json: "\n  ]\n}\n"
        }
    }

    private static func entrySeparator(_ format: Format) -> String {
        format == .json ? ",\n" : ""
    }

    // MARK: - Entries

    private static func appendRSSItem(_ article: Article, to out: inout [UInt8]) {
        out.append(contentsOf: "\t<item>\n\t\t<title>".utf8)
        appendEscaped(article.title, to: &out)
        out.append(contentsOf: "</title>\n\t\t<link>".utf8)
        appendEscaped(article.trackingLink, to: &out)
        out.append(contentsOf: "</link>\n\t\t<comments>\(article.permalink)#respond</comments>\n".utf8)
        out.append(contentsOf: "\t\t<dc:creator><![CDATA[".utf8)
        appendCDATABody(article.author, to: &out)
        out.append(contentsOf: "]]></dc:creator>\n".utf8)
        out.append(contentsOf: "\t\t<pubDate>\(rfc822(article.published, offsetMinutes: article.timeZoneMinutes))</pubDate>\n".utf8)
        for category in article.categories {
            out.append(contentsOf: "\t\t<category><![CDATA[".utf8)
            appendCDATABody(category, to: &out)
            out.append(contentsOf: "]]></category>\n".utf8)
        }
        out.append(contentsOf: "\t\t<guid isPermaLink=\"false\">https://news.example.com/?p=\(article.postID)</guid>\n".utf8)
        // FeedBurner-style: the HTML is entity-escaped, so its own entities come out as &amp;#8217;.
        out.append(contentsOf: "\t\t<description>".utf8)
        appendEscaped(article.descriptionHTML, to: &out)
        out.append(contentsOf: "</description>\n\t\t<content:encoded><![CDATA[".utf8)
        appendCDATABody(article.contentHTML, to: &out)
        out.append(contentsOf: "]]></content:encoded>\n".utf8)
        out.append(contentsOf: "\t\t<slash:comments>\(article.postID % 17)</slash:comments>\n\t\t<enclosure url=\"".utf8)
        appendEscaped(article.enclosureURL, to: &out)
        out.append(contentsOf: "\" length=\"\(article.enclosureLength)\" type=\"\(article.enclosureType)\" />\n".utf8)
        out.append(contentsOf: "\t\t<media:thumbnail url=\"\(article.thumbnailURL)\" width=\"150\" height=\"150\" />\n".utf8)
        out.append(contentsOf: "\t\t<feedburner:origLink>\(article.permalink)</feedburner:origLink>\n\t</item>\n".utf8)
    }

    private static func appendAtomEntry(_ article: Article, to out: inout [UInt8]) {
        out.append(contentsOf: "\t<entry>\n\t\t<author>\n\t\t\t<name>".utf8)
        appendEscaped(article.author, to: &out)
        out.append(contentsOf: "</name>\n\t\t\t<uri>https://news.example.com/author/\(article.authorSlug)/</uri>\n\t\t</author>\n".utf8)
        out.append(contentsOf: "\t\t<title type=\"text\">".utf8)
        appendEscaped(article.title, to: &out)
        out.append(contentsOf: "</title>\n\t\t<link rel=\"alternate\" type=\"text/html\" href=\"\(article.permalink)\" />\n".utf8)
        out.append(contentsOf: "\t\t<id>tag:news.example.com,2025:post-\(article.postID)</id>\n".utf8)
        let fraction = article.postID % 4 == 0 ? article.postID % 1000 : nil
        out.append(contentsOf: "\t\t<updated>\(rfc3339(article.updated, offsetMinutes: article.timeZoneMinutes, fraction: fraction))</updated>\n".utf8)
        out.append(contentsOf: "\t\t<published>\(rfc3339(article.published, offsetMinutes: article.timeZoneMinutes, fraction: fraction))</published>\n".utf8)
        for category in article.categories {
            out.append(contentsOf: "\t\t<category scheme=\"https://news.example.com\" term=\"".utf8)
            appendEscaped(category, to: &out)
            out.append(contentsOf: "\" />\n".utf8)
        }
        out.append(contentsOf: "\t\t<summary type=\"html\">".utf8)
        appendEscaped(article.descriptionHTML, to: &out)
        out.append(contentsOf: "</summary>\n".utf8)
        // Most feeds escape HTML content; some wrap it in CDATA instead. Both are type="html".
        out.append(contentsOf: "\t\t<content type=\"html\" xml:base=\"\(article.permalink)\">".utf8)
        if article.postID % 4 == 1 {
            out.append(contentsOf: "<![CDATA[".utf8)
            appendCDATABody(article.contentHTML, to: &out)
            out.append(contentsOf: "]]>".utf8)
        } else {
            appendEscaped(article.contentHTML, to: &out)
        }
        out.append(contentsOf: "</content>\n".utf8)
        out.append(contentsOf: "\t\t<link rel=\"enclosure\" type=\"\(article.enclosureType)\" length=\"\(article.enclosureLength)\" href=\"".utf8)
        appendEscaped(article.enclosureURL, to: &out)
        out.append(contentsOf: "\" />\n\t\t<thr:total>\(article.postID % 17)</thr:total>\n\t</entry>\n".utf8)
    }

    private static func appendJSONItem(_ article: Article, to out: inout [UInt8]) {
        // A third of the items are written the WordPress way: ASCII only, with \uXXXX and \/ escapes.
        let ascii = article.postID % 3 == 0
        func field(_ name: String, _ value: String) {
            out.append(contentsOf: "      \"\(name)\": ".utf8)
            appendJSONString(value, asciiOnly: ascii, to: &out)
            out.append(contentsOf: ",\n".utf8)
        }
        out.append(contentsOf: "    {\n".utf8)
        field("id", "https://news.example.com/?p=\(article.postID)")
        field("url", article.permalink)
        field("external_url", article.trackingLink)
        field("title", article.title)
        out.append(contentsOf: "      \"content_html\": ".utf8)
        appendJSONString(article.contentHTML, asciiOnly: ascii, to: &out)
        out.append(contentsOf: ",\n".utf8)
        field("summary", article.summaryText)
        field("image", article.thumbnailURL)
        let fraction = article.postID % 4 == 0 ? article.postID % 1000 : nil
        field("date_published", rfc3339(article.published, offsetMinutes: article.timeZoneMinutes, fraction: fraction))
        field("date_modified", rfc3339(article.updated, offsetMinutes: article.timeZoneMinutes, fraction: fraction))
        out.append(contentsOf: "      \"authors\": [\n        {\n          \"name\": ".utf8)
        appendJSONString(article.author, asciiOnly: ascii, to: &out)
        out.append(contentsOf: ",\n          \"url\": ".utf8)
        appendJSONString("https://news.example.com/author/\(article.authorSlug)/", asciiOnly: ascii, to: &out)
        out.append(contentsOf: "\n        }\n      ],\n      \"tags\": [".utf8)
        for (number, category) in article.categories.enumerated() {
            if number > 0 { out.append(contentsOf: ", ".utf8) }
            appendJSONString(category, asciiOnly: ascii, to: &out)
        }
        out.append(contentsOf: "],\n      \"attachments\": [\n        {\n          \"url\": ".utf8)
        appendJSONString(article.enclosureURL, asciiOnly: ascii, to: &out)
        out.append(contentsOf: ",\n          \"mime_type\": \"\(article.enclosureType)\",\n".utf8)
        out.append(contentsOf: "          \"size_in_bytes\": \(article.enclosureLength)".utf8)
        if article.enclosureType == "audio/mpeg" {
            out.append(contentsOf: ",\n          \"duration_in_seconds\": \(article.durationSeconds)".utf8)
        }
        out.append(contentsOf: "\n        }\n      ]\n    }".utf8)
    }

    // MARK: - Escaping

    /// Appends `text` escaped for XML character data or a double-quoted attribute: markup
    /// characters become entities and typographic punctuation numeric references, as WordPress
    /// writes it. The same escaping turns plain text into HTML source and HTML source into the
    /// entity-escaped HTML of an RSS `description` (where `&#8217;` becomes `&amp;#8217;`).
    private static func appendEscaped(_ text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { appendEscaped($0, to: &out) }
    }

    private static func appendEscaped(_ bytes: [UInt8], to out: inout [UInt8]) {
        bytes.withUnsafeBufferPointer { appendEscaped($0, to: &out) }
    }

    private static func appendEscaped(_ source: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        // The markup characters are HTMLEscaping's; between its runs, four typographic marks
        // (U+2013, U+2019, U+201C and U+201D: E2 80 93/99/9C/9D in UTF-8) become references.
        var runStart = 0
        var index = 0
        while index + 2 < source.count {
            guard source[index] == 0xE2, source[index + 1] == 0x80 else {
                index += 1
                continue
            }
            let reference: String
            switch source[index + 2] {
            case 0x93: reference = "&#8211;"
            case 0x99: reference = "&#8217;"
            case 0x9C: reference = "&#8220;"
            case 0x9D: reference = "&#8221;"
            default:
                index += 1
                continue
            }
            HTMLEscaping.appendEscaped(UnsafeBufferPointer(rebasing: source[runStart..<index]), to: &out)
            out.append(contentsOf: reference.utf8)
            index += 3
            runStart = index
        }
        HTMLEscaping.appendEscaped(UnsafeBufferPointer(rebasing: source[runStart..<source.count]), to: &out)
    }

    /// Appends `html` inside a CDATA section's body, splitting any `]]>` so the section cannot end early.
    private static func appendCDATABody(_ html: [UInt8], to out: inout [UInt8]) {
        let end: [UInt8] = Array("]]>".utf8)
        guard html.count >= 3 else {
            out.append(contentsOf: html)
            return
        }
        var runStart = 0
        for index in 0...(html.count - 3) where html[index] == end[0] && html[index + 1] == end[1] && html[index + 2] == end[2] {
            out.append(contentsOf: html[runStart..<(index + 2)])
            out.append(contentsOf: "]]><![CDATA[".utf8)
            runStart = index + 2
        }
        out.append(contentsOf: html[runStart...])
    }

    private static func appendCDATABody(_ text: String, to out: inout [UInt8]) {
        appendCDATABody(Array(text.utf8), to: &out)
    }

    /// Appends `text` as a quoted JSON string; with `asciiOnly`, every non-ASCII scalar becomes a
    /// `\uXXXX` escape (a surrogate pair beyond the BMP) and `/` becomes `\/`.
    private static func appendJSONString(_ bytes: [UInt8], asciiOnly: Bool, to out: inout [UInt8]) {
        if asciiOnly {
            appendJSONString(String(decoding: bytes, as: UTF8.self), asciiOnly: true, to: &out)
        } else {
            bytes.withUnsafeBufferPointer { appendJSONStringUTF8($0, to: &out) }
        }
    }

    private static func appendJSONString(_ text: String, asciiOnly: Bool, to out: inout [UInt8]) {
        guard asciiOnly else {
            var text = text
            text.withUTF8 { appendJSONStringUTF8($0, to: &out) }
            return
        }
        out.append(0x22)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x2F: out.append(contentsOf: "\\/".utf8)
            case 0..<0x80: appendJSONEscapedASCII(UInt8(truncatingIfNeeded: scalar.value), to: &out)
            default:
                for unit in String(scalar).utf16 { appendUnicodeEscape(unit, to: &out) }
            }
        }
        out.append(0x22)
    }

    /// A quoted JSON string keeping UTF-8 as is: only quotes, backslashes and controls are escaped,
    /// and runs of other bytes are copied in one go.
    private static func appendJSONStringUTF8(_ source: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        out.append(0x22)
        var runStart = 0
        for index in source.indices where source[index] < 0x20 || source[index] == 0x22 || source[index] == 0x5C {
            out.append(contentsOf: UnsafeBufferPointer(rebasing: source[runStart..<index]))
            appendJSONEscapedASCII(source[index], to: &out)
            runStart = index + 1
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: source[runStart..<source.count]))
        out.append(0x22)
    }

    private static func appendJSONEscapedASCII(_ byte: UInt8, to out: inout [UInt8]) {
        switch byte {
        case 0x22: out.append(contentsOf: "\\\"".utf8)
        case 0x5C: out.append(contentsOf: "\\\\".utf8)
        case 0x0A: out.append(contentsOf: "\\n".utf8)
        case 0x0D: out.append(contentsOf: "\\r".utf8)
        case 0x09: out.append(contentsOf: "\\t".utf8)
        case 0..<0x20: appendUnicodeEscape(UInt16(byte), to: &out)
        default: out.append(byte)
        }
    }

    private static func appendUnicodeEscape(_ unit: UInt16, to out: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        out.append(contentsOf: "\\u".utf8)
        for shift in stride(from: 12, through: 0, by: -4) {
            out.append(hex[Int((unit >> UInt16(shift)) & 0xF)])
        }
    }

    /// A URL slug: ASCII letters and digits of `text`, lowercased and dash-separated, plus the post id.
    private static func slug(_ text: String, id: Int?) -> String {
        var words: [String] = []
        var current = ""
        for scalar in text.unicodeScalars {
            // ASCII letters and digits only; checking ranges avoids Unicode property look-ups.
            if ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) {
                current.unicodeScalars.append(scalar)
            } else if !current.isEmpty {
                words.append(current.lowercased())
                current = ""
            }
        }
        if !current.isEmpty { words.append(current.lowercased()) }
        let base = words.prefix(8).joined(separator: "-")
        guard let id else { return base }
        return base.isEmpty ? "post-\(id)" : "\(base)-\(id)"
    }

    // MARK: - Dates

    /// The newest post: 2025-06-01 09:30:00 UTC, in seconds since 1970.
    private static let newestPost = 1_748_770_200


    /// RFC 822 as RSS writes it, e.g. `Sun, 01 Jun 2025 09:30:00 +0000`; UTC is sometimes spelt `GMT`.
    private static func rfc822(_ seconds: Int, offsetMinutes: Int) -> String {
        let zone: InternetDate.Zone = offsetMinutes == 0 && seconds % 2 != 0 ? .gmt : .offset(minutes: offsetMinutes)
        return InternetDate.rfc822(Date(timeIntervalSince1970: Double(seconds)), zone: zone)
    }

    /// RFC 3339, e.g. `2025-06-01T11:30:00+02:00` or `2025-06-01T09:30:00.250Z`.
    private static func rfc3339(_ seconds: Int, offsetMinutes: Int, fraction: Int?) -> String {
        InternetDate.rfc3339(Date(timeIntervalSince1970: Double(seconds)), offsetMinutes: offsetMinutes, milliseconds: fraction)
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }

    /// UTC offsets in minutes; UTC is the most common.
    private static let timeZones = [0, 0, 0, 0, -240, -300, -420, 60, 120, 330, 540]

    // MARK: - Vocabulary

    private static let tokenAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".unicodeScalars)

    private static let commonWords = [
        "the", "a", "news", "city", "council", "report", "market", "week", "people", "government", "plan",
        "company", "new", "year", "first", "said", "after", "before", "local", "data", "study", "team",
        "school", "water", "energy", "price", "prices", "workers", "election", "minister", "court", "judge",
        "season", "game", "players", "fans", "record", "science", "research", "climate", "storm", "rain",
        "housing", "rent", "transport", "bridge", "train", "airport", "festival", "music", "film", "book",
        "review", "museum", "art", "food", "restaurant", "coffee", "software", "phone", "update", "security",
        "privacy", "network", "startup", "investors", "bank", "budget", "tax", "health", "hospital", "doctors",
        "patients", "vaccine", "summer", "winter", "spring", "autumn", "morning", "evening", "today", "yesterday",
        "tomorrow", "announced", "expected", "opened", "closed", "raised", "dropped", "launched", "approved",
        "rejected", "warned", "celebrated", "visited", "built", "tested", "shared", "and", "or", "but", "with",
        "from", "into", "over", "under", "about", "across", "against", "between", "during", "without", "of",
        "in", "on", "for", "to", "by", "at", "as", "is", "was", "will", "could", "should", "more", "less",
        "most", "many", "several", "three", "ten", "hundred", "thousand", "million", "regional", "national",
        "international", "public", "private", "digital", "open", "small", "large", "major", "quiet", "busy",
    ]

    /// Non-ASCII tokens: accented Latin, Greek, Cyrillic, CJK and emoji (one with a ZWJ sequence).
    private static let exoticWords = [
        "café", "naïve", "résumé", "Zürich", "São Paulo", "Montréal", "élan", "piñata", "Ελλάδα", "Москва",
        "日本", "東京の", "データ", "北京", "서울", "🚀", "📰", "🎉", "👩‍💻", "€1,200", "½", "fiancée", "Ångström",
    ]

    private static let apostropheWords = [
        "it\u{2019}s", "don\u{2019}t", "city\u{2019}s", "we\u{2019}re", "that\u{2019}s", "won\u{2019}t",
        "council\u{2019}s", "O\u{2019}Brien", "isn\u{2019}t", "'90s",
    ]

    private static let ampersandWords = ["R&D", "Q&A", "AT&T", "M&A", "&", "Johnson & Johnson", "<tags>", "5 > 3"]

    private static let numbers = ["2025", "42", "3.5%", "1,024", "$19.99", "7", "100", "2.4m", "15:30"]

    private static let authors = [
        "Jane Doe", "Zoë Müller", "José Álvarez", "Tanaka Hiroshi (田中)", "Siobhán O\u{2019}Neill", "Li Wei",
        "Ana-María Pérez", "Kwame Mensah", "Søren Kierkegaard", "Priya Patel", "Editorial Staff",
    ]

    private static let categories = [
        "News", "Technology", "Science & Health", "Politique", "Culture", "日本", "Sport", "Économie",
        "Opinion", "Podcasts", "Local", "World", "Reviews",
    ]
}

extension String {
    /// The string with its first ASCII letter upper-cased.
    fileprivate var capitalizedASCII: String {
        guard let first = unicodeScalars.first, ("a"..."z").contains(first) else { return self }
        return first.properties.uppercaseMapping + String(unicodeScalars.dropFirst())
    }
}
