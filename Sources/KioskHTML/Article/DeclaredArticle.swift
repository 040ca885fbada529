import Foundation
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
        // Every node in order, without listing them first (this runs on every page).
        for index in document.nodes.indices where index != ArticleDocument.root {
            let node = document.nodes[index]
            let tag = node.tag
            if tag == .text || node.removed { continue }
            if !node.attributes.isEmpty, let itemprop = node.value(of: "itemprop"),
                itemprop.lowercased().split(separator: " ").contains("articlebody")
            {
                bodies.append(index)
            } else if tag == .article, !document.hasAncestor(index, tagged: .article) {
                articles.append(index)
            } else if tag == .main {
                mains.append(index)
            }
        }
        // A candidate tucked away (in an aside, a menu, a footer, a template, a hidden block) is
        // the page's teaser or comment, not its article. A teaser is never marked as an article's
        // body, so an `articleBody` in an aside is the page's article in a theme that wraps the
        // content column in one (`<main><aside><section><article>…`).
        bodies.removeAll(where: { isTuckedAway($0, in: document, asideAllowed: true) })
        articles.removeAll(where: { isTuckedAway($0, in: document) })
        mains.removeAll(where: { isTuckedAway($0, in: document) })
        if bodies.count == 1, let body = bodies.first, document.textLength(of: body) >= minimumText { return body }
        if let article = dominant(articles, in: document) { return article }
        if mains.count == 1, let main = mains.first, document.textLength(of: main) >= minimumText { return main }
        return nil
    }

    /// Whether `index` or an ancestor is an aside, a menu, a footer, something never shown as
    /// text, or hidden (`Node.isHidden`, the grabber's answer too).
    static func isTuckedAway(_ index: Int, in document: ArticleDocument, asideAllowed: Bool = false) -> Bool {
        var current = index
        while current > ArticleDocument.root {
            let node = document.nodes[current]
            if tuckedAway.contains(node.tag), !(asideAllowed && node.tag == .aside) { return true }
            if ArticleDocument.noText.contains(node.tag) { return true }
            if node.isHidden { return true }
            current = node.parent
        }
        return false
    }

    static let tuckedAway = ArticleTagSet([.aside, .nav, .footer, .template, .dialog])

    /// How much of the grabber's answer (`nodes`, `length` characters, in the tree it was
    /// found in) lies inside the declared article: all of it when the answer sits under the
    /// article, the article's share when the answer holds the article, none otherwise. Read from
    /// the tree (the answer's wrapper stays where its first part was), not by comparing words.
    static func shareInside(_ declared: Int, of nodes: [Int], in document: ArticleDocument, length: Int) -> Double {
        guard length > 0, document.isAttached(declared) else { return 0 }
        let aboveArticle = Set(document.ancestors(of: declared))
        var inside = 0
        for node in nodes {
            if node == declared || document.ancestors(of: node).contains(declared) {
                inside += document.textLength(of: node)
            } else if aboveArticle.contains(node) {
                inside += document.textLength(of: declared)
            }
        }
        return min(1, Double(inside) / Double(length))
    }

    /// The one element, or the one holding two thirds of their text (a post beside teaser cards).
    private static func dominant(_ elements: [Int], in document: ArticleDocument) -> Int? {
        let lengths = elements.map { (index: $0, length: document.textLength(of: $0)) }
        guard let largest = lengths.max(by: { $0.length < $1.length }), largest.length >= minimumText else { return nil }
        let total = lengths.reduce(0) { $0 + $1.length }
        return largest.length * 3 >= total * 2 ? largest.index : nil
    }
}
