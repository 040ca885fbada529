import Foundation
import KioskCore

/// Finds the article in a page's tree, after Mozilla Readability's `grabArticle`: unlikely parts
/// (menus, comments, sidebars) removed, paragraphs scored by their text (length and commas) and
/// their score given to their ancestors, the best ancestor (scaled by how little of it is links)
/// taken with the siblings that belong to it, then cut down (forms, link lists, share bars,
/// empty paragraphs).
struct ArticleGrabber {
    /// The three heuristics Readability drops, one after another, when a page gives too little.
    struct Flags: Sendable {
        var stripUnlikelys = true
        var weightClasses = true
        var cleanConditionally = true
    }

    /// Text an article must reach before the heuristics are relaxed.
    static let characterThreshold = 500

    private var document: ArticleDocument
    private let flags: Flags
    /// The article's title, whose repetition as the first heading is dropped.
    private let title: String?
    /// `title`'s words, split once for every heading compared with it.
    private let titleWords: TextSimilarity?
    private var scores: [Int: Double] = [:]
    /// Per-element text and element counts, kept true as elements are removed.
    private var stats: ArticleStats
    /// A byline found in the page (an element marked as the author's), if any.
    private(set) var byline: String?
    /// The element the article is looked for under (the page's own `<article>`, say); the
    /// whole `<body>` when nil.
    private let scope: Int?
    /// Whether the scope is the article whole (cleaned as any article is), not searched.
    private let wholeScope: Bool

    init(document: ArticleDocument, flags: Flags, title: String?, scope: Int? = nil, wholeScope: Bool = false) {
        self.document = document
        self.flags = flags
        self.title = title
        self.scope = scope
        self.wholeScope = wholeScope && scope != nil
        titleWords = title.map(TextSimilarity.init)
        stats = ArticleStats()
    }

    /// The article (one element holding it), in `document` (nil: nothing worth showing), with
    /// the tree it lives in.
    mutating func grab() -> (nodes: [Int], document: ArticleDocument)? {
        let toScore = prepare()
        // Preparing moved and renamed elements: everything is counted again, once.
        stats.recountAll(document)
        for element in toScore where document.isAttached(element) { score(element) }
        guard let top = wholeScope ? scope : topCandidate() else { return nil }
        let nodes = siblings(of: top)
        // One element holds the article, as Readability builds it: siblings that are not
        // containers become divs (a stray `td` or `li` would mean nothing alone).
        let parent = document.nodes[nodes[0]].parent
        let wrapper = document.makeElement(.div, parent: max(parent, ArticleDocument.root), at: Int.max)
        if nodes.contains(ArticleDocument.root) {
            // A page without elements to score: the whole document is the article (the root
            // cannot move under a node of its own).
            document.adopt(document.children(of: ArticleDocument.root).filter { $0 != wrapper }, into: wrapper)
        } else {
            for node in nodes where !Self.keptNames.contains(document.nodes[node].tag) { document.rename(node, to: .div) }
            document.adopt(nodes, into: wrapper)
        }
        stats.recount(wrapper, in: document)
        clean(wrapper)
        return document.children(of: wrapper).isEmpty ? nil : ([wrapper], document)
    }

    /// Elements joined to the article under their own name; any other becomes a `div`.
    static let keptNames = ArticleTagSet([.div, .article, .section, .p, .ol, .ul, .table, .figure, .blockquote, .pre])

    // MARK: - Preparing

    /// Removes what is never article, notes a byline, turns `div`s holding only text into
    /// paragraphs, and lists the elements whose text is scored.
    private mutating func prepare() -> NodeList {
        let body = searchRoot
        document.replaceBreakRuns(under: body)
        stats.recountAll(document)
        if flags.stripUnlikelys {
            for box in SignUpBox.boxes(in: document, stats: stats) { remove(box) }
        }
        var replaceCursor: [Int: Int] = [:]
        var toScore = NodeList()
        var titleRemoved = false
        var pending = Array(document.children(of: body).reversed())
        while let index = pending.popLast() {
            // Taken out after it was listed (the box after an author's heading).
            if document.nodes[index].removed { continue }
            let node = document.nodes[index]
            let tag = node.tag
            if tag == .text { continue }
            if Self.neverArticle.contains(tag) || node.isHidden {
                document.remove(index)
                continue
            }
            let className = node.value(of: "class") ?? ""
            let id = node.value(of: "id") ?? ""
            if !titleRemoved, let title, let titleWords, tag == .h1 || tag == .h2,
                Int(stats[index].text) <= title.count * 2 + 20,
                titleWords.similarity(to: document.normalizedText(of: index)) > 0.75
            {
                // The headline above the article repeats the title shown anyway.
                titleRemoved = true
                document.remove(index)
                continue
            }
            if byline == nil, isByline(node, className, id), stats[index].text > 0, stats[index].text < 100 {
                let text = document.normalizedText(of: index)
                if !text.isEmpty, text.count < 100 {
                    byline = text
                    document.remove(index)
                    continue
                }
            }
            if flags.stripUnlikelys {
                if Self.authorBoxes.contains(tag), AuthorBox.isBox(index, in: document, length: Int(stats[index].text),
                    parentLength: Int(stats[node.parent].text))
                {
                    document.remove(index)
                    continue
                }
                if let box = AuthorBox.boxAfterHeading(
                    index, next: Self.nextListed(after: index, in: pending, of: document), in: document,
                    length: Int(stats[index].text), stats: stats)
                {
                    document.remove(box)
                    document.remove(index)
                    continue
                }
                if let role = node.value(of: "role"), Self.unlikelyRoles.contains(role.lowercased()) {
                    document.remove(index)
                    continue
                }
                if Self.unlikelyCandidates.matches(className, id), !Self.maybeCandidate.matches(className, id),
                    tag != .body, tag != .a, !document.hasAncestor(index, tagged: .table, depth: 3),
                    !document.hasAncestor(index, tagged: .code, depth: 3)
                {
                    document.remove(index)
                    continue
                }
            }
            if Self.removedWhenEmpty.contains(tag), isWithoutContent(index) {
                document.remove(index)
                continue
            }
            if Self.tagsToScore.contains(tag) { toScore.append(index) }
            if tag == .div {
                let wrapped = document.wrapPhrasingRuns(in: index)
                for paragraph in wrapped { stats.recount(paragraph, in: document) }
                // A div that only wraps one paragraph: the paragraph is scored (it is visited below).
                if let paragraph = singleParagraph(in: index), stats.linkDensity(index) < 0.25 {
                    document.replace(index, with: paragraph, cursor: &replaceCursor)
                    pending.append(paragraph)
                    continue
                }
                if wrapped.isEmpty, stats[index].blocks == 0 {
                    document.rename(index, to: .p)
                    toScore.append(index)
                }
            }
            for child in document.nodes[index].children.reversed() where !document.nodes[child].removed { pending.append(child) }
        }
        return toScore
    }

    /// The element after `index` among its siblings, read from the walk's list of what is still
    /// to visit (its top holds `index`'s next siblings, in order): no search of the parent's
    /// children, which 100,000 sibling headings would make quadratic.
    private static func nextListed(after index: Int, in pending: [Int], of document: ArticleDocument) -> Int? {
        let parent = document.nodes[index].parent
        for candidate in pending.reversed().prefix(16) {
            guard document.nodes[candidate].parent == parent else { return nil }
            if document.nodes[candidate].removed || document.nodes[candidate].tag == .text { continue }
            return candidate
        }
        return nil
    }

    /// Elements removed before anything is scored.
    static let neverArticle = ArticleTagSet([
        .script, .style, .noscript, .template, .link, .meta, .head, .title, .button, .input, .select, .textarea, .svg,
        .canvas, .object, .embed, .dialog,
    ])
    static let tagsToScore = ArticleTagSet([.section, .h2, .h3, .h4, .h5, .h6, .p, .td, .pre])
    static let removedWhenEmpty = ArticleTagSet([.div, .section, .header, .h1, .h2, .h3, .h4, .h5, .h6])
    static let blockElements = ArticleTagSet([.blockquote, .dl, .div, .img, .ol, .p, .pre, .table, .ul, .figure])
    /// What can be a box about the author.
    static let authorBoxes = ArticleTagSet([.div, .section, .aside, .footer])
    static let unlikelyRoles: Set<String> = ["menu", "menubar", "complementary", "navigation", "alert", "alertdialog", "dialog"]

    // Readability's patterns: alternations of fragments, matched in any case.
    static let unlikelyCandidates = Keywords(
        fragments: [
            "-ad-", "ai2html", "banner", "breadcrumbs", "combx", "comment", "community", "cover-wrap", "disqus", "extra",
            "footer", "gdpr", "header", "legends", "menu", "related", "remark", "replies", "rss", "shoutbox", "sidebar",
            "skyscraper", "social", "sponsor", "supplemental", "ad-break", "agegate", "pagination", "pager", "popup",
            "yom-remote",
            // An author's box under the post (their photo, biography and other posts), in the
            // names themes give it; a byline is found before this (`isByline`).
            "about-author", "author-bio", "authorbio", "author-box", "authorbox", "author-card", "author-description",
            "author-info",
            // Comments, named in the page's language (Readability knows only English "comment"):
            // German, Spanish, Italian, Polish, Dutch (French "commentaires" holds "comment"). In
            // the plural or as a part's name: a German "Kommentar" alone is an opinion piece.
            "kommentare", "kommentarmodul", "kommentarbereich", "kommentarliste", "kommentarformular", "comentarios",
            "commenti", "komentarze", "reacties",
            // A post's filing line under it ("This entry was posted in …", "Der Beitrag wurde am …
            // veröffentlicht"), in the names WordPress themes give it.
            "entry-utility", "postmetadata", "post-meta", "entry-meta",
        ])
    static let maybeCandidate = Keywords(fragments: ["and", "article", "body", "column", "content", "main", "mathjax", "shadow"])
    static let positive = Keywords(fragments: [
        "article", "body", "content", "entry", "hentry", "h-entry", "main", "page", "pagination", "post", "text", "blog", "story",
    ])
    static let negative = Keywords(
        fragments: [
            "-ad-", "hidden", "banner", "combx", "comment", "com-", "contact", "footer", "gdpr", "masthead", "media", "meta",
            "outbrain", "promo", "related", "scroll", "share", "shoutbox", "sidebar", "skyscraper", "sponsor", "shopping",
            "tags", "widget",
        ], spaceSeparatedWords: ["hid"])
    static let bylinePattern = Keywords(fragments: ["byline", "author", "dateline", "writtenby", "p-author"])
    static let sharePattern = Keywords(fragments: [], wordsBetweenPunctuation: ["share", "sharedaddy"])

    private func isByline(_ node: ArticleDocument.Node, _ className: String, _ id: String) -> Bool {
        if node.value(of: "rel") == "author" { return true }
        if let itemprop = node.value(of: "itemprop"), itemprop.contains("author") { return true }
        return Self.bylinePattern.matches(className, id)
    }

    private func isWithoutContent(_ index: Int) -> Bool {
        guard stats[index].text == 0 else { return false }
        let children = document.elementChildren(of: index)
        return children.allSatisfy { document.nodes[$0].tag == .br || document.nodes[$0].tag == .hr }
    }

    /// The one `p` a div holds, with no text of its own around it.
    private func singleParagraph(in index: Int) -> Int? {
        var paragraph: Int?
        for child in document.nodes[index].children where !document.nodes[child].removed {
            let tag = document.nodes[child].tag
            if tag == .text {
                if document.nodes[child].textLength > 0 { return nil }
            } else if tag == .p, paragraph == nil {
                paragraph = child
            } else {
                return nil
            }
        }
        return paragraph
    }

    // MARK: - Scoring

    private mutating func score(_ element: Int) {
        let parent = document.nodes[element].parent
        guard parent > ArticleDocument.root else { return }
        let counts = stats[element]
        let length = counts.text
        guard length >= 25 else { return }
        let ancestors = document.ancestors(of: element, limit: 5)
        guard !ancestors.isEmpty else { return }
        var contentScore = 1.0
        contentScore += Double(counts.commas + 1)
        contentScore += Double(min(length / 100, 3))
        for (level, ancestor) in ancestors.enumerated() where document.nodes[ancestor].parent > ArticleDocument.root {
            if scores[ancestor] == nil { scores[ancestor] = initialScore(ancestor) }
            let divider = level == 0 ? 1.0 : level == 1 ? 2.0 : Double(level) * 3
            scores[ancestor, default: 0] += contentScore / divider
        }
    }

    /// Commas in any script (Readability's list).
    static func isComma(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case ",", "\u{060C}", "\u{FE50}", "\u{FE10}", "\u{FE11}", "\u{2E41}", "\u{2E34}", "\u{2E32}", "\u{FF0C}": true
        default: false
        }
    }

    private func initialScore(_ index: Int) -> Double {
        var score: Double
        switch document.nodes[index].tag {
        case .div: score = 5
        case .pre, .td, .blockquote: score = 3
        case .address, .ol, .ul, .dl, .dd, .dt, .li, .form: score = -3
        case .h1, .h2, .h3, .h4, .h5, .h6, .th: score = -5
        default: score = 0
        }
        return score + Double(classWeight(index))
    }

    private func classWeight(_ index: Int) -> Int {
        guard flags.weightClasses else { return 0 }
        var weight = 0
        let node = document.nodes[index]
        if let className = node.value(of: "class"), !className.isEmpty {
            if Self.negative.matches(className) { weight -= 25 }
            if Self.positive.matches(className) { weight += 25 }
        }
        if let id = node.value(of: "id"), !id.isEmpty {
            if Self.negative.matches(id) { weight -= 25 }
            if Self.positive.matches(id) { weight += 25 }
        }
        return weight
    }

    /// Share of `index`'s text inside links (a same-page `#` link counts for less).
    func linkDensity(_ index: Int) -> Double { stats.linkDensity(index) }

    // MARK: - The top candidate

    /// Where the article is looked for: the scope, else `<body>`.
    private var searchRoot: Int { scope ?? document.first(.body) ?? ArticleDocument.root }

    /// Whether `index` is the scope or under it (scores given to the scope's ancestors do not
    /// count).
    private func isInScope(_ index: Int) -> Bool {
        guard let scope else { return true }
        return index == scope || document.ancestors(of: index).contains(scope)
    }

    private mutating func topCandidate() -> Int? {
        var ranked: [(index: Int, score: Double)] = []
        for (index, score) in scores where document.isAttached(index) && isInScope(index) {
            let scaled = score * (1 - linkDensity(index))
            scores[index] = scaled
            ranked.append((index, scaled))
        }
        ranked.sort { $0.score > $1.score || ($0.score == $1.score && $0.index < $1.index) }
        let top5 = Array(ranked.prefix(5))
        let body = searchRoot
        guard var top = top5.first?.index, top != body else {
            return document.children(of: body).isEmpty ? nil : body
        }
        let topScore = top5[0].score
        // Several good candidates under one ancestor: the ancestor is the article.
        let alternatives = top5.dropFirst().filter { topScore > 0 && $0.score / topScore >= 0.75 }
            .map { Set(document.ancestors(of: $0.index)) }
        if alternatives.count >= 3 {
            var parent = document.nodes[top].parent
            while parent > ArticleDocument.root, parent != body {
                if alternatives.filter({ $0.contains(parent) }).count >= 3 {
                    top = parent
                    break
                }
                parent = document.nodes[parent].parent
            }
        }
        if scores[top] == nil { scores[top] = initialScore(top) }
        // A parent scoring higher than its best child is a better article.
        var parent = document.nodes[top].parent
        var lastScore = scores[top] ?? 0
        let threshold = lastScore / 3
        while parent > ArticleDocument.root, parent != body {
            guard let parentScore = scores[parent] else {
                parent = document.nodes[parent].parent
                continue
            }
            if parentScore < threshold { break }
            if parentScore > lastScore {
                top = parent
                break
            }
            lastScore = parentScore
            parent = document.nodes[parent].parent
        }
        // The only child of its parent: the parent is the same article with its frame.
        parent = document.nodes[top].parent
        while parent > ArticleDocument.root, parent != body, document.elementChildren(of: parent).count == 1 {
            top = parent
            parent = document.nodes[top].parent
        }
        if scores[top] == nil { scores[top] = initialScore(top) }
        return top
    }

    /// The top candidate and those of its siblings that belong with it.
    private mutating func siblings(of top: Int) -> [Int] {
        let parent = document.nodes[top].parent
        guard parent >= ArticleDocument.root, top != ArticleDocument.root, top != scope else { return [top] }
        let topScore = scores[top] ?? 0
        let threshold = max(10, topScore * 0.2)
        let topClass = document.nodes[top].value(of: "class") ?? ""
        var kept: [Int] = []
        for sibling in document.elementChildren(of: parent) {
            var append = sibling == top
            if !append {
                let bonus = !topClass.isEmpty && document.nodes[sibling].value(of: "class") == topClass ? topScore * 0.2 : 0
                if let score = scores[sibling], score + bonus >= threshold {
                    append = true
                } else if document.nodes[sibling].tag == .p {
                    let density = linkDensity(sibling)
                    let length = stats[sibling].text
                    if length > 80, density < 0.25 {
                        append = true
                    } else if length < 80, length > 0, density == 0 {
                        let text = document.normalizedText(of: sibling)
                        if text.contains(". ") || text.hasSuffix(".") { append = true }
                    }
                }
            }
            if append { kept.append(sibling) }
        }
        return kept
    }

    // MARK: - Cleaning

    /// Cuts the article down: what is never read (forms, embeds, share bars), link lists and
    /// image walls judged by their content, empty paragraphs.
    ///
    /// The article's elements are listed once; each pass takes those of its tags still in the
    /// tree when it starts (ten walks of the whole article were a tenth of a 10 MB page's time).
    private mutating func clean(_ root: Int) {
        var passes = CleaningPasses(root: root, elements: document.elements(under: root), nodeCount: document.nodes.count)
        for name in [ArticleTag.form, .fieldset] { cleanConditionally(passes.attached(ArticleTagSet([name]), in: document), name) }
        for index in passes.attached(Self.cleanedAlways, in: document) {
            remove(index)
        }
        // Below the article's own children (they are judged as the article's parts, not as bars).
        for index in passes.attached(nil, in: document)
        where document.nodes[index].parent != root && !document.nodes[index].attributes.isEmpty {
            let node = document.nodes[index]
            guard Self.sharePattern.matches(node.value(of: "class") ?? "", node.value(of: "id") ?? "") else { continue }
            if Int(stats[index].text) < Self.characterThreshold { remove(index) }
        }
        removeRelatedReading(
            passes.attached(
                ArticleTagSet([.h2, .h3, .h4, .h5, .h6, .p, .div, .li, .ul, .ol, .section, .center, .small, .figcaption]),
                in: document))
        // Headings that read as anything but the article's (weighted negative).
        for index in passes.attached(ArticleTagSet([.h1, .h2]), in: document) where classWeight(index) < 0 {
            remove(index)
        }
        for name in [ArticleTag.table, .ul, .div] { cleanConditionally(passes.attached(ArticleTagSet([name]), in: document), name) }
        // Renamed last: no pass after this one asks for `h1` or `h2` (the list keeps the old tags).
        for index in passes.attached(ArticleTagSet([.h1]), in: document) { document.rename(index, to: .h2) }
        for index in passes.attached(ArticleTagSet([.p]), in: document)
        where stats[index].media == 0 && stats[index].text == 0 {
            remove(index)
        }
    }

    /// The article's elements, listed once, and those of a pass's tags still in the tree when the
    /// pass starts (whether an element is still in is found by walking up to the nearest
    /// element already known, so a pass costs the article's length, not its length times its depth).
    private struct CleaningPasses {
        let root: Int
        let elements: [(index: Int32, tag: ArticleTag)]
        /// Per node, for the current pass: 0 not known yet, 1 in the tree, 2 out.
        private var known: [UInt8]
        private var path: [Int] = []

        init(root: Int, elements: [(index: Int32, tag: ArticleTag)], nodeCount: Int) {
            self.root = root
            self.elements = elements
            known = [UInt8](repeating: 0, count: nodeCount)
        }

        /// The listed elements tagged one of `tags` (nil: all) still in the tree, in document order.
        mutating func attached(_ tags: ArticleTagSet?, in document: ArticleDocument) -> NodeList {
            for position in known.indices { known[position] = 0 }
            // The walks stop at the article (what is above it is not the passes' to judge).
            if root < known.count { known[root] = 1 }
            var result = NodeList()
            for element in elements where tags?.contains(element.tag) ?? true {
                if isAttached(Int(element.index), in: document) { result.append(Int(element.index)) }
            }
            return result
        }

        private mutating func isAttached(_ index: Int, in document: ArticleDocument) -> Bool {
            path.removeAll(keepingCapacity: true)
            var current = index
            var answer: UInt8 = 1
            while current >= 0 {
                if current < known.count, known[current] != 0 {
                    answer = known[current]
                    break
                }
                if document.nodes[current].removed {
                    answer = 2
                    path.append(current)
                    break
                }
                path.append(current)
                current = document.nodes[current].parent
            }
            for node in path where node < known.count { known[node] = answer }
            return answer == 1
        }
    }

    /// Leads elsewhere (`RelatedReading`): a heading over other articles goes with the list of
    /// links after it; a "Read more: …" line that is mostly its link goes.
    private mutating func removeRelatedReading(_ elements: NodeList) {
        // Where the last heading was found among its parent's children: elements come in
        // document order, so each parent's children are searched once in all (100,000 sibling
        // "Related" headings would otherwise search them 100,000 times).
        var cursor: [Int: Int] = [:]
        // `index`'s place among its parent's children, searched on from the last one found there.
        func position(of index: Int) -> (children: [Int], position: Int) {
            let parent = document.nodes[index].parent
            let children = document.nodes[parent].children
            var position = cursor[parent] ?? 0
            while position < children.count, children[position] != index { position += 1 }
            cursor[parent] = position
            return (children, position)
        }
        for index in elements where !document.nodes[index].removed {
            let tag = document.nodes[index].tag
            let length = Int(stats[index].text)
            guard length > 0, length <= 5_000 else { continue }
            // A box of links that opens with its own "Related" heading ("<li><a>Mehr zum
            // Thema</a><ul>…</ul></li>"): the heading and its list go together.
            if Self.relatedBoxes.contains(tag), linkDensity(index) >= 0.5, let first = document.firstText(under: index),
                first.utf8.count <= RelatedReading.longestHeading, RelatedReading.headingInitials.mayStart(first),
                RelatedReading.isHeading(first), first.trimmingCharacters(in: .whitespacesAndNewlines).count < length
            {
                remove(index)
                continue
            }
            guard length <= 200 else { continue }
            // Read only what could be a lead: a heading's few words, or a line with a colon
            // early in its first text (most paragraphs are neither, and reading each was a
            // tenth of the extraction).
            guard let first = document.firstText(under: index) else { continue }
            if length <= FurnitureLine.longest, FurnitureLine.tags.contains(tag), FurnitureLine.mayStart(first),
                FurnitureLine.matches(document.normalizedText(of: index))
            {
                // An advertisement's caption: the advertisement goes with it.
                let parent = document.nodes[index].parent
                remove(tag == .figcaption && document.nodes[parent].tag == .figure ? parent : index)
                continue
            }
            if length <= ContactBlock.longestHeading, tag != .li, ContactBlock.initials.mayStart(first),
                ContactBlock.isHeading(document.normalizedText(of: index))
            {
                let (children, position) = position(of: index)
                let block = ContactBlock.block(after: position, in: children, of: document, stats: stats)
                if !block.isEmpty {
                    for part in block { remove(part) }
                    remove(index)
                    continue
                }
            }
            if length >= MachineryLine.shortest, MachineryLine.tags.contains(tag), MachineryLine.initials.mayStart(first),
                MachineryLine.matches(document.normalizedText(of: index))
            {
                remove(index)
                continue
            }
            let mayBeHeading = length <= RelatedReading.longestHeading && tag != .li
                && RelatedReading.headingInitials.mayStart(first)
            guard mayBeHeading || (RelatedReading.mayOpenWithLabel(first) && RelatedReading.labelInitials.mayStart(first)) else { continue }
            let text = document.normalizedText(of: index)
            if tag != .p, tag != .div, tag != .li, RelatedReading.isHeading(text) {
                let (children, position) = position(of: index)
                var following = position + 1
                while following < children.count,
                    document.nodes[children[following]].removed || document.nodes[children[following]].tag == .text
                {
                    following += 1
                }
                if following < children.count {
                    let next = children[following]
                    if Self.linkLists.contains(document.nodes[next].tag), linkDensity(next) >= 0.5 || isCardList(next) {
                        remove(next)
                    }
                }
                remove(index)
            } else if RelatedReading.isReadAlsoLine(text), linkDensity(index) >= 0.4 {
                remove(index)
            } else if tag == .p || tag == .div, RelatedReading.isHeading(text), stats[index].blocks == 0 {
                // A heading written as a paragraph ("<p><strong>Mehr zum Thema</strong></p>").
                remove(index)
            }
        }
    }

    /// What follows a "Related posts" heading and goes with it.
    static let linkLists = ArticleTagSet([.ul, .ol, .div, .section, .p, .dl])
    /// What can hold a "Related" heading and its list together.
    static let relatedBoxes = ArticleTagSet([.li, .ul, .ol, .div, .section])

    /// Whether `index` is a row of teasers: at least two parts (under any wrappers of one
    /// child), each a few lines with a link (a headline and an image linking to another
    /// article, whose text need not be in the link).
    private func isCardList(_ index: Int) -> Bool {
        var cards = document.elementChildren(of: index)
        while cards.count == 1, let only = cards.first { cards = document.elementChildren(of: only) }
        guard cards.count >= 2 else { return false }
        return cards.allSatisfy { card in
            document.nodes[card].tag == .a || (stats[card].text <= 300 && document.first(.a, under: card) != nil)
        }
    }

    /// Takes `index` out of the tree and its counts out of its ancestors'.
    private mutating func remove(_ index: Int) {
        guard !document.nodes[index].removed else { return }
        document.remove(index)
        stats.subtract(index, in: document)
    }

    static let cleanedAlways = ArticleTagSet([
        .object, .embed, .footer, .link, .aside, .iframe, .input, .textarea, .select, .button, .nav,
    ])

    /// Readability's `_cleanConditionally`: `elements` (those named `name`, in document order) whose content reads as
    /// anything but the article (more links than text, more images than paragraphs, inputs,
    /// embeds...) go, deepest first, data tables and code kept.
    private mutating func cleanConditionally(_ elements: NodeList, _ name: ArticleTag) {
        guard flags.cleanConditionally else { return }
        // Deepest first: an element is judged with what is left inside it.
        for index in elements.reversed() where !document.nodes[index].removed {
            let counts = stats[index]
            if name == .table, stats.isDataTable(index, in: document) { continue }
            if counts.dataTables > 0 { continue }
            if document.hasAncestor(index, tagged: .code) { continue }
            if hasDataTableAncestor(index) { continue }
            let length = counts.text
            var isList = name == .ul || name == .ol
            if !isList, length > 0, Double(counts.listText) / Double(length) > 0.9 { isList = true }
            let weight = classWeight(index)
            if Double(weight) + (scores[index] ?? 0) < 0 {
                remove(index)
                continue
            }
            guard counts.commas < 10 else { continue }
            let paragraphs = counts.paragraphs
            let images = counts.images
            let items = counts.items - 100
            let density = linkDensity(index)
            let inFigure = document.hasAncestor(index, tagged: .figure)
            let headingDensity = length > 0 ? Double(counts.headingText) / Double(length) : 0
            var remove = false
            if images > 1, Double(paragraphs) / Double(images) < 0.5, !inFigure { remove = true }
            if !isList, items > paragraphs { remove = true }
            if counts.inputs > paragraphs / 3 { remove = true }
            if !isList, length < 25, images == 0 || images > 2, !inFigure, headingDensity < 0.9, density > 0 { remove = true }
            if !isList, weight < 25, density > 0.2 { remove = true }
            if weight >= 25, density > 0.5 { remove = true }
            if (counts.embeds == 1 && length < 75) || counts.embeds > 1 { remove = true }
            // A list of images only (a gallery) stays.
            if isList, remove, counts.images > 0, counts.images >= counts.items, length == 0 { remove = false }
            if remove { self.remove(index) }
        }
    }

    private func hasDataTableAncestor(_ index: Int) -> Bool {
        document.ancestors(of: index).contains { document.nodes[$0].tag == .table && stats.isDataTable($0, in: document) }
    }
}

/// Readability's class and id patterns without regular expressions: any of `fragments` anywhere
/// (in any case), or any of `spaceSeparatedWords` as a whole space-separated word, or any of
/// `wordsBetweenPunctuation` between non-letters (`share-bar`, `post_share`, not `shared`).
struct Keywords: Sendable {
    let fragments: [String]
    var spaceSeparatedWords: Set<String> = []
    var wordsBetweenPunctuation: Set<String> = []

    /// The fragments as lowercase ASCII bytes, searched without Foundation (its `contains` was a
    /// tenth of the extractor's time).
    private let fragmentBytes: [[UInt8]]
    /// The fragments' first bytes, a bit each.
    private let firstBytes: [UInt64]
    /// Where in `fragmentBytes` (sorted by first byte) the fragments starting with each byte are.
    private let fragmentsByFirstByte: [Range<Int>]
    private let hasEmptyFragment: Bool
    private let spaceWordBytes: [[UInt8]]
    private let punctuationWordBytes: [[UInt8]]

    init(fragments: [String], spaceSeparatedWords: Set<String> = [], wordsBetweenPunctuation: Set<String> = []) {
        self.fragments = fragments
        self.spaceSeparatedWords = spaceSeparatedWords
        self.wordsBetweenPunctuation = wordsBetweenPunctuation
        let lowered = fragments.map { Array($0.lowercased().utf8) }
        hasEmptyFragment = lowered.contains { $0.isEmpty }
        // Sorted by first byte only, keeping the list's order within each byte (stable).
        let sorted = lowered.filter { !$0.isEmpty }.enumerated().sorted { ($0.element[0], $0.offset) < ($1.element[0], $1.offset) }
        fragmentBytes = sorted.map(\.element)
        var firstBytes: [UInt64] = [0, 0, 0, 0]
        var ranges = Array(repeating: 0..<0, count: 256)
        for (position, fragment) in fragmentBytes.enumerated() {
            let first = Int(fragment[0])
            firstBytes[first >> 6] |= 1 << UInt64(first & 63)
            ranges[first] = ranges[first].isEmpty ? position..<position + 1 : ranges[first].lowerBound..<position + 1
        }
        self.firstBytes = firstBytes
        fragmentsByFirstByte = ranges
        spaceWordBytes = spaceSeparatedWords.map { Array($0.utf8) }
        punctuationWordBytes = wordsBetweenPunctuation.map { Array($0.utf8) }
    }

    /// Whether `className + " " + id` matches (no keyword holds a space, so none can match
    /// across the two: each is searched alone, without joining them).
    func matches(_ className: String, _ id: String) -> Bool {
        matches(className) || matches(id)
    }

    func matches(_ text: String) -> Bool {
        guard !text.isEmpty else { return false }
        // Searched in place, ASCII letters lowered byte by byte as they are compared (fragments
        // are ASCII): a lowered copy per question was a twentieth of the time.
        var contiguous = text
        return contiguous.withUTF8 { bytes in
            if containsFragment(bytes) { return true }
            if !spaceWordBytes.isEmpty, Self.anyWord(of: bytes, separatedBy: { $0 == 0x20 }, in: spaceWordBytes) {
                return true
            }
            if !punctuationWordBytes.isEmpty,
                Self.anyWord(of: bytes, separatedBy: { !Self.isWordByte(Self.lowered($0)) }, in: punctuationWordBytes)
            {
                return true
            }
            return false
        }
    }

    @inline(__always) private static func lowered(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }

    /// Whether a run of `bytes` between separators, lowered, is one of `words`.
    private static func anyWord(
        of bytes: UnsafeBufferPointer<UInt8>, separatedBy isSeparator: (UInt8) -> Bool, in words: [[UInt8]]
    ) -> Bool {
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count, !isSeparator(bytes[end]) { end += 1 }
            if end > start {
                let length = end - start
                for word in words where word.count == length {
                    var offset = 0
                    while offset < length, lowered(bytes[start + offset]) == word[offset] { offset += 1 }
                    if offset == length { return true }
                }
            }
            start = end + 1
        }
        return false
    }

    /// Whether any fragment occurs in `haystack` (lowered as it is read): one pass over the
    /// text, trying only the fragments that start with the byte at hand (a pass per fragment
    /// was 7% of the time).
    private func containsFragment(_ haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        if hasEmptyFragment { return true }
        let count = haystack.count
        for start in 0..<count {
            let byte = Self.lowered(haystack[start])
            let (word, bit) = (Int(byte >> 6), UInt64(byte & 63))
            guard firstBytes[word] & (1 << bit) != 0 else { continue }
            for fragment in fragmentBytes[fragmentsByFirstByte[Int(byte)]] where fragment.count <= count - start {
                var matched = 1
                while matched < fragment.count, Self.lowered(haystack[start + matched]) == fragment[matched] { matched += 1 }
                if matched == fragment.count { return true }
            }
        }
        return false
    }

    /// Letters and digits (any non-ASCII byte counts as a letter, as `isLetter` would for most).
    private static func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte >= 0x80
    }
}
