/// What the scoring asks of every element (its text's length, the part of it in links, its
/// commas, how many paragraphs, images, list items... it holds), counted once for the whole tree
/// in one bottom-up pass, so no question costs a walk over the element's descendants and the
/// extraction stays linear in the page. Removing an element updates its ancestors' counts
/// (a walk up, bounded by the depth limit).
struct ArticleStats {
    /// An element's counts over its descendants (the element itself not counted, as
    /// `getElementsByTagName` counts); for text, the text under it. 32-bit: a page is at most
    /// `ArticleLimits.maxBytes`, and the counts of a 10 MB page's nodes are its largest array.
    struct Counts {
        /// Characters of text, a run of whitespace counted as one.
        var text: Int32 = 0
        /// Characters of text inside links (same-page `#` links count for 0.3).
        var link: Float = 0
        var commas: Int32 = 0
        var paragraphs: Int32 = 0
        var images: Int32 = 0
        var items: Int32 = 0
        var inputs: Int32 = 0
        /// `object`, `embed`, `iframe` that are not a known video player.
        var embeds: Int32 = 0
        /// Images, pictures, videos and embeds of any kind.
        var media: Int32 = 0
        /// Characters of text inside headings.
        var headingText: Int32 = 0
        /// Elements that make a `div` more than a paragraph (`ArticleGrabber.blockElements`).
        var blocks: Int32 = 0
        var tables: Int32 = 0
        var dataTables: Int32 = 0
        var rows: Int32 = 0
        var maxColumns: Int32 = 0
        /// `caption`, `col`, `colgroup`, `thead`, `tfoot`, `th`: marks of a data table.
        var tableMarks: Int32 = 0
        /// Characters of text inside lists (`ul`, `ol`).
        var listText: Int32 = 0
    }

    private(set) var counts: [Counts]

    /// No counts yet (`recountAll` makes them).
    init() {
        counts = []
    }

    init(_ document: ArticleDocument) {
        counts = []
        recountAll(document)
    }

    /// Counts every node again (the old counts freed first: on a large page they are the
    /// biggest array there is).
    mutating func recountAll(_ document: ArticleDocument) {
        counts = []
        counts = Array(repeating: Counts(), count: document.nodes.count)
        // Post-order without recursion: a node is summed once all its children are.
        var pending: [(index: Int, expanded: Bool)] = [(ArticleDocument.root, false)]
        while let (index, expanded) = pending.popLast() {
            let node = document[index]
            if node.isText {
                counts[index] = Self.textCounts(node.text)
                continue
            }
            if ArticleDocument.noText.contains(node.name) { continue }
            if expanded {
                recount(index, in: document)
            } else {
                pending.append((index, true))
                for child in node.children.reversed() where !document[child].removed { pending.append((child, false)) }
            }
        }
    }

    subscript(index: Int) -> Counts { index < counts.count ? counts[index] : Counts() }

    /// Counts `index` again from its children's counts (a new element, or one whose children
    /// changed).
    mutating func recount(_ index: Int, in document: ArticleDocument) {
        if counts.count < document.nodes.count {
            counts.append(contentsOf: repeatElement(Counts(), count: document.nodes.count - counts.count))
        }
        var total = Counts()
        for child in document[index].children where !document[child].removed {
            let node = document[child]
            let own = counts[child]
            total.text += own.text
            total.commas += own.commas
            if node.isText { continue }
            let name = node.name
            total.link += name == "a" ? Float(own.text) * Self.linkWeight(node) : own.link
            total.headingText += ArticleDocument.headings.contains(name) ? own.text : own.headingText
            total.listText += name == "ul" || name == "ol" ? own.text : own.listText
            total.paragraphs += own.paragraphs + (name == "p" ? 1 : 0)
            total.images += own.images + (name == "img" ? 1 : 0)
            total.items += own.items + (name == "li" ? 1 : 0)
            total.inputs += own.inputs + (name == "input" ? 1 : 0)
            total.embeds += own.embeds + (Self.embedNames.contains(name) && !Self.isVideo(node) ? 1 : 0)
            total.media += own.media + (Self.mediaNames.contains(name) ? 1 : 0)
            total.blocks += own.blocks + (ArticleGrabber.blockElements.contains(name) ? 1 : 0)
            total.tables += own.tables + (name == "table" ? 1 : 0)
            total.rows += own.rows + (name == "tr" ? 1 : 0)
            total.tableMarks += own.tableMarks + (Self.tableMarkNames.contains(name) ? 1 : 0)
            let columns: Int32 = name == "tr" ? Int32(clamping: node.children.filter { !document[$0].removed && !document[$0].isText }.count) : 0
            total.maxColumns = max(total.maxColumns, own.maxColumns, columns)
            total.dataTables += own.dataTables + (name == "table" && isDataTable(child, in: document) ? 1 : 0)
        }
        counts[index] = total
    }

    /// Takes a removed element's counts out of its ancestors' (`index` already marked removed).
    mutating func subtract(_ index: Int, in document: ArticleDocument) {
        guard index < counts.count else { return }
        let node = document[index]
        let own = counts[index]
        var delta = own
        if !node.isText {
            delta.link = node.name == "a" ? Float(own.text) * Self.linkWeight(node) : own.link
            delta.headingText = ArticleDocument.headings.contains(node.name) ? own.text : own.headingText
            delta.listText = node.name == "ul" || node.name == "ol" ? own.text : own.listText
            delta.paragraphs += node.name == "p" ? 1 : 0
            delta.images += node.name == "img" ? 1 : 0
            delta.items += node.name == "li" ? 1 : 0
            delta.inputs += node.name == "input" ? 1 : 0
            delta.embeds += Self.embedNames.contains(node.name) && !Self.isVideo(node) ? 1 : 0
            delta.media += Self.mediaNames.contains(node.name) ? 1 : 0
            delta.blocks += ArticleGrabber.blockElements.contains(node.name) ? 1 : 0
            delta.tables += node.name == "table" ? 1 : 0
            delta.rows += node.name == "tr" ? 1 : 0
            delta.tableMarks += Self.tableMarkNames.contains(node.name) ? 1 : 0
        }
        var ancestor = node.parent
        while ancestor >= 0, ancestor < counts.count {
            var counts = self.counts[ancestor]
            counts.text -= delta.text
            counts.commas -= delta.commas
            counts.link -= delta.link
            counts.headingText -= delta.headingText
            counts.listText -= delta.listText
            counts.paragraphs -= delta.paragraphs
            counts.images -= delta.images
            counts.items -= delta.items
            counts.inputs -= delta.inputs
            counts.embeds -= delta.embeds
            counts.media -= delta.media
            counts.blocks -= delta.blocks
            counts.tables -= delta.tables
            counts.rows -= delta.rows
            counts.tableMarks -= delta.tableMarks
            self.counts[ancestor] = counts
            // Above a link or a heading, what was removed counted as link or heading text.
            let name = document[ancestor].name
            if name == "a" { delta.link = Float(delta.text) * Self.linkWeight(document[ancestor]) }
            if ArticleDocument.headings.contains(name) { delta.headingText = delta.text }
            if name == "ul" || name == "ol" { delta.listText = delta.text }
            ancestor = document[ancestor].parent
        }
    }

    /// Share of `index`'s text inside links.
    func linkDensity(_ index: Int) -> Double {
        let counts = self[index]
        return counts.text > 0 ? Double(counts.link) / Double(counts.text) : 0
    }

    /// A table of data (kept whole), not one used for layout: Readability's rules.
    func isDataTable(_ index: Int, in document: ArticleDocument) -> Bool {
        let node = document[index]
        if node.value(of: "role") == "presentation" || node.value(of: "datatable") == "0" { return false }
        if node.value(of: "summary") != nil { return true }
        let counts = self[index]
        if counts.tableMarks > 0 { return true }
        if counts.tables > 0 { return false }
        return counts.rows >= 10 || counts.maxColumns > 4 || counts.rows * counts.maxColumns > 10
    }

    static let embedNames: Set<String> = ["object", "embed", "iframe"]
    static let mediaNames: Set<String> = ["img", "embed", "object", "iframe", "picture", "video"]
    static let tableMarkNames: Set<String> = ["caption", "col", "colgroup", "thead", "tfoot", "th"]

    static func isVideo(_ node: ArticleDocument.Node) -> Bool {
        let source = (node.value(of: "src") ?? "") + (node.value(of: "data") ?? "")
        return ["youtube.com", "youtube-nocookie.com", "player.vimeo.com", "dailymotion.com", "youtu.be"]
            .contains { source.contains($0) }
    }

    static func linkWeight(_ node: ArticleDocument.Node) -> Float {
        let href = node.value(of: "href") ?? ""
        return href.utf8.count > 1 && href.hasPrefix("#") ? 0.3 : 1
    }

    /// A text node's characters (a run of whitespace between words as one, none at the ends)
    /// and commas, in one pass.
    static func textCounts(_ text: String) -> Counts {
        var counts = Counts()
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if ArticleDocument.isWhitespace(scalar) {
                pendingSpace = counts.text > 0
                continue
            }
            if pendingSpace { counts.text += 1 }
            pendingSpace = false
            counts.text += 1
            if ArticleGrabber.isComma(scalar) { counts.commas += 1 }
        }
        return counts
    }
}
