import Foundation
import KioskCore
import Testing

/// What the sanitizer lets through, it lets through again: sanitizing its own output changes
/// nothing (the fuzzer's property, `Fuzz/HTMLFuzz.swift`, kept here on the inputs it found).
@Suite struct SanitizerIdempotenceTests {
    static let inputs: [String] = [
        #"<img src="http://www.ragingplatypus.com/i/cam-full.jpg" onload="location.href='http://www.ragingplatypus.com/';" /></body>"#,
        "<!--\nDescription: item xhtml:body contains onload\n-->\n<rss version=\"2.0\">\n<channel>\n<item>\n<body><img src=\"http://www.ragingplatypus.com/i/cam-full.jpg\" onload=\"location.href='http://www.ragingplatypus.com/';\" /></body>\n</item>\n</channel>\n</rss>",
    ]

    @Test(arguments: inputs)
    func sanitizingTwiceIsSanitizingOnce(_ html: String) {
        let sanitizer = HTMLSanitizer(baseURL: "https://example.com/a/")
        let once = sanitizer.sanitize(html)
        #expect(sanitizer.sanitize(once) == once)
    }
}
