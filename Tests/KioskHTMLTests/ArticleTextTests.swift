import Foundation
@testable import KioskHTML
import Testing

@testable import KioskCore

/// The article's plain text is for people and for search: what a page puts there only for layout
/// (soft hyphens, zero-width spaces, ruby readings) stays in its HTML and out of its text; and
/// the page is read in the encoding it declares, even late.
@Suite struct ArticleTextTests {
    static func extract(_ article: String) throws -> ReaderArticle {
        try ArticleExtractor.extract(ArticleExtractorTests.page(article: article), url: "https://courier.example/2024/floods")
    }

    @Test func softHyphensAndZeroWidthSpacesAreNotInTheText() throws {
        let paragraphs = ArticleExtractorTests.paragraphs.map { "<p>\($0) St. Magda\u{AD}lener, Rot\u{200B}wein, \u{FEFF}Lagrein.</p>" }
        let article = try Self.extract(paragraphs.joined())
        #expect(article.text.contains("St. Magdalener, Rotwein, Lagrein."))
        #expect(!article.text.unicodeScalars.contains { [0xAD, 0x200B, 0xFEFF].contains($0.value) })
        // The page's HTML keeps its break opportunities.
        #expect(article.html.contains("Magda\u{AD}lener") || article.html.contains("Magda&shy;lener"))
        // The excerpt, too, is text.
        #expect(article.excerpt?.contains("Magdalener") == true)
    }

    @Test func joinersThatShapeWordsAndEmojiStay() throws {
        let paragraphs = ArticleExtractorTests.paragraphs.map { "<p>\($0) \u{645}\u{6CC}\u{200C}\u{62E}\u{648}\u{627}\u{647}\u{645} 👩\u{200D}🔬</p>" }
        let article = try Self.extract(paragraphs.joined())
        #expect(article.text.contains("\u{645}\u{6CC}\u{200C}\u{62E}\u{648}\u{627}\u{647}\u{645} 👩\u{200D}🔬"))
    }

    @Test func theTextIsInOneSpellingPerCharacter() throws {
        // The page's precomposed Bengali য় (U+09DF) is য + ় in NFC, as a search typed by hand is.
        let paragraphs = ArticleExtractorTests.paragraphs.map { "<p>\($0) কুষ্টি\u{9DF}া, cafe\u{301}.</p>" }
        let article = try Self.extract(paragraphs.joined())
        #expect(article.text.contains("কুষ্টি\u{9AF}\u{9BC}া, caf\u{E9}."))
        #expect(!article.text.unicodeScalars.contains("\u{9DF}"))
        #expect(UnicodeComposition.mayChangeInNFC(Array("e\u{301}".utf8)))
        #expect(!UnicodeComposition.mayChangeInNFC(Array("Café, “quoted” – Zürich, Łódź".utf8)))
    }

    @Test func rubyReadingsAreInTheHTMLButNotTheText() throws {
        let reading = "<ruby>子<rp>(</rp><rt>こ</rt><rp>)</rp></ruby>どもへの<ruby>虐待<rt>ぎゃくたい</rt></ruby>をなくすための<ruby>法律<rt>ほうりつ</rt></ruby>ができました。"
        let paragraphs = ArticleExtractorTests.paragraphs.map { "<p>\($0) \(reading)</p>" }
        let article = try Self.extract(paragraphs.joined())
        #expect(article.text.contains("子どもへの虐待をなくすための法律ができました。"))
        #expect(!article.text.contains("ぎゃくたい"))
        #expect(article.html.contains("<ruby>子<rp>(</rp><rt>こ</rt><rp>)</rp></ruby>"))
    }

    @Test func aCharsetDeclaredAfterTheFirstKilobyteIsUsed() throws {
        // As on a real page: a long title and keywords push the <meta> past byte 1,024.
        let keywords = String(repeating: "河北新闻，", count: 120)
        let paragraphs = ArticleExtractorTests.paragraphs.map { "<p>\($0) 一个约定，信守15年，感人至深。</p>" }.joined()
        let text = """
            <html><head><title>一个约定</title><meta name="keywords" content="\(keywords)">
            <meta http-equiv="Content-Type" content="text/html; charset=gb2312"></head>
            <body><article>\(paragraphs)</article></body></html>
            """
        let encoding = try #require(CharsetNames.encoding(for: "gb2312"))
        let bytes = try #require(text.data(using: encoding).map(Array.init))
        let meta = try #require(bytes.firstRange(of: Array("charset=gb2312".utf8)))
        #expect(meta.lowerBound > 1024)
        #expect(HTMLSniffer.declaredCharset(bytes) == "gb2312")
        let article = try ArticleExtractor.extract(bytes)
        #expect(article.text.contains("一个约定，信守15年，感人至深。"))
    }

    @Test func theFirstKilobyteStillWinsOverALaterDeclaration() {
        let page = "<html><head><meta charset=\"utf-8\"><title>t</title></head><body>"
            + String(repeating: "<p>words and more words</p>", count: 60) + "<meta charset=\"iso-8859-1\"></body></html>"
        #expect(HTMLSniffer.declaredCharset(Array(page.utf8)) == "utf-8")
        let undeclared = "<html><head><title>t</title></head><body>" + String(repeating: "<p>words</p>", count: 200) + "</body></html>"
        #expect(HTMLSniffer.declaredCharset(Array(undeclared.utf8)) == nil)
    }
}
