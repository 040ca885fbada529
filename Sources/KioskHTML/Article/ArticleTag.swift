import KioskCore
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
    case param, picture, pre, progress, q, rp, rt, ruby, s, samp, script, section, select, small, source, span, strike
    case strong, style, sub, summary, sup, svg, table, tbody, td, template, textarea, tfoot, th, thead, time, title
    case tr, track, tt, u, ul, `var`, video, wbr

    /// The tag of an element named `name` (lowercase), `.other` when it is not listed.
    ///
    /// Found by the name's bytes packed into two integers, searched in a sorted list (hashing
    /// the name as a `String` for a dictionary was 2% of a large page's extraction).
    init(name: String) {
        var contiguous = name
        guard let key = contiguous.withUTF8(Self.key) else {
            self = .other
            return
        }
        let keys = Self.sortedKeys
        var low = 0
        var high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if keys[middle].key < key { low = middle + 1 } else { high = middle }
        }
        self = low < keys.count && keys[low].key == key ? keys[low].tag : .other
    }

    /// A name of at most 16 bytes as two big-endian integers (so their order is the names'
    /// byte order); nil for a longer name, which no listed tag has.
    private static func key(_ bytes: UnsafeBufferPointer<UInt8>) -> Key? {
        guard !bytes.isEmpty, bytes.count <= 16 else { return nil }
        var first: UInt64 = 0
        var second: UInt64 = 0
        for position in 0..<16 {
            let byte = position < bytes.count ? UInt64(bytes[position]) : 0
            if position < 8 { first = first << 8 | byte } else { second = second << 8 | byte }
        }
        return Key(first: first, second: second)
    }

    private struct Key: Comparable {
        let first: UInt64
        let second: UInt64

        static func < (lhs: Key, rhs: Key) -> Bool {
            lhs.first < rhs.first || (lhs.first == rhs.first && lhs.second < rhs.second)
        }
    }

    private static let sortedKeys: [(key: Key, tag: ArticleTag)] = allCases
        .filter { $0 != .other && $0 != .text && $0 != .document }
        .compactMap { tag in
            var name = String(describing: tag)
            return name.withUTF8(key).map { (key: $0, tag: tag) }
        }
        .sorted { $0.key < $1.key }
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
