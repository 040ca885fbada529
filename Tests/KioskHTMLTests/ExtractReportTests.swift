import Foundation
@testable import KioskHTML
import Testing

@testable import KioskCore

/// `kiosk extract --json`'s line: one page per line, whatever the page holds.
@Suite struct ExtractReportTests {
    @Test func lineAndParagraphSeparatorsAreEscapedSoTheLineStaysOne() throws {
        let paragraphs = ArticleExtractorTests.paragraphs.map { "<p>\($0)\u{2028}and on\u{2029}again.</p>" }.joined()
        let article = try ArticleExtractor.extract(
            ArticleExtractorTests.page(article: paragraphs), url: "https://courier.example/2024/floods")
        #expect(article.html.contains("\u{2028}"))
        let line = ExtractReport(.success(article)).jsonLine()
        // What Python's splitlines() and JSON-lines readers cut on.
        #expect(!line.unicodeScalars.contains { $0 == "\u{2028}" || $0 == "\u{2029}" || $0 == "\n" || $0 == "\r" })
        #expect(line.contains(#"\u2028"#))
        let decoded = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        let html = try #require(decoded?["html"] as? String)
        #expect(html == article.html)
    }
}
