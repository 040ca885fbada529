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
        // U+2028 and U+2029 are valid inside JSON strings, but tools that split lines on them
        // (Python's splitlines, some JSON-lines readers) would cut a line in two: escape them.
        // They can only occur inside strings here, where the escape means the same character.
        return String(decoding: data, as: UTF8.self)
            .replacingOccurrences(of: "\u{2028}", with: #"\u2028"#)
            .replacingOccurrences(of: "\u{2029}", with: #"\u2029"#)
    }
}
