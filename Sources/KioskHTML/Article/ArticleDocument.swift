import KioskCore
/// A web page as a tree, built from `HTMLTokenizer`'s tokens the forgiving way browsers build the
/// common cases: void elements, the implied ends of `p`, `li`, `dt`/`dd`, table rows and cells and
/// `option`, an end tag closing the nearest open element of its name, stray end tags ignored.
/// Nodes live in one array and refer to each other by index, so building and walking cost time
/// linear in the page and no reference counting. Elements nested deeper than the limit are
/// attached to the deepest allowed ancestor instead (their content kept, the depth bounded).
struct ArticleDocument {
    struct Node {
        /// An element's lowercased name, or a text node's text: a node has one or the other, so
        /// one field holds both (16 bytes a node less, a fifth of the node array).
        private var content: String
        var attributes: [HTMLTokenizer.Attribute]
        var children: [Int]
        /// 32-bit, with the counts below, so they fit where the padding of a 64-bit index was.
        private var parentIndex: Int32
        /// A text node's characters and commas as `ArticleStats` counts them, counted once when
        /// the tree is built (they were counted again by every pass that summed text: a tenth of
        /// the time).
        var textLength: Int32 = 0
        var commas: Int32 = 0
        /// Taken out of the tree (the extractor removes rather than rebuilds).
        var removed = false
        /// `name` as a number, for the questions asked of every node.
        var tag: ArticleTag

        init(name: String, tag: ArticleTag? = nil, attributes: [HTMLTokenizer.Attribute], text: String, parent: Int, children: [Int]) {
            let tag = tag ?? ArticleTag(name: name)
            self.tag = tag
            content = tag == .text ? text : name
            self.attributes = attributes
            self.children = children
            parentIndex = Int32(truncatingIfNeeded: parent)
        }

        /// Lowercased element name; "#text" for text, "#document" for the root.
        var name: String {
            get {
                switch tag {
                case .text: "#text"
                case .document: "#document"
                default: content
                }
            }
            set { if tag != .text { content = newValue } }
        }

        /// A text node's text (references decoded; a script's or style's as written); "" for an
        /// element.
        var text: String { tag == .text ? content : "" }

        /// Adds to a text node's text, in place (through `text`, each addition would copy all of
        /// it: quadratic for the line breaks of 100,000 flattened elements).
        mutating func append(text more: String) {
            if tag == .text { content += more }
        }

        var parent: Int {
            get { Int(parentIndex) }
            set { parentIndex = Int32(truncatingIfNeeded: newValue) }
        }

        var isText: Bool { tag == .text }

        func value(of attribute: String) -> String? {
            attributes.first(where: { $0.name == attribute })?.value
        }
    }

    static let root = 0
    private(set) var nodes: [Node]

    init(html: consuming String, maxDepth: Int) {
        // Handed on (an initializer takes its arguments owned): the tokenizer keeps its own UTF-8
        // copy and the text goes with its initializer, not at the end of this one (10 MB less).
        self.init(tokenizer: HTMLTokenizer(html), maxDepth: maxDepth)
    }

    /// The page from its bytes, valid UTF-8 (`TextDecoding.utf8Bytes`), read in place: no
    /// `String` of the page and no copy of it (a tenth of the time went to validating and
    /// copying the page twice more; on a 10 MB page, 10 MB less at the peak).
    init(utf8: [UInt8], maxDepth: Int, maxTreeBytes: Int = .max) {
        self.init(tokenizer: HTMLTokenizer(utf8: utf8), maxDepth: maxDepth, maxTreeBytes: maxTreeBytes)
    }

    /// Whether the page's tree would take more than it was allowed (it stops there, unfinished).
    private(set) var isOverLimit = false
    /// What the nodes built so far cost, as reckoned below (the root an element).
    private var treeBytes = elementCost

    /// What an element, a run of text and an attribute cost at the extraction's peak, as
    /// measured with heaptrack on element-dense pages: an element its node (48 bytes), its
    /// counts (`ArticleStats`, 68), its list of children and its place in the passes' lists; a
    /// run of text its node, counts and place in its parent's list (its text is the page's,
    /// bounded by the page); an attribute its two strings, and the value's bytes when they do
    /// not fit in the string itself.
    static let elementCost = 190
    static let textCost = 124
    static let attributeCost = 48

    private static func cost(of attributes: [HTMLTokenizer.Attribute]) -> Int {
        var total = 0
        for attribute in attributes {
            total += attributeCost
            let length = attribute.value.utf8.count
            if length > 15 { total += 32 + length }
        }
        return total
    }

    private init(tokenizer: consuming HTMLTokenizer, maxDepth: Int, maxTreeBytes: Int = .max) {
        nodes = [Node(name: "#document", tag: .document, attributes: [], text: "", parent: -1, children: [])]
        // Room for every node the page can make, asked for once: each tag starts with `<` and
        // makes at most one element, with at most one text node before it (adjacent text is one
        // node), and the paragraphs extraction adds for runs of line breaks and phrasing are
        // fewer than the nodes they wrap. Grown by doubling instead, the array was copied at
        // every step, the old and new copies both in memory at the last one (a third more at
        // the peak of an element-dense page). Room never written to is never touched, so it
        // costs address space only.
        nodes.reserveCapacity(min(2 * Self.tagCount(in: tokenizer.bytes), 2 * (maxTreeBytes / Self.textCost)) + 16)
        var stack = [Self.root]
        // Elements past the depth limit make no node; their end tags are matched here instead.
        var overflow: [String: Int] = [:]
        var tokenizer = tokenizer
        var buffer: [UInt8] = []
        // Whether a `head` may be open (so text and body tags must close it).
        var headOpen = false
        while let token = tokenizer.next() {
            if treeBytes > maxTreeBytes {
                isOverLimit = true
                return
            }
            switch token {
            case .text(let range):
                buffer.removeAll(keepingCapacity: true)
                tokenizer.appendText(range, to: &buffer)
                let text = String(decoding: buffer, as: UTF8.self)
                // Text starts the body, unless it is a title's (or a textarea's) own text.
                if headOpen {
                    let open = nodes[stack[stack.count - 1]].tag
                    if open != .title, open != .textarea, ArticleStats.textCounts(text).text > 0 {
                        leaveHead(&stack, &headOpen)
                    }
                }
                appendText(text, to: stack[stack.count - 1])
            case .rawText(let range):
                // A style's or script's code is never read (only JSON-LD is, for the metadata):
                // it makes no text node (it was a tenth of the text made and counted).
                if isUnreadCode(stack[stack.count - 1]) { continue }
                buffer.removeAll(keepingCapacity: true)
                tokenizer.appendText(range, to: &buffer, decode: false)
                appendText(String(decoding: buffer, as: UTF8.self), to: stack[stack.count - 1])
            case .startTag(let tag):
                let id = ArticleTag(name: tag.name)
                if headOpen, !Self.headContent.contains(id) { leaveHead(&stack, &headOpen) }
                let isVoid = Self.void.contains(id) || (tag.selfClosing && (id == .svg || id == .math))
                if stack.count >= maxDepth {
                    if !isVoid { overflow[tag.name, default: 0] += 1 }
                    // A flattened block still separates words.
                    if Self.closesParagraph.contains(id) || id == .br { appendText("\n", to: stack[stack.count - 1]) }
                    continue
                }
                closeImplied(by: id, stack: &stack)
                let index = append(
                    Node(name: tag.name, tag: id, attributes: tag.attributes, text: "", parent: stack[stack.count - 1], children: []))
                if !isVoid { stack.append(index) }
                if id == .head { headOpen = true }
            case .endTag(let name):
                if !overflow.isEmpty, let pending = overflow[name], pending > 0 {
                    overflow[name] = pending - 1
                    continue
                }
                let id = ArticleTag(name: name)
                guard id != .html, id != .body else { continue }
                if let position = stack.lastIndex(where: { nodes[$0].tag == id && (id != .other || nodes[$0].name == name) }),
                    position > 0
                {
                    stack.removeSubrange(position...)
                }
            }
        }
        for index in nodes.indices where nodes[index].tag == .text {
            let (length, commas) = ArticleStats.textCounts(nodes[index].text)
            nodes[index].textLength = length
            nodes[index].commas = commas
        }
    }

    /// How many `<` the page holds: at least as many as its tags.
    private static func tagCount(in bytes: [UInt8]) -> Int {
        var count = 0
        for byte in bytes where byte == UInt8(ascii: "<") { count += 1 }
        return count
    }

    /// A `style`, or a `script` other than JSON-LD, whose content nothing reads.
    private func isUnreadCode(_ index: Int) -> Bool {
        switch nodes[index].tag {
        case .style: true
        case .script: nodes[index].value(of: "type")?.lowercased() != "application/ld+json"
        default: false
        }
    }

    /// What a `head` holds; any other start tag (or text) means the body has begun.
    static let headContent = ArticleTagSet([
        .head, .html, .base, .basefont, .bgsound, .link, .meta, .title, .noscript, .noframes, .style, .script, .template,
    ])

    /// Elements that have no content and no end tag (`HTMLTokenizer.isVoid`'s list).
    static let void = ArticleTagSet([
        .area, .base, .basefont, .bgsound, .br, .col, .embed, .frame, .hr, .image, .img, .input, .keygen, .link, .meta,
        .param, .source, .track, .wbr,
    ])

    /// Closes an open `head` (and what is open inside it) when the body's content begins.
    private func leaveHead(_ stack: inout [Int], _ headOpen: inout Bool) {
        headOpen = false
        if let position = stack.lastIndex(where: { nodes[$0].tag == .head }), position > 0 {
            stack.removeSubrange(position...)
        }
    }

    // MARK: - Building

    private mutating func append(_ node: Node) -> Int {
        treeBytes += node.tag == .text ? Self.textCost : Self.elementCost + Self.cost(of: node.attributes)
        nodes.append(node)
        let index = nodes.count - 1
        nodes[node.parent].children.append(index)
        return index
    }

    private mutating func appendText(_ text: String, to parent: Int) {
        guard !text.isEmpty else { return }
        // Adjacent text (split by a skipped comment) is one node.
        if let last = nodes[parent].children.last, nodes[last].isText {
            nodes[last].append(text: text)
            return
        }
        _ = append(Node(name: "#text", tag: .text, attributes: [], text: text, parent: parent, children: []))
    }

    /// Elements a start tag of `name` closes when they are open (in the scope the HTML standard
    /// gives them): a new block ends a paragraph, a new item the previous one, and so on.
    private func closeImplied(by name: ArticleTag, stack: inout [Int]) {
        func close(_ targets: ArticleTagSet, stoppingAt boundaries: ArticleTagSet) {
            var position = stack.count - 1
            while position > 0 {
                let open = nodes[stack[position]].tag
                if targets.contains(open) {
                    stack.removeSubrange(position...)
                    return
                }
                if boundaries.contains(open) { return }
                position -= 1
            }
        }
        if Self.closesParagraph.contains(name) { close(Self.paragraph, stoppingAt: Self.scope) }
        switch name {
        case .li: close(Self.item, stoppingAt: Self.listScope)
        case .dt, .dd: close(Self.definition, stoppingAt: Self.definitionScope)
        case .tr: close(Self.row, stoppingAt: Self.rowScope)
        case .td, .th: close(Self.cell, stoppingAt: Self.cellScope)
        case .tbody, .thead, .tfoot: close(Self.section, stoppingAt: Self.tableScope)
        case .option: close(Self.option, stoppingAt: Self.optionScope)
        case .h1, .h2, .h3, .h4, .h5, .h6:
            if let top = stack.last, Self.headings.contains(nodes[top].tag) { stack.removeLast() }
        default: break
        }
    }

    // The elements each start tag closes, and where the search for them stops (made once: a
    // set built per tag was a tenth of the tree's building).
    private static let scope = ArticleTagSet([.table, .td, .th, .caption, .button, .object, .template, .html, .marquee])
    private static let paragraph = ArticleTagSet([.p])
    private static let item = ArticleTagSet([.li])
    private static let listScope = scope.union(ArticleTagSet([.ol, .ul]))
    private static let definition = ArticleTagSet([.dt, .dd])
    private static let definitionScope = scope.union(ArticleTagSet([.dl]))
    private static let row = ArticleTagSet([.tr, .td, .th])
    private static let rowScope = ArticleTagSet([.table, .tbody, .thead, .tfoot, .html])
    private static let cell = ArticleTagSet([.td, .th])
    private static let cellScope = ArticleTagSet([.tr, .table, .html])
    private static let section = ArticleTagSet([.tbody, .thead, .tfoot, .tr, .td, .th])
    private static let tableScope = ArticleTagSet([.table, .html])
    private static let option = ArticleTagSet([.option])
    private static let optionScope = ArticleTagSet([.select, .datalist, .optgroup, .html])

    static let headings = ArticleTagSet([.h1, .h2, .h3, .h4, .h5, .h6])

    /// Start tags that end an open `p` (the HTML standard's list).
    static let closesParagraph = ArticleTagSet([
        .address, .article, .aside, .blockquote, .center, .details, .dialog, .dir, .div, .dl, .fieldset, .figcaption,
        .figure, .footer, .form, .h1, .h2, .h3, .h4, .h5, .h6, .header, .hgroup, .hr, .li, .main, .menu, .nav, .ol, .p,
        .pre, .section, .summary, .table, .ul, .dd, .dt,
    ])

    // MARK: - Reading

    subscript(index: Int) -> Node { nodes[index] }

    /// Marks `index` (and so everything under it) as out of the tree.
    mutating func remove(_ index: Int) {
        guard index != Self.root else { return }
        nodes[index].removed = true
    }

    /// Renames an element (a `div` that holds only text becomes a `p`).
    mutating func rename(_ index: Int, to tag: ArticleTag) {
        nodes[index].name = String(describing: tag)
        nodes[index].tag = tag
    }

    /// The children still in the tree.
    func children(of index: Int) -> [Int] {
        nodes[index].children.filter { !nodes[$0].removed }
    }

    /// The element children still in the tree.
    func elementChildren(of index: Int) -> [Int] {
        nodes[index].children.filter { !nodes[$0].removed && !nodes[$0].isText }
    }

    /// Whether `index` is still in the tree (it and none of its ancestors removed).
    func isAttached(_ index: Int) -> Bool {
        var current = index
        while current >= 0 {
            if nodes[current].removed { return false }
            current = nodes[current].parent
        }
        return true
    }

    /// Every element under `index` still in the tree, in document order (`index` excluded).
    func descendants(of index: Int, where include: (Node) -> Bool = { _ in true }) -> [Int] {
        var result: [Int] = []
        var pending: [Int] = []
        pushChildren(of: index, to: &pending)
        while let next = pending.popLast() {
            if nodes[next].isText { continue }
            if include(nodes[next]) { result.append(next) }
            pushChildren(of: next, to: &pending)
        }
        return result
    }

    /// Every element under `index` still in the tree, with its tag, in document order. 32-bit
    /// indices, as the node's own: 8 bytes an element where 16 were (on an element-dense 10 MB
    /// page, 4 MB less at the peak).
    func elements(under index: Int) -> [(index: Int32, tag: ArticleTag)] {
        var result: [(index: Int32, tag: ArticleTag)] = []
        var pending: [Int] = []
        pushChildren(of: index, to: &pending)
        while let next = pending.popLast() {
            let tag = nodes[next].tag
            if tag == .text { continue }
            result.append((Int32(truncatingIfNeeded: next), tag))
            pushChildren(of: next, to: &pending)
        }
        return result
    }

    /// Every element tagged `tag` under `index` still in the tree, in document order.
    func descendants(of index: Int, tagged tag: ArticleTag) -> [Int] {
        descendants(of: index, tagged: ArticleTagSet([tag]))
    }

    /// Every element tagged one of `tags` under `index` still in the tree, in document order.
    func descendants(of index: Int, tagged tags: ArticleTagSet) -> [Int] {
        var result: [Int] = []
        var pending: [Int] = []
        pushChildren(of: index, to: &pending)
        while let next = pending.popLast() {
            let tag = nodes[next].tag
            if tag == .text { continue }
            if tags.contains(tag) { result.append(next) }
            pushChildren(of: next, to: &pending)
        }
        return result
    }

    /// `index`'s children still in the tree, last first (so popping gives document order),
    /// without an array of their own (the filtered copies were a twentieth of the time).
    @inline(__always) private func pushChildren(of index: Int, to pending: inout [Int]) {
        let children = nodes[index].children
        var position = children.count
        while position > 0 {
            position -= 1
            let child = children[position]
            if !nodes[child].removed { pending.append(child) }
        }
    }

    /// The first element named `name` under `index`, in document order.
    func first(_ name: String, under index: Int = root) -> Int? {
        let tag = ArticleTag(name: name)
        guard tag == .other else { return first(tag, under: index) }
        return descendants(of: index, where: { $0.tag == .other && $0.name == name }).first
    }

    /// The first element tagged `tag` under `index`, in document order.
    func first(_ tag: ArticleTag, under index: Int = root) -> Int? {
        first(tag, under: index) { _ in true }
    }

    /// The first element tagged `tag` under `index`, in document order, that `accept` takes.
    func first(_ tag: ArticleTag, under index: Int, where accept: (Int) -> Bool) -> Int? {
        var pending: [Int] = []
        pushChildren(of: index, to: &pending)
        while let next = pending.popLast() {
            if nodes[next].tag == tag, accept(next) { return next }
            pushChildren(of: next, to: &pending)
        }
        return nil
    }

    /// The ancestors of `index`, nearest first, at most `limit` (0: all), the document excluded.
    func ancestors(of index: Int, limit: Int = 0) -> [Int] {
        var result: [Int] = []
        var current = nodes[index].parent
        while current > Self.root, limit == 0 || result.count < limit {
            result.append(current)
            current = nodes[current].parent
        }
        return result
    }

    /// Whether an ancestor of `index` (within `depth` levels; 0: any) is tagged `tag`.
    func hasAncestor(_ index: Int, tagged tag: ArticleTag, depth: Int = 0) -> Bool {
        var current = nodes[index].parent
        var level = 0
        while current > Self.root, depth == 0 || level < depth {
            if nodes[current].tag == tag { return true }
            level += 1
            current = nodes[current].parent
        }
        return false
    }

    /// The text of `index`'s own text children (a `title`'s, a `script`'s), as written.
    func ownText(of index: Int) -> String {
        children(of: index).filter { nodes[$0].isText }.map { nodes[$0].text }.joined()
    }

    /// Puts `new` where `old` is (among `old`'s parent's children) and takes `old` out.
    /// `cursor` remembers, per parent, where the last replacement was, so replacing children in
    /// document order searches each parent's children once in all.
    mutating func replace(_ old: Int, with new: Int, cursor: inout [Int: Int]) {
        let parent = nodes[old].parent
        guard parent >= 0 else { return }
        let children = nodes[parent].children
        let start = min(cursor[parent] ?? 0, children.count)
        guard let position = children[start...].firstIndex(of: old) ?? children[..<start].firstIndex(of: old) else { return }
        cursor[parent] = position
        nodes[new].parent = parent
        nodes[parent].children[position] = new
        nodes[old].removed = true
    }

    /// Makes `wrapper` the parent of `children` (in their order), taking them out of their
    /// parents' lists in one pass per parent.
    mutating func adopt(_ children: [Int], into wrapper: Int) {
        let moving = Set(children)
        let parents = Set(children.map { nodes[$0].parent })
        for parent in parents where parent >= 0 {
            nodes[parent].children.removeAll { moving.contains($0) }
        }
        for child in children { nodes[child].parent = wrapper }
        nodes[wrapper].children.append(contentsOf: children)
    }

    /// The text under `index`, as it reads (scripts and styles skipped).
    func text(of index: Int) -> String {
        var out = ""
        appendText(of: index, to: &out)
        return out
    }

    private func appendText(of index: Int, to out: inout String) {
        if nodes[index].removed { return }
        let tag = nodes[index].tag
        if tag == .text {
            out += nodes[index].text
            return
        }
        if Self.noText.contains(tag) { return }
        for child in nodes[index].children { appendText(of: child, to: &out) }
    }

    /// Elements whose content is never text a reader reads.
    static let noText = ArticleTagSet([.script, .style, .noscript, .template, .head, .title, .svg])

    /// The first text node's text under `index` that is not all white space (nil: none, or not
    /// within the first 32 nodes: the walk is bounded, as it is asked of many small elements).
    func firstText(under index: Int) -> String? {
        firstTextNode(under: index).map { nodes[$0].text }
    }

    /// The first text node under `index` (still in the tree) that is not all white space: nil
    /// when there is none within the first `limit` nodes.
    func firstTextNode(under index: Int, limit: Int = 32) -> Int? {
        var pending = [index]
        var visited = 0
        while let next = pending.popLast() {
            visited += 1
            if visited > limit { return nil }
            if nodes[next].removed { continue }
            let tag = nodes[next].tag
            if tag == .text {
                if nodes[next].text.utf8.contains(where: { !ASCIIWhitespace.contains($0) }) { return next }
            } else if !Self.noText.contains(tag) {
                pending.append(contentsOf: nodes[next].children.reversed())
            }
        }
        return nil
    }

    /// Whether `index` holds at most `characters` of text in at most `nodes` nodes: a line, not a
    /// block. The walk stops at either bound, so asking it of every element costs each little.
    func isSmall(_ index: Int, characters: Int, nodes limit: Int) -> Bool {
        var length = 0
        var visited = 0
        var pending = [index]
        while let next = pending.popLast() {
            visited += 1
            if visited > limit { return false }
            if nodes[next].removed { continue }
            let tag = nodes[next].tag
            if tag == .text {
                length += Int(nodes[next].textLength)
                if length > characters { return false }
            } else if !Self.noText.contains(tag) {
                pending.append(contentsOf: nodes[next].children)
            }
        }
        return true
    }

    /// How much text is under `index` (as `ArticleStats` counts it), without building it.
    func textLength(of index: Int) -> Int {
        var length = 0
        var pending = [index]
        while let next = pending.popLast() {
            if nodes[next].removed { continue }
            let tag = nodes[next].tag
            if tag == .text {
                length += Int(nodes[next].textLength)
            } else if !Self.noText.contains(tag) {
                pending.append(contentsOf: nodes[next].children)
            }
        }
        return length
    }

    /// Whether there is any text under `index` (`textLength(of:) > 0`, stopping at the first).
    func hasText(_ index: Int) -> Bool {
        var pending = [index]
        while let next = pending.popLast() {
            if nodes[next].removed { continue }
            let tag = nodes[next].tag
            if tag == .text {
                if nodes[next].textLength > 0 { return true }
            } else if !Self.noText.contains(tag) {
                pending.append(contentsOf: nodes[next].children)
            }
        }
        return false
    }

    /// Words in `text`: runs of anything but white space.
    static func wordCount(_ text: String) -> Int {
        // Read as UTF-8 bytes, ASCII without decoding (scalar by scalar it was 2.6% of a
        // 10 MB page's extraction).
        var contiguous = text
        return contiguous.withUTF8 { bytes in
            var count = 0
            var inWord = false
            var position = 0
            while position < bytes.count {
                let byte = bytes[position]
                let space: Bool
                if byte < 0x80 {
                    space = ASCIIWhitespace.contains(byte)
                    position += 1
                } else {
                    let (scalar, length) = scalar(in: bytes, at: position)
                    space = isNonASCIIWhitespace(scalar)
                    position += length
                }
                if !space, !inWord { count += 1 }
                inWord = !space
            }
            return count
        }
    }

    /// The text under `index` with whitespace runs made one space and the ends trimmed.
    func normalizedText(of index: Int) -> String {
        Self.collapse(text(of: index))
    }

    /// `text` with whitespace runs made one space and the ends trimmed; read as UTF-8 bytes
    /// (appending scalars to a `String` was a twentieth of the time), the text returned as it
    /// is when nothing changes.
    static func collapse(_ text: String) -> String {
        var contiguous = text
        return contiguous.withUTF8 { bytes in
            if isCollapsed(bytes) { return text }
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count)
            appendCollapsed(bytes, to: &out)
            return String(decoding: out, as: UTF8.self)
        }
    }

    /// Appends valid UTF-8 `bytes` collapsed (as `collapse`) to `out`.
    static func appendCollapsed(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        var pendingSpace = false
        var wrote = false
        var position = 0
        while position < bytes.count {
            let byte = bytes[position]
            if byte < 0x80 {
                if ASCIIWhitespace.contains(byte) {
                    pendingSpace = wrote
                } else {
                    if pendingSpace { out.append(0x20) }
                    pendingSpace = false
                    out.append(byte)
                    wrote = true
                }
                position += 1
                continue
            }
            let (scalar, length) = scalar(in: bytes, at: position)
            if Self.isInvisible(scalar) {
                // Not there for a reader or a search: "Magda\u{AD}lener" is "Magdalener".
            } else if Self.isNonASCIIWhitespace(scalar) {
                pendingSpace = wrote
            } else {
                if pendingSpace { out.append(0x20) }
                pendingSpace = false
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[position..<position + length]))
                wrote = true
            }
            position += length
        }
    }

    /// Whether `bytes` (valid UTF-8) have no whitespace but single spaces between other
    /// characters.
    private static func isCollapsed(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var previousWasSpace = true
        var position = 0
        while position < bytes.count {
            let byte = bytes[position]
            if byte < 0x80 {
                if byte == 0x20 {
                    if previousWasSpace { return false }
                    previousWasSpace = true
                } else if ASCIIWhitespace.contains(byte) {
                    return false
                } else {
                    previousWasSpace = false
                }
                position += 1
                continue
            }
            let (scalar, length) = scalar(in: bytes, at: position)
            if Self.isNonASCIIWhitespace(scalar) || Self.isInvisible(scalar) { return false }
            previousWasSpace = false
            position += length
        }
        return !previousWasSpace || bytes.isEmpty
    }

    /// The scalar whose UTF-8 starts at `position` of valid UTF-8 `bytes`, and its length.
    @inline(__always) static func scalar(in bytes: UnsafeBufferPointer<UInt8>, at position: Int) -> (Unicode.Scalar, Int) {
        let lead = UInt32(bytes[position])
        if lead < 0x80 { return (Unicode.Scalar(UInt8(truncatingIfNeeded: lead)), 1) }
        let count = bytes.count
        @inline(__always) func continuation(_ offset: Int) -> UInt32 {
            position + offset < count ? UInt32(bytes[position + offset]) & 0x3F : 0
        }
        let value: UInt32
        let length: Int
        if lead < 0xE0 {
            value = (lead & 0x1F) << 6 | continuation(1)
            length = 2
        } else if lead < 0xF0 {
            value = (lead & 0x0F) << 12 | continuation(1) << 6 | continuation(2)
            length = 3
        } else {
            value = (lead & 0x07) << 18 | continuation(1) << 12 | continuation(2) << 6 | continuation(3)
            length = 4
        }
        return (Unicode.Scalar(value) ?? "\u{FFFD}", min(length, count - position))
    }

    /// White space, ASCII answered without the Unicode tables (most text is ASCII, and the
    /// table lookup was the extractor's largest cost).
    @inline(__always) static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return ASCIIWhitespace.contains(UInt8(truncatingIfNeeded: scalar.value)) }
        return isNonASCIIWhitespace(scalar)
    }

    /// Format characters that only guide layout and are never read: the soft hyphen (a place a
    /// word may break), the zero-width space, the word joiner and the zero-width no-break space
    /// (a stray byte order mark). Text for people and for search drops them; the article's HTML
    /// keeps what the page had. The zero-width joiner and non-joiner stay: they change how
    /// emoji and Arabic, Persian or Indic words are written.
    @inline(__always) static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0xAD, 0x200B, 0x2060, 0xFEFF: true
        default: false
        }
    }

    /// Unicode's White_Space property above ASCII (`properties.isWhitespace`), answered without
    /// the property tables (their lookups were 2.6% of the time on pages not in English). The
    /// list has been stable since Unicode 6.3 (U+180E left it then).
    @inline(__always) static func isNonASCIIWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }
}

// MARK: - Editing (what Readability does to a page before scoring it)

extension ArticleDocument {
    /// A new element `name` at `position` among `parent`'s children.
    mutating func makeElement(_ tag: ArticleTag, parent: Int, at position: Int) -> Int {
        nodes.append(Node(name: String(describing: tag), tag: tag, attributes: [], text: "", parent: parent, children: []))
        let index = nodes.count - 1
        nodes[parent].children.insert(index, at: min(max(position, 0), nodes[parent].children.count))
        return index
    }

    /// A text node of white space only (no character counted).
    func isWhitespaceText(_ index: Int) -> Bool {
        nodes[index].isText && nodes[index].textLength == 0
    }

    /// Phrasing content (text and inline elements), which a paragraph holds; `a`, `del` and
    /// `ins` only when all they hold is phrasing too.
    func isPhrasing(_ index: Int) -> Bool {
        let tag = nodes[index].tag
        if tag == .text { return true }
        if Self.phrasing.contains(tag) { return true }
        if tag == .a || tag == .del || tag == .ins {
            return nodes[index].children.allSatisfy { nodes[$0].removed || isPhrasing($0) }
        }
        return false
    }

    static let phrasing = ArticleTagSet([
        .abbr, .audio, .b, .bdo, .br, .button, .cite, .code, .data, .datalist, .dfn, .em, .embed, .i, .img, .input, .kbd,
        .label, .mark, .math, .meter, .noscript, .object, .output, .progress, .q, .ruby, .samp, .script, .select, .small,
        .span, .strong, .sub, .sup, .textarea, .time, .var, .wbr, .font, .u, .s, .strike, .tt, .big, .picture, .video,
    ])

    /// Two or more `<br>` in a row end a paragraph: the text after them becomes a `p` of its own
    /// (Readability's `_replaceBrs`), so pages written with line breaks are scored by paragraph.
    /// Each parent's children are read once.
    mutating func replaceBreakRuns(under root: Int) {
        var parents: [Int] = []
        var seen = Set<Int>()
        for br in descendants(of: root, tagged: .br) where seen.insert(nodes[br].parent).inserted {
            parents.append(nodes[br].parent)
        }
        for parent in parents { replaceBreakRuns(in: parent) }
    }

    private mutating func replaceBreakRuns(in parent: Int) {
        let old = nodes[parent].children.filter { !nodes[$0].removed }
        /// The first element or non-blank text at or after `position`.
        func nextNode(_ position: Int) -> Int? {
            var position = position
            while position < old.count {
                if !nodes[old[position]].removed, !isWhitespaceText(old[position]) { return position }
                position += 1
            }
            return nil
        }
        var children: [Int] = []
        children.reserveCapacity(old.count)
        var madeParagraph = false
        var position = 0
        while position < old.count {
            let br = old[position]
            position += 1
            if nodes[br].removed { continue }
            guard nodes[br].tag == .br else {
                children.append(br)
                continue
            }
            var replaced = false
            var next = nextNode(position)
            while let found = next, nodes[old[found]].tag == .br {
                replaced = true
                nodes[old[found]].removed = true
                next = nextNode(found + 1)
            }
            guard replaced else {
                children.append(br)
                continue
            }
            nodes[br].removed = true
            nodes.append(Node(name: "p", tag: .p, attributes: [], text: "", parent: parent, children: []))
            let paragraph = nodes.count - 1
            children.append(paragraph)
            madeParagraph = true
            while position < old.count {
                let sibling = old[position]
                if nodes[sibling].removed {
                    position += 1
                    continue
                }
                if nodes[sibling].tag == .br, let after = nextNode(position + 1), nodes[old[after]].tag == .br { break }
                guard isPhrasing(sibling) else { break }
                nodes[sibling].parent = paragraph
                nodes[paragraph].children.append(sibling)
                position += 1
            }
            while let last = nodes[paragraph].children.last, isWhitespaceText(last) || nodes[last].tag == .br {
                nodes[paragraph].children.removeLast()
                nodes[last].removed = true
            }
        }
        nodes[parent].children = children
        if madeParagraph, nodes[parent].tag == .p { rename(parent, to: .div) }
    }

    /// In a `div` that holds blocks, each run of phrasing content (text between the blocks)
    /// becomes a `p` of its own, so it is scored as a paragraph. Returns the new paragraphs.
    mutating func wrapPhrasingRuns(in div: Int) -> [Int] {
        let old = nodes[div].children
        var children: [Int] = []
        children.reserveCapacity(old.count)
        var created: [Int] = []
        var open: Int?
        for child in old where !nodes[child].removed {
            guard isPhrasing(child) else {
                open = nil
                children.append(child)
                continue
            }
            if let paragraph = open {
                nodes[child].parent = paragraph
                nodes[paragraph].children.append(child)
                continue
            }
            if isWhitespaceText(child) {
                children.append(child)
                continue
            }
            nodes.append(Node(name: "p", tag: .p, attributes: [], text: "", parent: div, children: [child]))
            let paragraph = nodes.count - 1
            nodes[child].parent = paragraph
            children.append(paragraph)
            created.append(paragraph)
            open = paragraph
        }
        nodes[div].children = children
        // Paragraphs that got only whitespace or breaks go.
        return created.filter { paragraph in
            let empty = nodes[paragraph].children.allSatisfy { isWhitespaceText($0) || nodes[$0].tag == .br }
            if empty { nodes[paragraph].removed = true }
            return !empty
        }
    }
}
