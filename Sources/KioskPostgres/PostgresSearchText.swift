import Foundation
import KioskCore

// SQLite's FTS5 tokenizes and folds as it indexes; here Swift does both (as the in-memory store
// does), and PostgreSQL only stores and matches the words: the index is the set of folded words
// (`array_to_tsvector`, no parser, no stemming), a query is one quoted prefix term per word. So
// what is found is exactly "words starting with every word of the text", and no text is syntax.

/// How the PostgreSQL store reads search text and the text it indexes (KioskStore's `SearchText`).
enum PostgresSearchText {
    /// At most this many words of a query are used (as SQLite's store).
    static let maxWords = 16
    /// A word is indexed by at most this many Unicode scalars: PostgreSQL refuses lexemes of 2 KB,
    /// and a prefix this long finds the word anyway.
    static let maxScalarsPerWord = 255

    /// The words of `text`: runs of letters and digits, as FTS5's unicode61 tokenizer sees them.
    static func words(of text: String) -> [Substring] {
        text.split { !($0.isLetter || $0.isNumber) }
    }

    /// One word as stored and searched: case and diacritics folded, length bounded.
    static func folded(_ word: some StringProtocol) -> String {
        let folded = word.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        let scalars = folded.unicodeScalars.filter { $0 != "\u{0}" }
        guard scalars.count > maxScalarsPerWord else { return String(String.UnicodeScalarView(scalars)) }
        return String(String.UnicodeScalarView(scalars.prefix(maxScalarsPerWord)))
    }

    /// What the index holds for an entry (`entries.search_text`): the distinct folded words of
    /// its title and plain summary, separated by single spaces.
    static func indexed(title: String?, summaryText: String?) -> String {
        var seen = Set<String>()
        var list: [String] = []
        for text in [title, summaryText].compactMap({ $0 }) {
            for word in words(of: text) {
                let folded = folded(word)
                // Folding never makes a separator in practice; a word that would is split here.
                for part in folded.split(separator: " ") where seen.insert(String(part)).inserted {
                    list.append(String(part))
                }
            }
        }
        return list.joined(separator: " ")
    }

    /// The plain text of an entry's summary (summaries are HTML), as SQLite's `summary_text`.
    static func plainSummary(of entry: Entry) -> String? {
        entry.summary.map { HTMLText.plainText(fromHTML: $0) }
    }

    /// The `tsquery` for `text`: every word a quoted prefix term, all required; nil when the text
    /// has no word (so there is nothing to search for).
    static func tsQuery(_ text: String) -> String? {
        let terms = words(of: text).prefix(maxWords).flatMap { folded($0).split(separator: " ") }.map { word in
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
