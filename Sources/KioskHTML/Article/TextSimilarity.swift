import KioskCore
/// Readability's `_textSimilarity` against one text read many times (the article's title against
/// every heading): `a`'s words are split once, and a text of ASCII is split by its bytes (the
/// `Character` split of each heading was a twentieth of a 10 MB page's extraction).
struct TextSimilarity {
    private let words: Set<String>

    init(_ a: String) {
        words = Set(Self.words(a))
    }

    /// 1 minus the share of `b`'s words (by length, joined by spaces) that `a` does not have.
    func similarity(to b: String) -> Double {
        let wordsB = Self.words(b)
        guard !words.isEmpty, !wordsB.isEmpty else { return 0 }
        var total = wordsB.count - 1
        var unique = 0
        var uniqueCount = 0
        for word in wordsB {
            let length = word.count
            total += length
            if !words.contains(word) {
                unique += length
                uniqueCount += 1
            }
        }
        if uniqueCount > 0 { unique += uniqueCount - 1 }
        return 1 - Double(unique) / Double(total)
    }

    /// Lowercased runs of letters and digits (not `_`, which Readability counts as a letter: a
    /// title's "_科技_腾讯网" would join the site's name to its last word).
    static func words(_ text: String) -> [String] {
        var contiguous = text
        let ascii: [String]? = contiguous.withUTF8 { bytes in
            var result: [String] = []
            var word: [UInt8] = []
            for byte in bytes {
                if byte >= 0x80 { return nil }
                let lower = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
                if (lower >= 0x61 && lower <= 0x7A) || (lower >= 0x30 && lower <= 0x39) {
                    word.append(lower)
                } else if !word.isEmpty {
                    result.append(String(decoding: word, as: UTF8.self))
                    word.removeAll(keepingCapacity: true)
                }
            }
            if !word.isEmpty { result.append(String(decoding: word, as: UTF8.self)) }
            return result
        }
        if let ascii { return ascii }
        return text.lowercased().split(whereSeparator: { !($0.isLetter || $0.isNumber) }).map(String.init)
    }
}
