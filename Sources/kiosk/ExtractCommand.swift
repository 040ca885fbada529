import ArgumentParser
import Foundation
import KioskCore
import KioskHTML

/// `kiosk extract [--json] [--url URL] FILE...` and `kiosk extract --json --list LIST`: the reader
/// view of saved web pages, in one process.
struct ExtractCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extract",
        abstract: "Extract the main article of saved web pages (the reader view).",
        discussion: """
            Without --json, prints each article's text. With --json, prints one JSON object per page, \
            one per line, in input order: text, html, title, byline, published, siteName, image, excerpt, \
            wordCount, and error (a sentence) when no article was found. With --list, FILE is a list of \
            URL<TAB>PATH lines (the shape ../shared/tools/extractcompare.py writes).
            """
    )

    @Flag(name: .long, help: "Print one JSON object per page.")
    var json = false

    @Option(name: .long, help: "The pages' URL, for relative links and images (not with --list).")
    var url: String?

    @Flag(name: .long, help: "Read each FILE as a list of URL<TAB>PATH lines.")
    var list = false

    @Argument(help: "Saved pages (or, with --list, lists of them).")
    var files: [String]

    func run() throws {
        var pages: [(url: String?, path: String)] = []
        for file in files {
            if list {
                let text = try String(contentsOfFile: file, encoding: .utf8)
                for line in text.split(whereSeparator: \.isNewline) {
                    let fields = line.split(separator: "\t", maxSplits: 1)
                    guard fields.count == 2 else { continue }
                    pages.append((String(fields[0]), String(fields[1])))
                }
            } else {
                pages.append((url, file))
            }
        }
        var failures = 0
        for page in pages {
            let bytes: [UInt8]
            do {
                bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: page.path)))
            } catch {
                failures += 1
                let report = ExtractReport(error: "cannot read the file: \(error.localizedDescription)")
                print(json ? report.jsonLine() : "kiosk: \(page.path): \(report.error ?? "")")
                continue
            }
            let result = Result { () throws(ArticleError) -> ReaderArticle in try ArticleExtractor.extract(bytes, url: page.url) }
            if case .failure = result { failures += 1 }
            if json {
                print(ExtractReport(result).jsonLine())
            } else {
                switch result {
                case .success(let article): print(article.text + "\n")
                case .failure(let error): print("kiosk: \(page.path): \(error)")
                }
            }
        }
        if failures > 0, !json { throw ExitCode(1) }
    }
}
