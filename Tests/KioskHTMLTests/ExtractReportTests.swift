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

    @Test func onlyTheTwoSeparatorsAreEscapedAndTheirNeighboursKeptWhole() throws {
        // Characters sharing the separators' first bytes (E2 80): †, …, ‘, and € (E2 82), the
        // separators back to back and at the very end.
        let text = "a†b…c‘d€e\u{2028}\u{2029}\u{2028}f\u{E2}\u{2029}"
        var report = ExtractReport(error: "x")
        report.text = text
        let line = report.jsonLine()
        #expect(!line.unicodeScalars.contains { $0 == "\u{2028}" || $0 == "\u{2029}" })
        #expect(line.contains(#"e\u2028\u2029\u2028f"#))
        let decoded = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        #expect(decoded?["text"] as? String == text)
        // A lead byte or two at the very end are written out, not lost.
        #expect(ExtractReport.escapingLineSeparators([0x41, 0xE2]) == [0x41, 0xE2])
        #expect(ExtractReport.escapingLineSeparators([0x41, 0xE2, 0x80]) == [0x41, 0xE2, 0x80])
        #expect(ExtractReport.escapingLineSeparators([0xE2, 0xE2, 0x80, 0xA8]) == [0xE2] + Array(#"\u2028"#.utf8))
    }
}
