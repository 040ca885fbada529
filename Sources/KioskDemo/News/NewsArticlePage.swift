import KioskCore

/// A NewsAPI success body: `{"status":"ok","totalResults":N,"articles":[...]}`.
struct NewsArticlePage: Sendable {
    var totalResults: Int
    var articles: [NewsArticle]

    var json: String {
        JSONText.object([
            "status": JSONText.string("ok"),
            "totalResults": String(totalResults),
            "articles": "[" + articles.map(\.json).joined(separator: ",") + "]",
        ])
    }
}
