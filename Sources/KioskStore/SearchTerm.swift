import KioskCore

extension SearchTerm {
    /// Each word of `text` a term of its own (the search box's plain words).
    public static func words(of text: String) -> [SearchTerm] {
        SearchText.words(of: text).map { SearchTerm(words: [String($0)]) }
    }
}
