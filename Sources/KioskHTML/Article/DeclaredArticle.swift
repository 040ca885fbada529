import KioskCore

/// The article a page marks as such itself: the element with `itemprop="articleBody"`, else its
/// `<article>` (the one, or the one holding most of their text), else its one `<main>`.
///
/// A second opinion beside the grabber's scoring, which can fall for a block that looks like an
/// article more than the article does (a letter's list of signatories, a sign-up form, an author
/// box): when the grabber's answer lies mostly outside the page's own article, the article is
/// looked for again inside it (`ArticleExtractor`).
enum DeclaredArticle {
    /// Less text than this is not an article to prefer (a teaser card marked `<article>`).
    static let minimumText = 200

    /// The declared element, if the page has one with enough text.
    static func find(in document: ArticleDocument) -> Int? {
        var bodies: [Int] = []
        var articles: [Int] = []
        var mains: [Int] = []
        for (index, tag) in document.elements(under: ArticleDocument.root) {
            if let itemprop = document.nodes[index].value(of: "itemprop"),
                itemprop.lowercased().split(separator: " ").contains("articlebody")
            {
                bodies.append(index)
            } else if tag == .article, !document.hasAncestor(index, tagged: .article) {
                articles.append(index)
            } else if tag == .main {
                mains.append(index)
            }
        }
        if bodies.count == 1, let body = bodies.first, document.textLength(of: body) >= minimumText { return body }
        if let article = dominant(articles, in: document) { return article }
        if mains.count == 1, let main = mains.first, document.textLength(of: main) >= minimumText { return main }
        return nil
    }

    /// The one element, or the one holding two thirds of their text (a post beside teaser cards).
    private static func dominant(_ elements: [Int], in document: ArticleDocument) -> Int? {
        let lengths = elements.map { (index: $0, length: document.textLength(of: $0)) }
        guard let largest = lengths.max(by: { $0.length < $1.length }), largest.length >= minimumText else { return nil }
        let total = lengths.reduce(0) { $0 + $1.length }
        return largest.length * 3 >= total * 2 ? largest.index : nil
    }
}
