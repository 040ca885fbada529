/// How folded words and text are compared, byte for byte (see `FoldedText`).
enum QueryTextMatch {
    /// Whether the words of `needle` occur in `text` as consecutive words. Each must be equal,
    /// except that the last only has to start the text's word when `lastIsPrefix` is set: a typed
    /// word matches as a prefix ("econ" finds "Economy", as the store's FTS5 prefix search
    /// does), while the words of a quoted phrase must all be whole.
    static func hasWords(_ text: FoldedText, _ needle: FoldedText, lastIsPrefix: Bool) -> Bool {
        let count = needle.words.count
        guard count > 0 else { return true }
        guard text.words.count >= count else { return false }
        for start in 0...(text.words.count - count) {
            var matched = true
            for offset in 0..<count {
                let word = text.bytes[text.words[start + offset]]
                let wanted = needle.bytes[needle.words[offset]]
                let equal = offset == count - 1 && lastIsPrefix ? word.starts(with: wanted) : word.elementsEqual(wanted)
                if !equal {
                    matched = false
                    break
                }
            }
            if matched { return true }
        }
        return false
    }

    /// Whether `needle` occurs anywhere in `text`: for URLs, which are not word text, and words
    /// with no letters or digits (`+++` has no word to look for, so it is looked for as it is).
    static func contains(_ text: FoldedText, _ needle: FoldedText) -> Bool {
        let haystack = text.bytes
        let wanted = needle.bytes
        guard let first = wanted.first else { return true }
        guard haystack.count >= wanted.count else { return false }
        var index = 0
        let lastStart = haystack.count - wanted.count
        while index <= lastStart {
            if haystack[index] == first, haystack[index..<(index + wanted.count)].elementsEqual(wanted) { return true }
            index += 1
        }
        return false
    }
}
