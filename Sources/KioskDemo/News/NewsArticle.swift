import KioskCore

/// One article in NewsAPI's shape.
struct NewsArticle: Decodable, Sendable, Equatable {
    struct Source: Decodable, Sendable, Equatable {
        var id: String?
        var name: String
    }

    var source: Source
    var author: String?
    var title: String
    var description: String?
    var url: String
    var urlToImage: String?
    var publishedAt: String
    var content: String?

    /// The article as NewsAPI writes it: keys in its order, missing values as `null`.
    var json: String {
        JSONText.object([
            "source": JSONText.object(["id": JSONText.string(source.id), "name": JSONText.string(source.name)]),
            "author": JSONText.string(author),
            "title": JSONText.string(title),
            "description": JSONText.string(description),
            "url": JSONText.string(url),
            "urlToImage": JSONText.string(urlToImage),
            "publishedAt": JSONText.string(publishedAt),
            "content": JSONText.string(content),
        ])
    }

    /// Whether every word of `query` appears in the title or description, ignoring case.
    func matches(words: [String]) -> Bool {
        let haystack = (title + "\n" + (description ?? "")).lowercased()
        return words.allSatisfy { haystack.contains($0) }
    }
}
