/// One of NewsAPI's seven top-headline categories, with what makes its articles its own: a title
/// label (the captured articles are German) and the words that rank an article first in it.
struct NewsCategory: Sendable {
    static let all: [NewsCategory] = [
        NewsCategory(name: "business", label: "Wirtschaft", keywords: ["wirecard", "geschäft", "ebay", "xiaomi", "playstation"]),
        NewsCategory(name: "entertainment", label: "Unterhaltung", keywords: ["bachelorette", "let's dance", "prinz", "queen"]),
        NewsCategory(name: "general", label: nil, keywords: []),
        NewsCategory(name: "health", label: "Gesundheit", keywords: ["corona", "covid", "impf", "infektion", "virus"]),
        NewsCategory(name: "science", label: "Wissenschaft", keywords: ["universität", "forsch", "ultraschall", "protein", "sensor"]),
        NewsCategory(name: "sports", label: "Sport", keywords: ["bayern", "champions", "bvb", "leipzig"]),
        NewsCategory(name: "technology", label: "Technik", keywords: ["app", "instagram", "android", "server", "xiaomi"]),
    ]

    let name: String
    /// Prefix of every title in the category; nil for `general`, which keeps the captured titles.
    let label: String?
    let keywords: [String]
}
