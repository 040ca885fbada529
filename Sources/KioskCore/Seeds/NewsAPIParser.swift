import Foundation

/// Reads NewsAPI v2 responses: `{"status": "ok", "totalResults", "articles"}` or its error body.
public enum NewsAPIParser {
    /// The title NewsAPI gives articles it withdrew; they carry no content.
    static let removedMarker = "[Removed]"

    /// Parses a NewsAPI response.
    /// - Throws: ``SeedError/newsAPI(_:)`` carrying NewsAPI's own code and message when `status`
    ///   is `"error"`; ``SeedError/notJSON(_:)`` or ``SeedError/unexpectedShape(_:)`` otherwise.
    public static func parse(_ data: Data) throws(SeedError) -> ArticlePage {
        let root = try SeedJSON.parse(data)
        guard root.object != nil else {
            throw .unexpectedShape("expected a NewsAPI response, an object with \"articles\"")
        }
        if root["status"]?.text == "error" {
            let code = root["code"]?.text
            // The message goes to the user unchanged; only a body without one gets words of ours.
            let message = root["message"]?.nonBlankString ?? "NewsAPI reported an error (\(code ?? "no code given"))"
            throw .newsAPI(NewsAPIError(code: code, message: message))
        }
        guard let rows = root["articles"]?.array else {
            throw .unexpectedShape("expected a NewsAPI response with an \"articles\" list")
        }
        let articles = rows.compactMap(article).filter { $0.title != removedMarker }
        return ArticlePage(totalResults: root["totalResults"]?.int ?? articles.count, articles: articles)
    }

    static func article(_ row: SeedJSON) -> Article? {
        guard row.object != nil else { return nil }
        return Article(
            sourceID: row["source"]?["id"]?.text,
            sourceName: row["source"]?["name"]?.text,
            author: row["author"]?.text,
            title: row["title"]?.text,
            description: row["description"]?.text,
            url: row["url"]?.text,
            urlToImage: row["urlToImage"]?.text,
            publishedAt: row["publishedAt"]?.text.flatMap(DateParser.parse),
            content: row["content"]?.nonBlankString
        )
    }
}
