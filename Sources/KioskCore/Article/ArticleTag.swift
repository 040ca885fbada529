/// The element names the extractor asks about, as small numbers: every node carries its own, so
/// "is this a heading, a block, phrasing..." is a bit test instead of hashing a `String` into a
/// `Set` (hashing and comparing names was a sixth of the extractor's time).
enum ArticleTag: UInt8, CaseIterable {
    /// Any element not listed (its name is still in `Node.name`).
    case other
    case text, document
    case a, abbr, address, area, article, aside, audio, b, base, basefont, bdo, bgsound, big, blockquote, body, br
    case button, canvas, caption, center, cite, code, col, colgroup, data, datalist, dd, del, details, dfn, dialog
    case dir, div, dl, dt, em, embed, fieldset, figcaption, figure, font, footer, form, frame, h1, h2, h3, h4, h5
    case h6, head, header, hgroup, hr, html, i, iframe, image, img, input, ins, kbd, keygen, label, li, link, main
    case mark, marquee, math, menu, meta, meter, nav, noframes, noscript, object, ol, optgroup, option, output, p
    case param, picture, pre, progress, q, ruby, s, samp, script, section, select, small, source, span, strike
    case strong, style, sub, summary, sup, svg, table, tbody, td, template, textarea, tfoot, th, thead, time, title
    case tr, track, tt, u, ul, `var`, video, wbr

    /// The tag of an element named `name` (lowercase), `.other` when it is not listed.
    init(name: String) {
        self = Self.byName[name] ?? .other
    }

    private static let byName: [String: ArticleTag] = {
        var byName: [String: ArticleTag] = [:]
        for tag in allCases where tag != .other && tag != .text && tag != .document {
            byName[String(describing: tag)] = tag
        }
        return byName
    }()
}

/// A set of `ArticleTag`s as a bit mask.
struct ArticleTagSet: Sendable {
    private var low: UInt64 = 0
    private var high: UInt64 = 0

    init(_ tags: [ArticleTag]) {
        for tag in tags { insert(tag) }
    }

    private mutating func insert(_ tag: ArticleTag) {
        let bit = Int(tag.rawValue)
        if bit < 64 { low |= 1 << UInt64(bit) } else { high |= 1 << UInt64(bit - 64) }
    }

    @inline(__always) func contains(_ tag: ArticleTag) -> Bool {
        let bit = Int(tag.rawValue)
        return bit < 64 ? low & (1 << UInt64(bit)) != 0 : high & (1 << UInt64(bit - 64)) != 0
    }

    func union(_ other: ArticleTagSet) -> ArticleTagSet {
        var result = self
        result.low |= other.low
        result.high |= other.high
        return result
    }
}
