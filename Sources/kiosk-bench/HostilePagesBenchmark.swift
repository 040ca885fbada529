import ArgumentParser
import Foundation
import KioskCore
import KioskHTML

/// `kiosk-bench hostile-pages`: times the article extractor on each hostile page of the reader
/// view's issue in release mode and prints its outcome (an article or a typed error), time and
/// peak memory. (A page that redirects into a private address never reaches the extractor: the
/// guarded fetcher refuses it, `ConnectGuardTests`.)
struct HostilePagesBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hostile-pages",
        abstract: "Time the article extractor on hostile pages (deep nesting, 10 MB of text, broken encodings, huge attributes)."
    )

    func run() throws {
        let limit = ArticleLimits().maxBytes
        let paragraph = "<p>The river rose three metres overnight, and by morning the lower town was under water, its streets turned to canals.</p>"
        let article = String(repeating: paragraph, count: 8)
        func page(_ body: String) -> [UInt8] { Array("<html><head><title>Hostile</title></head><body>\(body)</body></html>".utf8) }
        var broken: [UInt8] = []
        while broken.count < 1_000_000 {
            broken += Array(paragraph.utf8) + [0xC3, 0x28, 0xFF, 0xFE, 0x00, 0xE9, 0xF0, 0x9F, 0x98]
        }
        var large = ""
        var index = 0
        while large.utf8.count < limit - 8_192 {
            index += 1
            large += "<section><h2>Part \(index)</h2>\(paragraph)<div>line<br><br>line<table><tr><td>a</td></tr></table></div></section>"
        }
        let cases: [(String, [UInt8])] = [
            ("script-only page", page("<script>" + String(repeating: "var a = 1;", count: 10_000) + "</script>")),
            ("100,000 nested elements", page(String(repeating: "<div>", count: 100_000) + article + String(repeating: "</div>", count: 100_000))),
            ("200,000 line breaks", page(String(repeating: "<br>", count: 200_000))),
            ("50,000 stray end tags", page(String(repeating: "</div></p></table>", count: 50_000))),
            ("1 MB of broken and mixed encodings", Array("<html><head><meta charset=\"utf-8\"></head><body>".utf8) + broken),
            ("4 MB attribute values", page(#"<img src="data:image/png;base64,\#(String(repeating: "x", count: 4_000_000))">"# + article)),
            ("10 MB of one text run", [UInt8](repeating: UInt8(ascii: "a"), count: limit)),
            ("10 MB page of many parts", page(large)),
        ]
        let table = TextTable(columns: [
            .init("case", width: 36, leftAligned: true), .init("bytes", width: 10), .init("ms", width: 8),
            .init("outcome", width: 44, leftAligned: true), .init("peak RSS MB", width: 11),
        ])
        print(table.header)
        for (name, bytes) in cases {
            let (duration, result) = Measure.once {
                Result { () throws(ArticleError) -> ReaderArticle in try ArticleExtractor.extract(bytes) }
            }
            let outcome: String
            switch result {
            case .success(let found): outcome = "article: \(found.wordCount) words"
            case .failure(let error): outcome = "error: \(error.description)"
            }
            print(table.line([
                name, "\(bytes.count)", String(format: "%.1f", Measure.milliseconds(duration)), outcome,
                Measure.peakResidentBytes().map { String(format: "%.0f", Measure.megabytes($0)) } ?? "n/a",
            ]))
        }
    }
}
