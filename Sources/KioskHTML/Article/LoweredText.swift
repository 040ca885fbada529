/// A short text's UTF-8 with its ASCII letters lowered, searched for lowercase phrases byte by
/// byte: for the few lines the reader view reads for their words (a caption's end, the
/// article's last blocks), where Foundation's case-insensitive search was a tenth of the time.
/// Letters beyond ASCII match as written (the phrases hold them in lower case, as text does
/// but for the first letter of a line).
struct LoweredText {
    let bytes: [UInt8]

    init(_ text: String) {
        bytes = text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
    }

    func contains(_ phrase: [UInt8]) -> Bool { lastOffset(of: phrase, before: bytes.count) != nil }

    /// Where `phrase` last starts before byte `end`.
    func lastOffset(of phrase: [UInt8], before end: Int) -> Int? {
        guard let first = phrase.first, phrase.count <= end else { return nil }
        var start = end - phrase.count
        while start >= 0 {
            if bytes[start] == first {
                var matched = 1
                while matched < phrase.count, bytes[start + matched] == phrase[matched] { matched += 1 }
                if matched == phrase.count { return start }
            }
            start -= 1
        }
        return nil
    }

    /// Lowercase phrases as bytes, made once.
    static func phrases(_ list: [String]) -> [[UInt8]] { list.map { Array($0.utf8) } }
}
