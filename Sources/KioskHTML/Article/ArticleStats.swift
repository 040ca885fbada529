import KioskCore
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
        // With room for the elements extraction adds (paragraphs for phrasing runs, the
        // article's wrapper): appending to a full array copies it, and the old and new copies,
        // both in memory for a moment, were the peak of an element-dense page. Room never
        // written to is never touched, so it costs address space only.
        counts.reserveCapacity(document.nodes.count + document.nodes.count / 2 + Self.headroom)
        counts.append(contentsOf: repeatElement(Counts(), count: document.nodes.count))
        // Post-order without recursion: a node is summed once all its children are.
        var pending: [(index: Int, expanded: Bool)] = [(ArticleDocument.root, false)]
        while let (index, expanded) = pending.popLast() {
            let tag = document.nodes[index].tag
            if tag == .text {
                counts[index].text = document.nodes[index].textLength
                counts[index].commas = document.nodes[index].commas
                continue
            }
            if ArticleDocument.noText.contains(tag) { continue }
            if expanded {
                recount(index, in: document)
            } else {
                pending.append((index, true))
                for child in document.nodes[index].children.reversed() where !document.nodes[child].removed {
                    pending.append((child, false))
                }
            }
        }
    }

    /// Room for counts beyond the tree's nodes (at least; an eighth more when it grows, so
    /// growing stays linear).
    private static let headroom = 1_024

    subscript(index: Int) -> Counts { index < counts.count ? counts[index] : Counts() }

    /// Counts `index` again from its children's counts (a new element, or one whose children
    /// changed).
    mutating func recount(_ index: Int, in document: ArticleDocument) {
        if counts.count < document.nodes.count {
            if counts.capacity < document.nodes.count {
                counts.reserveCapacity(document.nodes.count + max(Self.headroom, document.nodes.count / 8))
            }
            counts.append(contentsOf: repeatElement(Counts(), count: document.nodes.count - counts.count))
        }
        var total = Counts()
        let nodes = document.nodes
        for child in nodes[index].children where !nodes[child].removed {
            let own = counts[child]
            total.text += own.text
            total.commas += own.commas
            let tag = nodes[child].tag
            if tag == .text { continue }
            total.link += tag == .a ? Float(own.text) * Self.linkWeight(nodes[child]) : own.link
            total.headingText += ArticleDocument.headings.contains(tag) ? own.text : own.headingText
            total.listText += tag == .ul || tag == .ol ? own.text : own.listText
            total.paragraphs += own.paragraphs + (tag == .p ? 1 : 0)
            total.images += own.images + (tag == .img ? 1 : 0)
            total.items += own.items + (tag == .li ? 1 : 0)
            total.inputs += own.inputs + (tag == .input ? 1 : 0)
            total.embeds += own.embeds + (Self.embedNames.contains(tag) && !Self.isVideo(nodes[child]) ? 1 : 0)
            total.media += own.media + (Self.mediaNames.contains(tag) ? 1 : 0)
            total.blocks += own.blocks + (ArticleGrabber.blockElements.contains(tag) ? 1 : 0)
            total.tables += own.tables + (tag == .table ? 1 : 0)
            total.rows += own.rows + (tag == .tr ? 1 : 0)
            total.tableMarks += own.tableMarks + (Self.tableMarkNames.contains(tag) ? 1 : 0)
            var columns: Int32 = 0
            if tag == .tr {
                for cell in nodes[child].children where !nodes[cell].removed && !nodes[cell].isText { columns += 1 }
            }
            total.maxColumns = max(total.maxColumns, own.maxColumns, columns)
            total.dataTables += own.dataTables + (tag == .table && isDataTable(child, in: document) ? 1 : 0)
        }
        counts[index] = total
    }

    /// Takes a removed element's counts out of its ancestors' (`index` already marked removed).
    mutating func subtract(_ index: Int, in document: ArticleDocument) {
        guard index < counts.count else { return }
        let nodes = document.nodes
        let tag = nodes[index].tag
        let own = counts[index]
        var delta = own
        if tag != .text {
            delta.link = tag == .a ? Float(own.text) * Self.linkWeight(nodes[index]) : own.link
            delta.headingText = ArticleDocument.headings.contains(tag) ? own.text : own.headingText
            delta.listText = tag == .ul || tag == .ol ? own.text : own.listText
            delta.paragraphs += tag == .p ? 1 : 0
            delta.images += tag == .img ? 1 : 0
            delta.items += tag == .li ? 1 : 0
            delta.inputs += tag == .input ? 1 : 0
            delta.embeds += Self.embedNames.contains(tag) && !Self.isVideo(nodes[index]) ? 1 : 0
            delta.media += Self.mediaNames.contains(tag) ? 1 : 0
            delta.blocks += ArticleGrabber.blockElements.contains(tag) ? 1 : 0
            delta.tables += tag == .table ? 1 : 0
            delta.rows += tag == .tr ? 1 : 0
            delta.tableMarks += Self.tableMarkNames.contains(tag) ? 1 : 0
        }
        var ancestor = nodes[index].parent
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
            let name = nodes[ancestor].tag
            if name == .a { delta.link = Float(delta.text) * Self.linkWeight(nodes[ancestor]) }
            if ArticleDocument.headings.contains(name) { delta.headingText = delta.text }
            if name == .ul || name == .ol { delta.listText = delta.text }
            ancestor = nodes[ancestor].parent
        }
    }

    /// Share of `index`'s text inside links.
    func linkDensity(_ index: Int) -> Double {
        let counts = self[index]
        return counts.text > 0 ? Double(counts.link) / Double(counts.text) : 0
    }

    /// A table of data (kept whole), not one used for layout: Readability's rules.
    func isDataTable(_ index: Int, in document: ArticleDocument) -> Bool {
        let node = document.nodes[index]
        if node.value(of: "role") == "presentation" || node.value(of: "datatable") == "0" { return false }
        if node.value(of: "summary") != nil { return true }
        let counts = self[index]
        if counts.tableMarks > 0 { return true }
        if counts.tables > 0 { return false }
        return counts.rows >= 10 || counts.maxColumns > 4 || counts.rows * counts.maxColumns > 10
    }

    static let embedNames = ArticleTagSet([.object, .embed, .iframe])
    static let mediaNames = ArticleTagSet([.img, .embed, .object, .iframe, .picture, .video])
    static let tableMarkNames = ArticleTagSet([.caption, .col, .colgroup, .thead, .tfoot, .th])

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
    /// and commas, in one pass over its UTF-8 (ASCII answered without decoding).
    static func textCounts(_ text: String) -> (text: Int32, commas: Int32) {
        var text = text
        return text.withUTF8 { bytes in
            var length: Int32 = 0
            var commas: Int32 = 0
            var pendingSpace = false
            var position = 0
            while position < bytes.count {
                let byte = bytes[position]
                if byte < 0x80 {
                    position += 1
                    if ASCIIWhitespace.contains(byte) {
                        pendingSpace = length > 0
                        continue
                    }
                    if pendingSpace { length += 1 }
                    pendingSpace = false
                    length += 1
                    if byte == 0x2C { commas += 1 }
                    continue
                }
                let (scalar, size) = ArticleDocument.scalar(in: bytes, at: position)
                position += size
                if ArticleDocument.isNonASCIIWhitespace(scalar) {
                    pendingSpace = length > 0
                    continue
                }
                if pendingSpace { length += 1 }
                pendingSpace = false
                length += 1
                if ArticleGrabber.isComma(scalar) { commas += 1 }
            }
            return (length, commas)
        }
    }
}
