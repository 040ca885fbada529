import Foundation

/// An image's credit at the end of its caption ("… aus der Schweiz. © AFP / Jane Doe", "… gut
/// getarnt. (mlharing / iStock.com)", "Roman Prymula, photo: Archives …"): the reader view shows
/// the caption with it under the image, but the credit is nobody's text to read or search. Only
/// the tail of a caption is cut from the plain text, never a paragraph of the article, and the
/// HTML keeps it. A caption that is only a credit is `CreditLine`'s.
enum CaptionCredit {
    /// Whether block `index` is an image's caption: a `figcaption`, a block whose class says
    /// caption, one right after an element that is only an image (`previous`), or one whose
    /// first content is an image; and, all but the first, a line rather than a block of text.
    static func isCaption(_ index: Int, previous: Int?, in document: ArticleDocument) -> Bool {
        if document.nodes[index].tag == .figcaption { return true }
        let byClass = !document.nodes[index].attributes.isEmpty
            && (document.nodes[index].value(of: "class").map { captionClasses.matches($0) } ?? false)
        guard byClass || previous.map({ isImageOnly($0, in: document) }) == true || opensWithImage(index, in: document) else {
            return false
        }
        return document.isSmall(index, characters: 400, nodes: 64)
    }

    static let captionClasses = Keywords(fragments: [
        "caption", "bildunterschrift", "imagedescription", "image-description", "img-desc", "img-metadata",
        "wp-caption", "legende", "legend",
    ])

    /// Whether `index` holds an image and no text (a link or box around a picture), looking at
    /// no more than a few dozen nodes.
    static func isImageOnly(_ index: Int, in document: ArticleDocument) -> Bool {
        var pending = [index]
        var visited = 0
        var image = false
        while let next = pending.popLast() {
            visited += 1
            if visited > 40 { return false }
            if document.nodes[next].removed { continue }
            let tag = document.nodes[next].tag
            switch tag {
            case .img, .picture, .image: image = true
            case .text: if document.nodes[next].textLength > 0 { return false }
            default: if !ArticleDocument.noText.contains(tag) { pending.append(contentsOf: document.nodes[next].children) }
            }
        }
        return image
    }

    /// Whether the first thing in `index`, before any text, is an image (a paragraph holding the
    /// picture and, after it, its caption).
    static func opensWithImage(_ index: Int, in document: ArticleDocument) -> Bool {
        var current = index
        for _ in 0..<6 {
            let first = document.nodes[current].children.first { child in
                !document.nodes[child].removed && !(document.nodes[child].tag == .text && document.nodes[child].textLength == 0)
            }
            guard let first else { return false }
            switch document.nodes[first].tag {
            case .img, .picture, .image: return true
            case .text: return false
            default: current = first
            }
        }
        return false
    }

    /// `text` (a caption's, white space as on the page) without the credit it ends with; nil
    /// when it ends with none.
    static func withoutCredit(_ text: String) -> String? {
        let line = ArticleDocument.collapse(text)
        guard !line.isEmpty, line.utf8.count <= 1_600, line.count <= 400 else { return nil }
        let lowered = LoweredText(line)
        let bytes = lowered.bytes
        var cut: Int?
        for label in labelBytes {
            var end = bytes.count
            while let found = lowered.lastOffset(of: label, before: end) {
                end = found
                guard opensCredit(at: found, in: bytes) else { continue }
                let tail = String(decoding: bytes[found...], as: UTF8.self)
                guard tail.count <= 100, tail.split(separator: " ").count <= 14 else { break }
                if cut.map({ found < $0 }) ?? true { cut = found }
            }
        }
        if bytes.last == 0x29, let open = bytes.lastIndex(of: 0x28), bytes.count - open <= 300,
            isAgency(String(decoding: bytes[(open + 1)...], as: UTF8.self))
        {
            if cut.map({ open < $0 }) ?? true { cut = open }
        }
        guard let cut else { return nil }
        let kept = String(decoding: Array(line.utf8)[..<cut], as: UTF8.self)
        return String(String(kept.reversed().drop(while: { separators.contains($0) })).reversed())
    }

    /// Words that open a credit within a caption, lowercase.
    static let labels = [
        "©", "foto:", "fotos:", "photo:", "photos:", "bild:", "bilder:", "bildquelle:", "image:", "quelle:", "source:",
        "credit:", "credits:", "crédit:", "crédits:", "crédit photo", "photograph:", "photograph by",
        "picture:", "fot.", "zdjęcie:", "źródło:", "foto di", "copyright:",
    ]

    static let labelBytes = LoweredText.phrases(labels)

    /// What may stand before a label: the caption's start, a space, a bracket or a separator
    /// (ASCII, or the last byte of an en or em dash).
    private static func opensCredit(at offset: Int, in bytes: [UInt8]) -> Bool {
        guard offset > 0 else { return true }
        let before = bytes[offset - 1]
        return before == 0x20 || Array("([|/,;.-".utf8).contains(before) || (offset >= 3 && bytes[offset - 3] == 0xE2 && bytes[offset - 2] == 0x80)
    }

    /// Left between the caption and its credit.
    private static let separators: Set<Character> = [" ", "|", "/", ",", ";", "(", "[", "–", "—", "-", ":", "·", "•"]

    /// Whether a bracketed tail names a photo agency or a credit.
    private static func isAgency(_ inner: String) -> Bool {
        let lower = inner.lowercased()
        if lower.contains("©") || agencyFragments.contains(where: { lower.contains($0) }) { return true }
        let words = lower.split(whereSeparator: { !$0.isLetter })
        return words.contains(where: { agencyWords.contains(String($0)) })
    }

    private static let agencyFragments = [
        "getty", "shutterstock", "istock", "unsplash", "pixabay", "picture alliance", "picture-alliance", "adobe stock",
        "adobestock", "fotolia", "keystone", "reuters", "imago",
    ]
    private static let agencyWords: Set<String> = ["dpa", "afp", "epa", "ap", "ddp", "apa", "anp"]
}
