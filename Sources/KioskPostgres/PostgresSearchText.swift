import Foundation
import KioskStore

// SQLite's FTS5 tokenizes and folds as it indexes; here Swift does both (as the in-memory store
// does), and PostgreSQL only stores and matches the words: the index is the set of folded words
// (`array_to_tsvector`, no parser, no stemming), a query is one quoted prefix term per word. So
// what is found is exactly "words starting with every word of the text", and no text is syntax.

/// How the PostgreSQL store indexes and queries the words `SearchText` (KioskStore, shared with
/// SQLite) reads.
enum PostgresSearchText {
    /// A word is indexed by at most this many Unicode scalars: PostgreSQL refuses lexemes of 2 KB,
    /// and a prefix this long finds the word anyway.
    static let maxScalarsPerWord = 255

    /// One word as stored and searched: folded as every store folds it, without NUL (a `text`
    /// cannot hold one), length bounded.
    static func folded(_ word: some StringProtocol) -> String {
        let scalars = SearchText.folded(word).unicodeScalars.filter { $0 != "\u{0}" }
        guard scalars.count > maxScalarsPerWord else { return String(String.UnicodeScalarView(scalars)) }
        return String(String.UnicodeScalarView(scalars.prefix(maxScalarsPerWord)))
    }

    /// Most bytes of distinct words indexed for one row. A `tsvector` finds a word by its offset
    /// in 20 bits, so past 1 MiB of words `array_to_tsvector` builds one silently broken (seen
    /// on PostgreSQL 15: 140,000 distinct words of 8 bytes, the last 10,000 never found), and a
    /// long text of distinct words (a transcript, an article, in a script of 3 or 4 bytes a
    /// character) gets there. Past it the later words are not indexed (the text is kept whole).
    static let maxIndexedBytes = 1_000_000

    /// What the index holds for an entry (`entries.search_text`): the distinct folded words of
    /// its title and plain summary, separated by single spaces, at most `maxIndexedBytes`.
    static func indexed(title: String?, summaryText: String?) -> String {
        var seen = Set<String>()
        var list: [String] = []
        var bytes = 0
        for text in [title, summaryText].compactMap({ $0 }) {
            for word in SearchText.words(of: text) {
                let folded = folded(word)
                // Folding never makes a separator in practice; a word that would is split here.
                for part in folded.split(separator: " ") where seen.insert(String(part)).inserted {
                    bytes += part.utf8.count
                    guard bytes <= maxIndexedBytes else { return list.joined(separator: " ") }
                    list.append(String(part))
                }
            }
        }
        return list.joined(separator: " ")
    }

    /// The `tsquery` for `text`: every word a quoted prefix term, all required; nil when the text
    /// has no word (so there is nothing to search for).
    static func tsQuery(_ text: String) -> String? {
        let terms = SearchText.words(of: text).prefix(SearchText.maxWords).flatMap { folded($0).split(separator: " ") }.map { word in
            // tsquery quoting: a quote or backslash inside a quoted lexeme is doubled or escaped.
            let quoted = word.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''")
            return "'\(quoted)':*"
        }
        return terms.isEmpty ? nil : terms.joined(separator: " & ")
    }
}

/// Text as PostgreSQL keeps it: a `text` value cannot hold NUL, which a hostile feed may send.
enum PostgresText {
    static func clean(_ text: String) -> String {
        text.contains("\u{0}") ? text.replacingOccurrences(of: "\u{0}", with: "") : text
    }

    static func clean(_ text: String?) -> String? {
        text.map { clean($0) }
    }
}
