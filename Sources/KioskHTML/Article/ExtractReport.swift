import Foundation
import KioskCore

/// One page's line of `kiosk extract --json`.
public struct ExtractReport: Encodable, Sendable {
    public var text = ""
    public var html = ""
    public var title: String?
    public var byline: String?
    public var published: String?
    public var siteName: String?
    public var image: String?
    public var excerpt: String?
    public var wordCount = 0
    public var error: String?

    /// A page that could not be read at all.
    public init(error: String) {
        self.error = error
    }

    public init(_ result: Result<ReaderArticle, ArticleError>) {
        switch result {
        case .success(let article):
            text = article.text
            html = article.html
            title = article.title
            byline = article.byline
            published = article.published.map { ISO8601DateFormatter().string(from: $0) }
            siteName = article.siteName
            image = article.image
            excerpt = article.excerpt
            wordCount = article.wordCount
        case .failure(let failure):
            error = failure.description
        }
    }

    public func jsonLine() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return #"{"error":"cannot encode","text":""}"# }
        // Read through a buffer: `Data`'s iterator, a call per byte, cost three times the scan (perf).
        return data.withUnsafeBytes { String(decoding: Self.escapingLineSeparators($0), as: UTF8.self) }
    }

    /// U+2028 and U+2029 are valid inside JSON strings, but tools that split lines on them
    /// (Python's splitlines, some JSON-lines readers) would cut a line in two: escaped. They can
    /// only occur inside strings here, where the escape means the same character. Found as their
    /// UTF-8 bytes (E2 80 A8, E2 80 A9) in one pass; Foundation's `replacingOccurrences`, which
    /// compares characters, was a fifth of `kiosk extract --list`'s time.
    static func escapingLineSeparators<Bytes: Collection<UInt8>>(_ json: Bytes) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(json.count)
        var pending = 0  // how many of E2 80 are held back
        for byte in json {
            switch (pending, byte) {
            case (0, 0xE2): pending = 1
            case (1, 0x80): pending = 2
            case (2, 0xA8), (2, 0xA9):
                out.append(contentsOf: byte == 0xA8 ? escaped2028 : escaped2029)
                pending = 0
            default:
                if pending >= 1 { out.append(0xE2) }
                if pending == 2 { out.append(0x80) }
                if byte == 0xE2 {
                    pending = 1
                } else {
                    out.append(byte)
                    pending = 0
                }
            }
        }
        if pending >= 1 { out.append(0xE2) }
        if pending == 2 { out.append(0x80) }
        return out
    }

    private static let escaped2028 = Array(#"\u2028"#.utf8)
    private static let escaped2029 = Array(#"\u2029"#.utf8)
}
