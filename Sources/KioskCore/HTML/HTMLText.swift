import Foundation

/// Plain text from HTML, for one-line summaries in lists and for titles.
public enum HTMLText {
    /// The readable text of an HTML fragment on one line: tags stripped, character references
    /// decoded, block elements (`p`, `br`, `div`, `li`, headings...) read as a space, whitespace
    /// (including no-break spaces) collapsed to single spaces and trimmed.
    ///
    /// Content that is not reading matter is dropped with its element: `script`, `style`,
    /// `head` (and so `title`: a document's title repeats the headline), `template`, `noscript`,
    /// embedded objects and frames, SVG and MathML, form controls, and FeedBurner's
    /// `<div class="feedflare">` sharing block.
    public static func plainText(fromHTML html: String) -> String {
        var contiguous = html
        let simple = contiguous.withUTF8 { source in
            !source.contains(UInt8(ascii: "<")) && !source.contains(UInt8(ascii: "&"))
        }
        if simple { return collapsingWhitespace(html) }

        var tokenizer = HTMLTokenizer(html)
        var writer = Writer()
        var pending: HTMLTokenizer.Token?
        while let token = pending ?? tokenizer.next() {
            pending = nil
            switch token {
            case .text(let range):
                writer.appendText(range, of: tokenizer)
            case .rawText(let range):
                // `xmp`, `plaintext` and CDATA content (the rest is dropped): shown as written.
                writer.appendText(range, of: tokenizer, decode: false)
            case .startTag(let tag):
                switch roles[tag.name] {
                case .dropped?:
                    if !HTMLTokenizer.isVoid(tag.name) && !(tag.selfClosing && HTMLTokenizer.isForeign(tag.name)) {
                        pending = tokenizer.skipContent(of: tag.name)
                    }
                    writer.breakWord()
                case .block?:
                    if tag.isFeedFlare { pending = tokenizer.skipContent(of: tag.name) }
                    writer.breakWord()
                case nil:
                    break
                }
            case .endTag(let name):
                if roles[name] == .block { writer.breakWord() }
            }
        }
        return String(decoding: writer.out, as: UTF8.self)
    }

    /// The words of a title that may hold markup (Atom `type="html"`, RSS titles with tags or
    /// references): references decoded, tags stripped, whitespace collapsed and trimmed.
    ///
    /// A title is text, not a document: what follows a tag is always kept, whatever the tag
    /// (`Hello <svg onload=x> world` is "Hello world", where a document's `<svg>` or an unclosed
    /// `<script>` would hide the rest), and a `<` starting markup cut off by the end stays text
    /// (`if x<y`). Only the content of a `script` or `style` that is closed is dropped: code, not
    /// words.
    public static func plainText(fromTitle title: String) -> String {
        var contiguous = title
        let simple = contiguous.withUTF8 { source in
            !source.contains(UInt8(ascii: "<")) && !source.contains(UInt8(ascii: "&"))
        }
        if simple { return collapsingWhitespace(title) }

        var tokenizer = HTMLTokenizer(title, mode: .text)
        var writer = Writer()
        // The open `script` or `style` and where its content began, to cut it off at its end tag.
        var code: (name: String, mark: Writer.Mark)?
        while let token = tokenizer.next() {
            switch token {
            case .text(let range):
                writer.appendText(range, of: tokenizer)
            case .rawText(let range):
                writer.appendText(range, of: tokenizer, decode: false)
            case .startTag(let tag):
                if code == nil && (tag.name == "script" || tag.name == "style") {
                    code = (tag.name, writer.mark)
                }
                if roles[tag.name] != nil { writer.breakWord() }
            case .endTag(let name):
                if let open = code, open.name == name {
                    writer.rollBack(to: open.mark)
                    code = nil
                }
                if roles[name] != nil { writer.breakWord() }
            }
        }
        return String(decoding: writer.out, as: UTF8.self)
    }

    /// Collapses whitespace in text that has no markup, returning it untouched when it is
    /// already collapsed (the common case for plain-text summaries).
    private static func collapsingWhitespace(_ text: String) -> String {
        var contiguous = text
        return contiguous.withUTF8 { source in
            if isCollapsed(source) { return text }
            var writer = Writer()
            writer.out.reserveCapacity(source.count)
            writer.append(source)
            return String(decoding: writer.out, as: UTF8.self)
        }
    }

    /// True when the text has no whitespace but single spaces between words.
    private static func isCollapsed(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var previousWasSpace = true
        for byte in bytes {
            switch byte {
            case 0x20:
                if previousWasSpace { return false }
                previousWasSpace = true
            case 0x09, 0x0A, 0x0C, 0x0D, 0xA0:
                // 0xA0 ends U+00A0 (and a few other characters, which the slow path tells apart).
                return false
            default:
                previousWasSpace = false
            }
        }
        return !previousWasSpace || bytes.isEmpty
    }

    /// What an element means for plain text; elements not listed are inline.
    private enum Role {
        /// Not reading matter: dropped with its content.
        case dropped
        /// Separates words where it starts and ends.
        case block
    }

    private static let roles: [String: Role] = {
        var roles: [String: Role] = [:]
        let dropped = [
            // Not `object`/`applet`: their content is the fallback a browser without plugins shows.
            "script", "style", "head", "title", "template", "noscript", "iframe", "noembed", "noframes",
            "embed", "svg", "math", "select", "textarea", "button", "frameset",
        ]
        let blocks = [
            "address", "article", "aside", "blockquote", "body", "br", "caption", "center", "dd", "details", "dialog",
            "dir", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4",
            "h5", "h6", "header", "hgroup", "hr", "html", "legend", "li", "main", "menu", "nav", "ol", "option", "p",
            "pre", "section", "summary", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul",
        ]
        for name in dropped { roles[name] = .dropped }
        for name in blocks { roles[name] = .block }
        return roles
    }()

    /// Accumulates collapsed text: a run of whitespace or word breaks becomes one space, written
    /// only once more text follows, so the result is trimmed at both ends.
    private struct Writer {
        var out: [UInt8] = []
        private var pendingSpace = false
        /// A tokenizer's text, decoded, before it is written (reused: no allocation per text run).
        private var scratch: [UInt8] = []

        /// A point in the output to roll back to.
        struct Mark {
            fileprivate let count: Int
            fileprivate let pendingSpace: Bool
        }

        var mark: Mark { Mark(count: out.count, pendingSpace: pendingSpace) }

        /// Drops what was written since `mark` (each byte is dropped at most once: still linear).
        mutating func rollBack(to mark: Mark) {
            out.removeSubrange(mark.count...)
            pendingSpace = mark.pendingSpace
        }

        /// The text of `range` (its references decoded unless `decode` is false), as words.
        mutating func appendText(_ range: Range<Int>, of tokenizer: HTMLTokenizer, decode: Bool = true) {
            scratch.removeAll(keepingCapacity: true)
            tokenizer.appendText(range, to: &scratch, decode: decode)
            append(scratch)
        }

        mutating func breakWord() {
            pendingSpace = !out.isEmpty
        }

        mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
            let count = bytes.count
            var index = 0
            var runStart = 0
            while index < count {
                let byte = bytes[index]
                let spaceLength: Int
                if byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D || byte == 0x0C {
                    spaceLength = 1
                } else if byte == 0xC2 && index + 1 < count && bytes[index + 1] == 0xA0 {
                    // U+00A0 (no-break space) is mostly layout padding in feeds: collapse it too.
                    spaceLength = 2
                } else {
                    index += 1
                    continue
                }
                appendWord(UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                breakWord()
                index += spaceLength
                runStart = index
            }
            appendWord(UnsafeBufferPointer(rebasing: bytes[runStart..<count]))
        }

        /// Appends bytes without whitespace, after the space pending before them.
        private mutating func appendWord(_ word: UnsafeBufferPointer<UInt8>) {
            guard !word.isEmpty else { return }
            if pendingSpace {
                out.append(0x20)
                pendingSpace = false
            }
            out.append(contentsOf: word)
        }

        mutating func append(_ bytes: [UInt8]) {
            bytes.withUnsafeBufferPointer { append($0) }
        }
    }
}
