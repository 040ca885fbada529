import Foundation
import KioskCore

/// Every article the demo NewsAPI knows: for each category, ``articlesPerCategory`` articles built
/// deterministically from the 20 captured ones, with the category's own titles and order.
struct NewsCatalogue: Sendable {
    static let articlesPerCategory = 35
    /// Newest `publishedAt` of the catalogue: just after the capture's newest article.
    private static let anchor = Date(timeIntervalSince1970: 1_616_184_000)  // 2021-03-19T20:00:00Z

    /// Articles per category name, newest first.
    let byCategory: [String: [NewsArticle]]
    /// Every article of every category, newest first.
    let all: [NewsArticle]

    /// The catalogue built from the captured top headlines; image URLs point at `base`.
    init(captured: [NewsArticle], base: String) {
        var byCategory: [String: [NewsArticle]] = [:]
        for (categoryIndex, category) in NewsCategory.all.enumerated() {
            let ranked = Self.rank(captured, for: category, rotation: categoryIndex * 3)
            byCategory[category.name] = (0..<Self.articlesPerCategory).compactMap { index in
                guard !ranked.isEmpty else { return nil }
                var article = ranked[index % ranked.count]
                let round = index / ranked.count
                let title = category.label.map { "\($0): \(article.title)" } ?? article.title
                article.title = round == 0 ? title : "\(title) (Update \(round))"
                let minutes = index * 23 + categoryIndex * 5
                article.publishedAt = InternetDate.rfc3339(Self.anchor.addingTimeInterval(-Double(minutes) * 60))
                let tag = "kiosk-\(category.name)-\(index + 1)"
                article.url += article.url.contains("#") ? "-\(tag)" : "#\(tag)"
                if article.urlToImage != nil {
                    article.urlToImage = "\(base)/images/news/\(categoryIndex * 100 + index)/600x400bb.png"
                }
                return article
            }
        }
        self.byCategory = byCategory
        all = NewsCategory.all.flatMap { byCategory[$0.name] ?? [] }.sorted { $0.publishedAt > $1.publishedAt }
    }

    /// The captured articles of `newsapi_top_headlines.json`.
    static func captured(from bytes: [UInt8]) throws(DemoError) -> [NewsArticle] {
        struct Capture: Decodable { var articles: [NewsArticle] }
        guard let capture = try? JSONDecoder().decode(Capture.self, from: Data(bytes)), !capture.articles.isEmpty else {
            throw .malformedResource("newsapi_top_headlines.json")
        }
        return capture.articles
    }

    /// Articles matching the category's keywords first, the rest after; each group in captured
    /// order rotated by `rotation`, so categories also differ where no keyword matches.
    private static func rank(_ articles: [NewsArticle], for category: NewsCategory, rotation: Int) -> [NewsArticle] {
        let count = articles.count
        guard count > 0 else { return [] }
        let rotated = (0..<count).map { articles[($0 + rotation) % count] }
        let matching = rotated.filter { article in category.keywords.contains { article.matches(words: [$0]) } }
        let others = rotated.filter { article in !category.keywords.contains { article.matches(words: [$0]) } }
        return matching + others
    }
}
