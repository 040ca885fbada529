import Foundation
@testable import KioskHTML
import Testing

@testable import KioskCore

/// The reader view on small pages written to show one thing each; the 130 real pages of
/// ../shared/corpus/readability are scored by scripts/corpus-check.sh.
@Suite struct ArticleExtractorTests {
    static let paragraphs = [
        "The river rose three metres overnight, and by morning the lower town was under water, its streets turned to canals.",
        "Residents who had stayed, despite the warnings, were taken off their roofs by boats from the fire service, one family at a time.",
        "The mayor said the new flood wall, finished in the spring, had held along most of its length, but not at the old mill.",
        "Engineers will inspect the wall this week; the council has asked the region for help with the cost of the repairs.",
        "Schools are closed until Monday. The railway line to the city is expected to reopen on Wednesday, if the water falls.",
    ]

    static func page(head: String = "<title>Floods in the lower town – The Valley Courier</title>", article: String? = nil) -> [UInt8] {
        let body = article ?? paragraphs.map { "<p>\($0)</p>" }.joined()
        return Array(
            """
            <!doctype html><html lang="en-GB"><head>\(head)</head><body>
            <header class="site-header"><nav><a href="/">Home</a> <a href="/news">News</a> <a href="/sport">Sport</a></nav></header>
            <div class="sidebar"><h3>Most read</h3><ul><li><a href="/a">Another story</a></li><li><a href="/b">And another</a></li></ul></div>
            <div id="main"><article class="post"><h1>Floods in the lower town</h1>\(body)</article></div>
            <div class="comments"><p>First! Great article, thanks for writing it, I read it all the way through.</p></div>
            <footer>© The Valley Courier. <a href="/privacy">Privacy</a></footer>
            </body></html>
            """.utf8)
    }

    @Test func theArticleIsFoundAndTheRestLeftOut() throws {
        let article = try ArticleExtractor.extract(Self.page(), url: "https://courier.example/2024/floods")
        for paragraph in Self.paragraphs { #expect(article.text.contains(paragraph)) }
        for noise in ["Most read", "Another story", "First! Great article", "Privacy", "Sport"] {
            #expect(!article.text.contains(noise), "\(noise) is not the article")
        }
        #expect(article.title == "Floods in the lower town")
        #expect(article.language == "en-GB")
        #expect(article.wordCount > 90)
        #expect(article.excerpt == Self.paragraphs[0])
    }

    @Test func metadataComesFromJSONLDFirst() throws {
        let head = """
            <title>Ignored – Site</title><meta property="og:title" content="Not this either">
            <script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"WebSite","name":"Courier"},
            {"@type":"NewsArticle","headline":"Floods &amp; the wall","author":[{"@type":"Person","name":"Ann Writer"},{"name":"Bo Reporter"}],
            "datePublished":"2024-03-01T08:30:00Z","publisher":{"@type":"Organization","name":"The Valley Courier"},
            "image":{"@type":"ImageObject","url":"/images/flood.jpg"},"description":"The river rose overnight."}]}</script>
            """
        let article = try ArticleExtractor.extract(Self.page(head: head), url: "https://courier.example/2024/floods")
        #expect(article.title == "Floods & the wall")
        #expect(article.byline == "Ann Writer, Bo Reporter")
        #expect(article.siteName == "The Valley Courier")
        #expect(article.published == Date(timeIntervalSince1970: 1_709_281_800))
        #expect(article.image == "https://courier.example/images/flood.jpg")
        #expect(article.excerpt == "The river rose overnight.")
    }

    @Test func openGraphWhenThereIsNoJSONLD() throws {
        let head = """
            <meta property="og:title" content="Floods: the wall held"><meta property="og:site_name" content="Courier">
            <meta name="author" content="Ann Writer"><meta property="article:published_time" content="2024-03-01T08:30:00+00:00">
            <meta property="og:image" content="https://cdn.example/flood.jpg"><meta name="description" content="It rose.">
            """
        let article = try ArticleExtractor.extract(Self.page(head: head))
        #expect(article.title == "Floods: the wall held")
        #expect(article.siteName == "Courier")
        #expect(article.byline == "Ann Writer")
        #expect(article.image == "https://cdn.example/flood.jpg")
        #expect(article.excerpt == "It rose.")
        #expect(article.published == Date(timeIntervalSince1970: 1_709_281_800))
    }

    @Test(arguments: [
        ("Floods in the lower town – The Valley Courier", "Floods in the lower town"),
        // Readability's rule: the part before the last separator, unless that is under three
        // words; a result of four words or fewer falls back to the whole title.
        ("The Valley Courier | Floods in the lower town", "The Valley Courier | Floods in the lower town"),
        ("Floods in the lower town", "Floods in the lower town"),
        ("News » Floods in the lower town", "Floods in the lower town"),
    ])
    func theSitesNameIsTakenOffTheTitle(title: String, expected: String) throws {
        let article = try ArticleExtractor.extract(Self.page(head: "<title>\(title)</title>"))
        #expect(article.title == expected)
    }

    @Test func theArticleIsSafeToShow() throws {
        let body = Self.paragraphs.map { "<p onclick=\"steal()\">\($0) <a href=\"/more\">more</a></p>" }.joined()
            + "<script>alert(1)</script><img src=\"/pictures/river.jpg\" onerror=\"steal()\" alt=\"The river\">"
        let article = try ArticleExtractor.extract(Self.page(article: body), url: "https://courier.example/2024/floods")
        #expect(!article.html.contains("onclick"))
        #expect(!article.html.contains("onerror"))
        #expect(!article.html.contains("<script"))
        #expect(!article.text.contains("alert(1)"))
        #expect(article.html.contains("https://courier.example/more"))
        #expect(article.html.contains("https://courier.example/pictures/river.jpg"))
    }

    @Test func anEmptyPageIsATypedError() {
        #expect(throws: ArticleError.emptyPage) {
            try ArticleExtractor.extract(Array("<html><head><title>x</title></head><body> <div></div></body></html>".utf8))
        }
        #expect(throws: ArticleError.emptyPage) { try ArticleExtractor.extract([]) }
    }

    @Test func aPageOverTheLimitIsRefusedUnread() {
        let limits = ArticleLimits(maxBytes: 1_000)
        #expect(throws: ArticleError.tooLarge(bytes: 2_000, limit: 1_000)) {
            try ArticleExtractor.extract([UInt8](repeating: 0x61, count: 2_000), limits: limits)
        }
    }

    /// 100,000 nested elements: the tree is bounded, the text still found, nothing traps.
    @Test(.timeLimit(.minutes(1))) func deepNestingIsBoundedAndItsTextKept() throws {
        let depth = 100_000
        let html = String(repeating: "<div>", count: depth) + Self.paragraphs.map { "<p>\($0)</p>" }.joined()
            + String(repeating: "</div>", count: depth)
        let article = try ArticleExtractor.extract(Array(html.utf8))
        #expect(article.text.contains(Self.paragraphs[2]))
    }

    /// A page just under the 10 MB limit (nested sections, links, line breaks, tables), all of it
    /// article: its tree would take more than the extractor allows, so it is refused while the
    /// tree is built (a typed error that says so), not a trap; allowed the tree, it is read whole
    /// and refused as too long for a reader view; allowed that too, it is an article.
    @Test(.timeLimit(.minutes(2))) func aLargePageFinishesWithATypedResult() throws {
        var body = ""
        var index = 0
        let limit = ArticleLimits().maxBytes - 4_096
        while body.utf8.count < limit {
            index += 1
            body += "<section><div class=\"part\"><h2>Part \(index)</h2>"
            body += Self.paragraphs.map { "<p>\($0) <a href=\"/n/\(index)\">note</a></p>" }.joined()
            body += "<div>line one<br><br>line two<br><br><table><tr><td>a</td><td>b</td></tr></table></div></div></section>"
        }
        let html = "<html><head><title>A long page of many parts</title></head><body>\(body)</body></html>"
        let bytes = Array(html.utf8)
        #expect(bytes.count <= ArticleLimits().maxBytes)
        #expect(throws: ArticleError.tooComplex(treeBytes: 32 * 1_048_576)) { try ArticleExtractor.extract(bytes) }
        #expect(ArticleError.tooComplex(treeBytes: 32 * 1_048_576).description.hasPrefix("the page is too complex"))
        let whole = ArticleLimits(maxTreeBytes: .max)
        let result = Result { () throws(ArticleError) -> ReaderArticle in try ArticleExtractor.extract(bytes, limits: whole) }
        guard case .failure(.tooLong(let characters, let limit)) = result else {
            Issue.record("expected the article to be too long, got \(result)")
            return
        }
        #expect(characters > limit && limit == 1_000_000)
        #expect(ArticleError.tooLong(characters: characters, limit: limit).description.hasPrefix("the article is too long"))
        // With higher limits, the same page is an article.
        let article = try ArticleExtractor.extract(
            bytes, limits: ArticleLimits(maxArticleCharacters: 20_000_000, maxTreeBytes: .max))
        #expect(article.text.contains(Self.paragraphs[3]))
        #expect(article.wordCount > 1_000)
    }

    /// The tree's budget counts elements, runs of text and attributes as the page is built: the
    /// same paragraphs fit where, each with a long attribute, they do not; real pages fit.
    @Test func theTreesBudgetCountsElementsTextAndAttributes() throws {
        let plain = (0..<200).map { "<p>Paragraph \($0), with words enough to read, and a comma.</p>" }.joined()
        let marked = (0..<200).map {
            "<p data-tracking=\"\(String(repeating: "x", count: 200))\">Paragraph \($0), with words enough to read, and a comma.</p>"
        }.joined()
        // 200 paragraphs and their text: 200 × (190 + 124) = 62,800 reckoned bytes, and the
        // page around them; each long attribute adds 48 + 32 + 200.
        let budget = ArticleLimits(maxTreeBytes: 80_000)
        let article = try ArticleExtractor.extract(Self.page(article: plain), limits: budget)
        #expect(article.text.contains("Paragraph 199"))
        #expect(throws: ArticleError.tooComplex(treeBytes: 80_000)) {
            try ArticleExtractor.extract(Self.page(article: marked), limits: budget)
        }
        #expect(throws: ArticleError.tooComplex(treeBytes: 10_000)) {
            try ArticleExtractor.extract(Self.page(article: plain), limits: ArticleLimits(maxTreeBytes: 10_000))
        }
        // 4,000 paragraphs are far inside the default budget.
        #expect(try ArticleExtractor.extract(Self.page(article: String(repeating: plain, count: 20))).wordCount > 1_000)
    }

    /// The limit counts the article's text, not the page's: a long article under it is whole.
    @Test func anArticleUpToTheLimitIsKeptAndOneBeyondIsRefused() throws {
        let body = Self.paragraphs.map { "<p>\($0)</p>" }.joined()
        let article = try ArticleExtractor.extract(Self.page(article: body))
        let length = article.text.count
        #expect(try ArticleExtractor.extract(Self.page(article: body), limits: ArticleLimits(maxArticleCharacters: length + 10)).text
            == article.text)
        #expect(throws: ArticleError.self) {
            try ArticleExtractor.extract(Self.page(article: body), limits: ArticleLimits(maxArticleCharacters: length / 2))
        }
    }

    /// Pages with nothing to read end in a typed error whose reason a person can read.
    @Test func pagesWithoutAnArticleSayWhy() {
        let scriptOnly = "<html><head><script>var a = 1;</script></head><body><script>document.write('x')</script></body></html>"
        #expect(throws: ArticleError.emptyPage) { try ArticleExtractor.extract(Array(scriptOnly.utf8)) }
        #expect(ArticleError.emptyPage.description == "the page has no text")
        #expect(ArticleError.notAnArticle.description == "the page is not an article")
        #expect(ArticleError.tooLarge(bytes: 12_582_912, limit: 10_485_760).description.contains("too large"))
    }

    /// 10 MB of one unbroken text run, and a page of only end tags: bounded, typed, no trap.
    @Test(.timeLimit(.minutes(2))) func unshapedInputGivesATypedResult() {
        let inputs = [
            [UInt8](repeating: UInt8(ascii: "a"), count: ArticleLimits().maxBytes),
            Array(String(repeating: "</div></p></table>", count: 50_000).utf8),
            Array(String(repeating: "<br>", count: 200_000).utf8),
        ]
        for input in inputs {
            let result = Result { () throws(ArticleError) -> ReaderArticle in try ArticleExtractor.extract(input) }
            switch result {
            case .success(let article): #expect(!article.text.isEmpty)
            case .failure(let error): #expect(!error.description.isEmpty)
            }
        }
    }

    /// Attributes of megabytes (a data: URL, a style, a class list) on the article's own elements:
    /// bounded, typed, and the article still found.
    @Test(.timeLimit(.minutes(1))) func hugeAttributesAreReadThrough() throws {
        let huge = String(repeating: "x", count: 4_000_000)
        let body = #"<img src="data:image/png;base64,\#(huge)" alt="">"#
            + #"<p class="\#(String(repeating: "c ", count: 200_000))">\#(Self.paragraphs[0])</p>"#
            + Self.paragraphs.dropFirst().map { #"<p style="\#(huge.prefix(100_000))">\#($0)</p>"# }.joined()
        let article = try ArticleExtractor.extract(Self.page(article: body))
        #expect(article.text.contains(Self.paragraphs[1]))
        // No megabyte attribute goes into the article (and so into the store and every sync).
        let kept = article.html.utf8.count
        #expect(kept < 100_000, "the article kept \(kept) bytes of attributes")
    }

    /// Bytes that are not what the page says: invalid UTF-8 in a UTF-8 page, Latin-1 and UTF-16
    /// pieces in the middle, a stray byte-order mark, NULs. Decoded with replacements, never a trap.
    @Test func brokenAndMixedEncodingsAreReadWithReplacements() throws {
        var bytes = Array("<html><head><meta charset=\"utf-8\"><title>Mixed</title></head><body><article>".utf8)
        for (index, paragraph) in Self.paragraphs.enumerated() {
            bytes += Array("<p>".utf8) + Array(paragraph.utf8)
            switch index {
            case 0: bytes += [0xC3, 0x28, 0xA0, 0xA1, 0xFF, 0xFE]  // invalid sequences
            case 1: bytes += [0x43, 0x61, 0x66, 0xE9]  // "Café" in Latin-1
            case 2: bytes += [0xFE, 0xFF, 0x00, 0x41, 0x00, 0x42]  // a UTF-16 piece after a BOM
            case 3: bytes += [0x00, 0x00, 0xEF, 0xBB, 0xBF]  // NULs and a UTF-8 BOM mid-page
            default: bytes += [0xF0, 0x9F, 0x98]  // a truncated four-byte sequence
            }
            bytes += Array("</p>".utf8)
        }
        bytes += Array("</article></body></html>".utf8)
        let article = try ArticleExtractor.extract(bytes)
        #expect(article.text.contains(Self.paragraphs[2]))
        #expect(article.text.contains("\u{FFFD}") || article.text.contains("Caf"))
        #expect(!article.text.contains("\0"))
        // A page in UTF-16 as a whole (with its BOM) is read too, or refused with a reason.
        let units = Array(String(decoding: Self.page(), as: UTF8.self).utf16)
        let utf16: [UInt8] = [0xFF, 0xFE] + units.flatMap { unit -> [UInt8] in [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let result = Result { () throws(ArticleError) -> ReaderArticle in try ArticleExtractor.extract(utf16) }
        switch result {
        case .success(let found): #expect(found.text.contains(Self.paragraphs[0]))
        case .failure(let error): #expect(!error.description.isEmpty)
        }
    }

    @Test func aLatin1PageIsDecodedByItsMetaCharset() throws {
        let text = "<html><head><meta charset=\"iso-8859-1\"><title>Caf\u{E9}s of the town</title></head><body><article>"
            + Self.paragraphs.map { "<p>\($0) Caf\u{E9}.</p>" }.joined() + "</article></body></html>"
        let bytes = text.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }
        let article = try ArticleExtractor.extract(bytes)
        #expect(article.text.contains("Café."))
    }
}
