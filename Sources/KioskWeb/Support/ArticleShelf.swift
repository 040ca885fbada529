import KioskCore

/// The Discover articles pages have listed recently, by key, so an article's detail page can be
/// opened (and deep-linked within a session) without asking the API again. Bounded: the oldest
/// are forgotten first.
actor ArticleShelf {
    private var articles: [String: Article] = [:]
    private var order: [String] = []
    private let limit: Int

    init(limit: Int = 2000) {
        self.limit = limit
    }

    /// Keeps `list` and returns each article with its key.
    func keep(_ list: [Article]) -> [(key: String, article: Article)] {
        list.map { article in
            let key = StableHash.hex(article.url ?? article.title ?? "")
            if articles.updateValue(article, forKey: key) != nil { order.removeAll { $0 == key } }
            order.append(key)
            if order.count > limit {
                let dropped = order.removeFirst()
                articles[dropped] = nil
            }
            return (key, article)
        }
    }

    func article(_ key: String) -> Article? {
        guard let article = articles[key] else { return nil }
        order.removeAll { $0 == key }
        order.append(key)
        return article
    }
}
