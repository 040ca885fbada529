import Foundation
import KioskCore
@testable import KioskHTML
import Testing

/// What the sanitizer lets through, it lets through again: sanitizing its own output changes
/// nothing (the fuzzer's property, `Fuzz/HTMLFuzz.swift`, kept here on the inputs it found).
@Suite struct SanitizerIdempotenceTests {
    static let inputs: [String] = [
        #"<img src="http://www.ragingplatypus.com/i/cam-full.jpg" onload="location.href='http://www.ragingplatypus.com/';" /></body>"#,
        "<!--\nDescription: item xhtml:body contains onload\n-->\n<rss version=\"2.0\">\n<channel>\n<item>\n<body><img src=\"http://www.ragingplatypus.com/i/cam-full.jpg\" onload=\"location.href='http://www.ragingplatypus.com/';\" /></body>\n</item>\n</channel>\n</rss>",
        // A heading opened inside a link without a target (shown as its content only) must close
        // the open heading, as a browser reading the output would.
        "<h1>Did the script run?<a><h1>Inner</h1></a></h1>",
        "<h2>one<a name=x>two<h3>three</h3></a>",
    ]

    @Test(arguments: inputs)
    func sanitizingTwiceIsSanitizingOnce(_ html: String) {
        let sanitizer = HTMLSanitizer(baseURL: "https://example.com/a/")
        let once = sanitizer.sanitize(html)
        #expect(sanitizer.sanitize(once) == once)
    }
}
