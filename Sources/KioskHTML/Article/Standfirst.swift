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

    /// Candidates looked at closely, at most (each costs a walk up to the root: a page of a
    /// hundred thousand "lead" paragraphs deep in styled boxes must not cost that many walks).
    static let mostCandidates = 16
    /// How deep under an ancestor it shares with the article a standfirst may sit.
    static let depthUnderMeeting = 6

    /// The page's standfirsts in order, at most a few, read before the grabber edits the tree.
    static func find(in document: ArticleDocument) -> [Found] {
        var found: [Found] = []
        var looked = 0
        for index in document.nodes.indices where index != ArticleDocument.root {
            let node = document.nodes[index]
            guard !node.attributes.isEmpty, tags.contains(node.tag), !node.removed,
                names.matches(node.value(of: "class") ?? "", node.value(of: "id") ?? "")
            else { continue }
            // A few nodes (the walk is bounded: a page of nested "lead" boxes costs each little).
            guard document.isSmall(index, characters: longest, nodes: 64) else { continue }
            let length = document.textLength(of: index)
            guard length >= shortest else { continue }
            looked += 1
            if looked > mostCandidates { break }
            // In the tree (a site rule may have dropped a box around it), not tucked away,
            // and not inside a link (a teaser of another story).
            guard document.isAttached(index), !DeclaredArticle.isTuckedAway(index, in: document),
                !document.hasAncestor(index, tagged: .a)
            else { continue }
            // Its own words, not a link to another article.
            if let link = document.first(.a, under: index), document.textLength(of: link) * 2 > length { continue }
            // A paragraph, not a block of several (a header with its headline, an image and
            // its caption).
            guard isOneParagraph(index, in: document) else { continue }
            // As the article's text is made (NFC, no ruby readings or credits).
            let text = ArticleSerializer.plainText(of: [index], in: document)
            if !text.isEmpty { found.append(Found(index: index, text: text)) }
        }
        return found
    }

    /// The last of `candidates` that stands just before the article (`nodes`, under the wrapper
    /// the grabber made where the article was), if any.
    static func chosen(_ candidates: [Found], article nodes: [Int], in document: ArticleDocument, text: String) -> Found? {
        candidates.last { precedes($0, article: nodes, in: document, text: text) }
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

    /// Whether `found` stands just before the article: outside it (or inside it in a header
    /// the cleaning took out), before its first words in the page, meeting it within `reach`
    /// levels above its place and at most `depthUnderMeeting` levels under that meeting point,
    /// and not already its opening words.
    static func precedes(_ found: Found, article nodes: [Int], in document: ArticleDocument, text: String) -> Bool {
        guard let wrapper = nodes.first, let first = document.firstTextNode(under: wrapper, limit: .max), found.index < first
        else { return false }
        let above = [wrapper] + document.ancestors(of: wrapper)
        var current = found.index
        var taken = false
        var depth = 0
        while current > ArticleDocument.root {
            if let level = above.firstIndex(of: current) {
                // Met inside the article: only a part the cleaning took out is not its text yet.
                if level == 0, !taken { return false }
                guard level <= reach, depth <= depthUnderMeeting else { return false }
                return !opens(text, with: found.text)
            }
            taken = taken || document.nodes[current].removed
            depth += 1
            current = document.nodes[current].parent
        }
        return false
    }

    /// Whether the article's opening (its first two thousand bytes, white space collapsed)
    /// already holds `standfirst` (a page that repeats its standfirst as the first paragraph).
    private static func opens(_ text: String, with standfirst: String) -> Bool {
        var opening: [UInt8] = []
        Array(text.utf8.prefix(2_000)).withUnsafeBufferPointer { ArticleDocument.appendCollapsed($0, to: &opening) }
        var wanted: [UInt8] = []
        Array(standfirst.utf8).withUnsafeBufferPointer { ArticleDocument.appendCollapsed($0, to: &wanted) }
        return containsBytes(opening, wanted)
    }
}
