import Foundation
import KioskCore

/// The main article of a web page, from its bytes: the reader view.
///
/// The page is decoded (the charset the server named, else `<meta>`, else sniffed), built into a
/// tree, its metadata read (JSON-LD, OpenGraph, `<title>`), and its article found by scoring
/// paragraphs after Mozilla Readability (`ArticleGrabber`); when that gives less than 500
/// characters, the heuristics are relaxed one by one and the longest answer kept. The article's
/// HTML goes through `HTMLSanitizer`, so it is safe to show; relative URLs are resolved against
/// the page's URL.
public enum ArticleExtractor {
    public static func extract(
        _ bytes: [UInt8], url: String? = nil, charsetHint: String? = nil, limits: ArticleLimits = ArticleLimits(),
        rule: SiteRule? = nil
    ) throws(ArticleError) -> ReaderArticle {
        guard bytes.count <= limits.maxBytes else { throw .tooLarge(bytes: bytes.count, limit: limits.maxBytes) }
        let charset = charsetHint ?? HTMLSniffer.declaredCharset(bytes)
        // The decoded text is handed over, so it is freed as soon as the tokenizer has its bytes.
        // A site rule's drops go before anything else reads the tree.
        func parse() throws(ArticleError) -> ArticleDocument {
            var document = ArticleDocument(
                utf8: TextDecoding.utf8Bytes(bytes, charsetHint: charset), maxDepth: limits.maxDepth,
                maxTreeBytes: limits.maxTreeBytes)
            if document.isOverLimit { throw .tooComplex(treeBytes: limits.maxTreeBytes) }
            if let rule, !rule.drop.isEmpty { SiteRuleApplication.drop(rule.drop, from: &document) }
            return document
        }
        // The first attempt edits this tree in place; a relaxed retry (rare: under 500
        // characters found) parses the page again rather than every attempt holding an
        // untouched copy (on a 10 MB page, a copy is ten megabytes more at the peak).
        var unused: ArticleDocument? = try parse()
        guard let metadata = unused.map(ArticleMetadata.init) else { throw .emptyPage }
        let standfirsts = unused.map(Standfirst.find) ?? []
        guard let hasText = unused.map({ $0.hasText($0.first(.body) ?? ArticleDocument.root) }), hasText else {
            throw .emptyPage
        }

        var best: Grabbed?
        // A site rule's keep names the article outright, when the page has it.
        if let rule, !rule.keep.isEmpty, let document = unused,
            case let kept = SiteRuleApplication.kept(rule.keep, in: document), !kept.isEmpty
        {
            let length = kept.reduce(0) { $0 + document.textLength(of: $1) }
            if length > 0 {
                best = Grabbed(nodes: kept, document: document, length: length, byline: nil)
                unused = nil
            }
        }
        let ruled = best != nil
        // The page's own article, to judge the grabber's answer by.
        let declared = ruled ? nil : unused.flatMap(DeclaredArticle.find)
        let declaredLength = declared.flatMap { index in unused.map { $0.textLength(of: index) } } ?? 0
        func unusedOrParsed() throws(ArticleError) -> ArticleDocument {
            if let first = unused.take() { return first }
            return try parse()
        }
        func grab(scope: Int?, whole: Bool = false) throws(ArticleError)
            -> Grabbed?
        {
            var found: Grabbed?
            for flags in attempts {
                // Handed over without a name of its own: a local still holding the tree would
                // make the grabber's first edit copy all of it.
                var grabber = ArticleGrabber(
                    document: try unusedOrParsed(), flags: flags, title: metadata.title, scope: scope, wholeScope: whole)
                guard let grabbed = grabber.grab() else { continue }
                let length = grabbed.nodes.reduce(0) { $0 + grabbed.document.textLength(of: $1) }
                // A relaxed attempt finds more by keeping what the stricter ones left out as
                // boilerplate (an author's box, a comment): it must find four times as much to win.
                if found == nil || length > (found?.length ?? 0) * 4 {
                    found = Grabbed(nodes: grabbed.nodes, document: grabbed.document, length: length, byline: grabber.byline)
                }
                if length >= ArticleGrabber.characterThreshold { break }
            }
            return found
        }
        var judged = ruled
        if !ruled {
            best = try grab(scope: nil)
            // Nothing the grabber would call an article: the page's own, when it marks one.
            if (best?.length ?? 0) == 0, let declared {
                best = try grab(scope: declared, whole: true)
                judged = true
            }
        }
        guard var best, best.length > 0 else { throw .notAnArticle }
        // Mostly outside the page's own article: the grabber fell for something else on the
        // page (signatories, a form, an author box); look again inside the article.
        if let declared, !judged {
            if DeclaredArticle.shareInside(declared, of: best.nodes, in: best.document, length: best.length) < 0.5 {
                if let inside = try grab(scope: declared), inside.length >= DeclaredArticle.minimumText { best = inside }
            } else if best.length * 3 < declaredLength * 2, let whole = try grab(scope: declared, whole: true),
                whole.length > best.length * 3 / 2
            {
                // Under two thirds of the page's article (a letter's list of signatories and
                // not the letter): the article is the page's own, cleaned as any.
                best = whole
            }
        }
        guard best.length <= limits.maxArticleCharacters else {
            throw .tooLong(characters: best.length, limit: limits.maxArticleCharacters)
        }

        // Once the article is chosen (its length, which chose it, counted them).
        let lineAuthor = DateLine.removeLines(under: best.nodes, from: &best.document, keepDates: metadata.published == nil)
        ReaderAppeal.removeTrailing(under: best.nodes, from: &best.document)
        // Built once, for the answer kept (the judgement above reads the tree, not the text).
        var text = ArticleSerializer.plainText(of: best.nodes, in: best.document)
        guard !text.isEmpty else { throw .notAnArticle }
        var markup: [UInt8] = []
        if let standfirst = Standfirst.chosen(standfirsts, article: best.nodes, in: best.document, text: text) {
            markup += Array("<p>".utf8)
            HTMLEscaping.appendEscaped(standfirst.text, to: &markup)
            markup += Array("</p>".utf8)
            text = standfirst.text + "\n\n" + text
        }
        for node in best.nodes { ArticleSerializer.write(node, of: best.document, to: &markup) }
        let sanitized = HTMLSanitizer(baseURL: url).sanitize(utf8: markup)
        let wordCount = ArticleDocument.wordCount(text)
        let title = metadata.title
        let excerpt = metadata.excerpt ?? ArticleSerializer.firstParagraph(of: best.nodes, in: best.document)
        return ReaderArticle(
            title: title, byline: metadata.byline ?? best.byline ?? lineAuthor, published: metadata.published,
            siteName: metadata.siteName, language: metadata.language,
            image: metadata.image.map { URLResolution.resolve($0, against: url) }, excerpt: excerpt, html: sanitized,
            text: text, wordCount: wordCount)
    }

    /// An answer: the article's elements in the tree they live in, its text's length (which
    /// answers are judged by) and the byline the grabber found on the way.
    struct Grabbed {
        var nodes: [Int]
        var document: ArticleDocument
        var length: Int
        var byline: String?
    }

    /// Readability's order: all heuristics, then without stripping unlikely parts, then without
    /// weighing classes, then without cleaning by content.
    static let attempts: [ArticleGrabber.Flags] = [
        ArticleGrabber.Flags(),
        ArticleGrabber.Flags(stripUnlikelys: false),
        ArticleGrabber.Flags(stripUnlikelys: false, weightClasses: false),
        ArticleGrabber.Flags(stripUnlikelys: false, weightClasses: false, cleanConditionally: false),
    ]
}

/// Writes an article's tree back out as HTML (for the sanitizer) and as text.
enum ArticleSerializer {
    /// `index` and everything under it still in the tree, as HTML (UTF-8: string pieces joined
    /// with `+` were a twentieth of the time): text and attribute values escaped, elements as
    /// they were named.
    static func write(_ index: Int, of document: ArticleDocument, to out: inout [UInt8]) {
        let node = document.nodes[index]
        if node.removed { return }
        if node.isText {
            HTMLEscaping.appendEscaped(node.text, to: &out)
            return
        }
        if ArticleDocument.noText.contains(node.tag) { return }
        out.append(UInt8(ascii: "<"))
        out.append(contentsOf: node.name.utf8)
        let attributes = node.tag == .img || node.tag == .source ? lazyLoaded(node.attributes) : node.attributes
        // An attribute of more than 8 KB (a data: image, a style or class list of megabytes) is
        // never worth keeping in an article, which is stored and synced.
        for attribute in attributes where isName(attribute.name) && attribute.value.utf8.count <= 8_192 {
            out.append(UInt8(ascii: " "))
            out.append(contentsOf: attribute.name.utf8)
            out.append(UInt8(ascii: "="))
            out.append(UInt8(ascii: "\""))
            HTMLEscaping.appendEscaped(attribute.value, to: &out)
            out.append(UInt8(ascii: "\""))
        }
        out.append(UInt8(ascii: ">"))
        if ArticleDocument.void.contains(node.tag) { return }
        for child in node.children { write(child, of: document, to: &out) }
        out.append(UInt8(ascii: "<"))
        out.append(UInt8(ascii: "/"))
        out.append(contentsOf: node.name.utf8)
        out.append(UInt8(ascii: ">"))
    }

    /// An image that loads late (its address in `data-src`, `data-original`..., a placeholder or
    /// nothing in `src`) given its real address, as Readability's `_fixLazyImages` does.
    static func lazyLoaded(_ attributes: [HTMLTokenizer.Attribute]) -> [HTMLTokenizer.Attribute] {
        func value(_ name: String) -> String? { attributes.first(where: { $0.name == name })?.value }
        let source = value("src") ?? ""
        let isPlaceholder = source.isEmpty || (source.hasPrefix("data:") && source.utf8.count < 200)
        guard isPlaceholder else { return attributes }
        let lazy = ["data-src", "data-original", "data-lazy-src", "data-url", "data-hi-res-src"].lazy.compactMap(value).first
        let lazySet = ["data-srcset", "data-lazy-srcset"].lazy.compactMap(value).first
        var result = attributes.filter { $0.name != "src" && ($0.name != "srcset" || lazySet == nil) }
        if let lazy, !lazy.isEmpty { result.append(HTMLTokenizer.Attribute(name: "src", value: lazy)) }
        if let lazySet, !lazySet.isEmpty { result.append(HTMLTokenizer.Attribute(name: "srcset", value: lazySet)) }
        if lazy == nil, lazySet == nil, !source.isEmpty { return attributes }
        return result
    }

    /// Attribute names written back: letters, digits, `-`, `_`, `:` (anything else is dropped).
    private static func isName(_ name: String) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy { byte in
                let lower = byte | 0x20
                return (lower >= 0x61 && lower <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x5F
                    || byte == 0x3A
            }
    }

    /// Elements after which text starts a new paragraph.
    static let blocks = ArticleTagSet([
        .p, .div, .section, .article, .blockquote, .pre, .ul, .ol, .li, .dl, .dt, .dd, .table, .tr, .h1, .h2, .h3, .h4,
        .h5, .h6, .figure, .figcaption, .header, .footer, .main, .aside, .address, .hr, .br,
    ])

    /// An image's credit ("Foto: dpa/Jane Doe", "© Getty Images", a caption's `copyright-note`):
    /// the reader view shows it under its image, but it is nobody's text to read or search.
    static func isCredit(_ index: Int, in document: ArticleDocument) -> Bool {
        let node = document.nodes[index]
        guard node.tag != .text else { return false }
        let isCreditClass = !node.attributes.isEmpty && (node.value(of: "class").map { creditClasses.matches($0) } ?? false)
        guard isCreditClass || creditHolders.contains(node.tag) else { return false }
        // A line, not a block (an `<article class="has-credits">` is no credit).
        guard document.isSmall(index, characters: 160, nodes: 24) else { return false }
        if isCreditClass { return true }
        // Its words are read only when its first byte could start a credit's label.
        guard let first = document.firstText(under: index), CreditLine.mayStart(first) else { return false }
        return CreditLine.matches(document.normalizedText(of: index))
    }

    static let creditClasses = Keywords(fragments: ["copyright", "credit", "photographer", "bildnachweis", "image-source"])
    static let creditHolders = ArticleTagSet([.figcaption, .small, .span, .p, .cite, .div])

    /// A ruby's readings (`<rt>`) and the brackets around them (`<rp>`): the HTML shows them
    /// above the characters, but inline in plain text they would double every annotated word
    /// (子<rt>こ</rt> read as "子こ").
    static let rubyAnnotations = ArticleTagSet([.rt, .rp])

    /// The article's text: its blocks as paragraphs separated by a blank line, whitespace
    /// within each collapsed.
    /// Built as UTF-8, each paragraph collapsed straight into the result.
    static func plainText(of nodes: [Int], in document: ArticleDocument) -> String {
        var out: [UInt8] = []
        var current: [UInt8] = []
        // Inside an image's caption, whose credit stays out of the text.
        var captionDepth = 0
        func flush() {
            guard !current.isEmpty else { return }
            if captionDepth > 0, let kept = CaptionCredit.withoutCredit(String(decoding: current, as: UTF8.self)) {
                current = Array(kept.utf8)
            }
            let start = out.count
            if start > 0 { out.append(contentsOf: [0x0A, 0x0A]) }
            let separated = out.count
            current.withUnsafeBufferPointer { ArticleDocument.appendCollapsed($0, to: &out) }
            // Nothing but white space: no paragraph, and no separator.
            if out.count == separated { out.removeSubrange(start...) }
            current.removeAll(keepingCapacity: true)
        }
        // `previous`: the element before `index` among its siblings (white space between).
        func visit(_ index: Int, previous: Int?) {
            if document.nodes[index].removed { return }
            let tag = document.nodes[index].tag
            if tag == .text {
                current.append(contentsOf: document.nodes[index].text.utf8)
                return
            }
            if ArticleDocument.noText.contains(tag) || rubyAnnotations.contains(tag) { return }
            if isCredit(index, in: document) { return }
            let isBlock = blocks.contains(tag)
            let isCaption = isBlock && CaptionCredit.isCaption(index, previous: previous, in: document)
            if isBlock { flush() }
            if isCaption { captionDepth += 1 }
            if tag == .td || tag == .th { current.append(0x20) }
            var before: Int?
            for child in document.nodes[index].children {
                visit(child, previous: before)
                // Read in place: a copy of the node (its strings and lists) was a twentieth of the time.
                if document.nodes[child].removed { continue }
                if document.nodes[child].tag != .text {
                    before = child
                } else if document.nodes[child].textLength > 0 {
                    before = nil
                }
            }
            if isBlock { flush() }
            if isCaption { captionDepth -= 1 }
        }
        for node in nodes { visit(node, previous: nil) }
        flush()
        let text = String(decoding: out, as: UTF8.self)
        // One spelling per character (NFC), as search and people compare them: a page's
        // precomposed Bengali য় and the same letter typed as য + ়  are one word.
        return UnicodeComposition.mayChangeInNFC(out) ? text.precomposedStringWithCanonicalMapping : text
    }

    /// The article's first paragraph with text, for an excerpt (the walk stops there: listing
    /// every paragraph of a 10 MB article first was a hundredth of its time).
    static func firstParagraph(of nodes: [Int], in document: ArticleDocument) -> String? {
        for node in nodes {
            if document.nodes[node].tag == .p, case let text = document.normalizedText(of: node), !text.isEmpty { return text }
            var found: String?
            _ = document.first(.p, under: node) { paragraph in
                let text = document.normalizedText(of: paragraph)
                if !text.isEmpty { found = text }
                return found != nil
            }
            if let found { return found }
        }
        return nil
    }
}
