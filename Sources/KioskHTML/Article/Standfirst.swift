import Foundation
import KioskCore

/// The paragraph under a headline that sums the article up (the standfirst, lede or dek), which
/// pages set in the article's header, apart from its body: the grabber finds the body, and this
/// puts the standfirst back above it. Known by the names pages give it (`lead`, `standfirst`,
/// `subtitle`, `bajada`, `chapo`...), and only when it sits just before the article found.
enum Standfirst {
    /// Class and id words (between punctuation: `entry__subtitle`, `p-lead`, not `leaderboard`).
    static let names = Keywords(
        fragments: [],
        wordsBetweenPunctuation: [
            "lead", "lede", "leader", "standfirst", "subtitle", "subheadline", "dek", "bajada", "chapo", "chapeau",
            "sapo", "entradilla", "vorspann", "sottotitolo",
        ])
    static let tags = ArticleTagSet([.p, .div, .h2])

    /// Shorter than this is a label, longer a body (characters, white space counted once).
    static let shortest = 40
    static let longest = 600
    /// How far above the article's place the standfirst and the article may meet.
    static let reach = 3

    struct Found {
        let index: Int
        let text: String
    }

    /// The page's first standfirst, read before the grabber edits the tree.
    static func find(in document: ArticleDocument) -> Found? {
        for index in document.nodes.indices where index != ArticleDocument.root {
            let node = document.nodes[index]
            guard !node.attributes.isEmpty, tags.contains(node.tag), !node.removed,
                names.matches(node.value(of: "class") ?? "", node.value(of: "id") ?? "")
            else { continue }
            // A few nodes (the walk is bounded: a page of nested "lead" boxes costs each little).
            guard document.isSmall(index, characters: longest, nodes: 64) else { continue }
            let length = document.textLength(of: index)
            guard length >= shortest, !DeclaredArticle.isTuckedAway(index, in: document) else { continue }
            // Its own words, not a link to another article.
            if let link = document.first(.a, under: index), document.textLength(of: link) * 2 > length { continue }
            // A paragraph, not a block of several (a header with its headline, an image and
            // its caption).
            guard isOneParagraph(index, in: document) else { continue }
            return Found(index: index, text: document.normalizedText(of: index))
        }
        return nil
    }

    /// Nothing under `index` but phrasing, and at most one paragraph.
    private static func isOneParagraph(_ index: Int, in document: ArticleDocument) -> Bool {
        var paragraphs = 0
        for element in document.elements(under: index) {
            if element.tag == .p {
                paragraphs += 1
                if paragraphs > 1 { return false }
            } else if notInParagraph.contains(element.tag) {
                return false
            }
        }
        return true
    }

    static let notInParagraph = ArticleTagSet([
        .div, .section, .article, .header, .ul, .ol, .li, .dl, .table, .figure, .figcaption, .img, .picture, .video,
        .iframe, .h1, .h2, .h3, .h4, .h5, .h6, .blockquote, .form, .nav, .aside,
    ])

    /// Whether `found` stands just before the article (`nodes`, under the wrapper the grabber
    /// made where the article was) and is not in its text: before its first words in the page,
    /// and meeting it within `reach` levels above its place (or inside it, in a header the
    /// cleaning took out).
    static func precedes(_ found: Found, article nodes: [Int], in document: ArticleDocument, text: String) -> Bool {
        guard let wrapper = nodes.first, let first = firstText(under: wrapper, in: document), found.index < first,
            !collapsed(text).contains(collapsed(found.text))
        else { return false }
        let above = [wrapper] + document.ancestors(of: wrapper)
        var current = document.nodes[found.index].parent
        while current > ArticleDocument.root {
            if let level = above.firstIndex(of: current) { return level <= reach }
            current = document.nodes[current].parent
        }
        return false
    }

    /// `text` with every run of white space one space (the article's text has its paragraphs
    /// apart, where the standfirst, a paragraph of the page, may be two).
    private static func collapsed(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The first text node with words still in the tree under `index` (nodes are numbered in
    /// the page's order; the wrappers the grabber adds hold no text of their own).
    private static func firstText(under index: Int, in document: ArticleDocument) -> Int? {
        var pending = [index]
        while let next = pending.popLast() {
            let node = document.nodes[next]
            if node.removed || ArticleDocument.noText.contains(node.tag) { continue }
            if node.isText {
                if node.text.utf8.contains(where: { !ASCIIWhitespace.contains($0) }) { return next }
                continue
            }
            pending.append(contentsOf: node.children.reversed())
        }
        return nil
    }
}
