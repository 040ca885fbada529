import Foundation
import KioskCore

/// The links of a page that may lead to feeds, collected in one pass of ``HTMLTokenizer`` and
/// judged later, once the `<base>` (which may come after them) is known.
///
/// The tokenizer skips comments and reads `script`, `style`, `noscript` and `title` as text, so
/// markup inside them (`document.write('<link ...>')`) is not taken for links.
struct PageLinks {
    /// A `<link rel="alternate">`, wherever it stands: many pages put them in the body.
    struct LinkElement {
        var href: String
        var type: String?
        var title: String?
        var hasHreflang: Bool
        var hasMedia: Bool
    }

    /// An `<a href>` with what it says about itself.
    struct Anchor {
        var href: String
        var type: String?
        var title: String?
        /// The link's text with references decoded (and images' `alt`), not yet cleaned.
        var text: String
    }

    /// Bytes of an anchor's text kept: enough for any title, bounded against a page that is one
    /// unclosed `<a>`.
    static let maximumAnchorTextBytes = 2048

    private(set) var links: [LinkElement] = []
    private(set) var anchors: [Anchor] = []
    /// The `href` of the first `<base>` that has one.
    private(set) var baseHref: String?

    init(html: String) {
        var tokenizer = HTMLTokenizer(html)
        var open: OpenAnchor?
        while let token = tokenizer.next() {
            switch token {
            case .startTag(let tag):
                switch tag.name {
                case "link":
                    addLink(tag)
                case "base":
                    if baseHref == nil, let href = tag.value(of: "href") { baseHref = href }
                case "a":
                    // An `<a>` inside an open one closes it, as in browsers.
                    close(&open)
                    if let href = tag.value(of: "href") {
                        open = OpenAnchor(href: href, type: tag.value(of: "type"), title: tag.value(of: "title"))
                    }
                case "img":
                    if let alt = tag.value(of: "alt") { open?.appendWord(Array(alt.utf8)) }
                default:
                    if !Self.inlineElements.contains(tag.name) { open?.appendWord([]) }
                }
            case .endTag(let name):
                if name == "a" {
                    close(&open)
                } else if !Self.inlineElements.contains(name) {
                    open?.appendWord([])
                }
            case .text(let range):
                if open != nil {
                    var scratch: [UInt8] = []
                    tokenizer.appendText(range, to: &scratch)
                    open?.append(scratch)
                }
            case .rawText:
                break
            }
        }
        close(&open)
    }

    private mutating func addLink(_ tag: HTMLTokenizer.Tag) {
        guard let rel = tag.value(of: "rel"), FeedLinkRules.isAlternate(rel: rel),
            let href = tag.value(of: "href")
        else { return }
        links.append(
            LinkElement(
                href: href, type: tag.value(of: "type"), title: tag.value(of: "title"),
                hasHreflang: tag.value(of: "hreflang") != nil, hasMedia: tag.value(of: "media") != nil))
    }

    private mutating func close(_ open: inout OpenAnchor?) {
        guard let anchor = open else { return }
        anchors.append(anchor.finished)
        open = nil
    }

    /// Elements that do not separate words in a link's text (`R<b>SS</b>` reads "RSS").
    private static let inlineElements: Set<String> = [
        "abbr", "b", "bdi", "bdo", "cite", "code", "data", "dfn", "em", "font", "i", "kbd", "mark", "q", "s",
        "samp", "small", "span", "strong", "sub", "sup", "time", "u", "var",
    ]

    /// An `<a>` whose end tag has not been read yet.
    private struct OpenAnchor {
        var href: String
        var type: String?
        var title: String?
        var text: [UInt8] = []

        /// Appends text, up to ``PageLinks/maximumAnchorTextBytes``.
        mutating func append(_ bytes: [UInt8]) {
            let room = PageLinks.maximumAnchorTextBytes - text.count
            guard room > 0 else { return }
            // A cut inside a character would read as U+FFFD: cut before it instead.
            let end = bytes.count > room ? FeedDiscovery.characterBoundary(bytes, before: room) : bytes.count
            text.append(contentsOf: bytes[..<end])
        }

        /// Appends a word separated by spaces (an element boundary when `word` is empty).
        mutating func appendWord(_ word: [UInt8]) {
            append([0x20] + word + [0x20])
        }

        var finished: Anchor {
            Anchor(href: href, type: type, title: title, text: String(decoding: text, as: UTF8.self))
        }
    }
}
