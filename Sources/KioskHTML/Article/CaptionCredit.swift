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
        let node = document.nodes[index]
        if node.tag == .figcaption { return true }
        let byClass = !node.attributes.isEmpty && (node.value(of: "class").map { captionClasses.matches($0) } ?? false)
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
            let node = document.nodes[next]
            if node.removed { continue }
            switch node.tag {
            case .img, .picture, .image: image = true
            case .text: if node.textLength > 0 { return false }
            default: if !ArticleDocument.noText.contains(node.tag) { pending.append(contentsOf: node.children) }
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
                let node = document.nodes[child]
                return !node.removed && !(node.tag == .text && node.textLength == 0)
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
        guard !line.isEmpty, line.count <= 400 else { return nil }
        var cut: String.Index?
        for label in labels {
            var searchEnd = line.endIndex
            while let found = line.range(of: label, options: [.caseInsensitive, .backwards], range: line.startIndex..<searchEnd) {
                searchEnd = found.lowerBound
                guard opensCredit(at: found.lowerBound, in: line) else { continue }
                let tail = line[found.lowerBound...]
                guard tail.count <= 100, tail.split(separator: " ").count <= 14 else { break }
                if cut.map({ found.lowerBound < $0 }) ?? true { cut = found.lowerBound }
            }
        }
        if line.hasSuffix(")"), let open = line.lastIndex(of: "("), isAgency(line[line.index(after: open)...]),
            line.distance(from: open, to: line.endIndex) <= 100
        {
            if cut.map({ open < $0 }) ?? true { cut = open }
        }
        guard let cut else { return nil }
        let kept = line[..<cut].reversed().drop(while: { separators.contains($0) })
        return String(kept.reversed())
    }

    /// Words that open a credit within a caption, lowercase.
    static let labels = [
        "©", "foto:", "fotos:", "photo:", "photos:", "bild:", "bilder:", "bildquelle:", "image:", "quelle:", "source:",
        "credit:", "credits:", "crédit:", "crédits:", "crédit photo", "photograph:", "photograph by",
        "picture:", "fot.", "zdjęcie:", "źródło:", "foto di", "copyright:",
    ]

    /// What may stand before a label: the caption's start, a space or a bracket or separator.
    private static func opensCredit(at index: String.Index, in line: String) -> Bool {
        guard index > line.startIndex else { return true }
        let before = line[line.index(before: index)]
        return before == " " || "([|/,;.–—-".contains(before)
    }

    /// Left between the caption and its credit.
    private static let separators: Set<Character> = [" ", "|", "/", ",", ";", "(", "[", "–", "—", "-", ":", "·", "•"]

    /// Whether a bracketed tail names a photo agency or a credit.
    private static func isAgency(_ inner: Substring) -> Bool {
        let lower = inner.lowercased()
        if lower.contains("©") || agencyFragments.contains(where: { lower.contains($0) }) { return true }
        let words = lower.split(whereSeparator: { !$0.isLetter })
        return words.contains(where: { agencyWords.contains(String($0)) })
    }

    private static let agencyFragments = [
        "getty", "shutterstock", "istock", "unsplash", "pixabay", "picture alliance", "picture-alliance", "adobe stock",
        "adobestock", "fotolia", "keystone", "reuters", "imago",
    ]
    private static let agencyWords: Set<String> = ["dpa", "afp", "epa", "ap", "ddp", "apa", "anp", "foto", "photo", "bild", "credit"]
}
