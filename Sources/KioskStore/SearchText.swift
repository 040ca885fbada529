import Foundation
import KioskCore

// Search text comes from a user's text box: it is only ever split into words and each word
// quoted, so `"`, `*`, `NEAR(`, `-`, `AND`... are words to look for (or nothing), never syntax.

/// How every store reads search text and the text it searches (PostgreSQL's index adds its own
/// bounds on top, `PostgresSearchText`).
package enum SearchText {
    /// At most this many words of a query are used: enough for any real search, and a bound on
    /// the work a pasted page of text can cause.
    package static let maxWords = 16

    /// The words of `text`: runs of letters and digits, as FTS5's unicode61 tokenizer sees them.
    package static func words(of text: String) -> [Substring] {
        text.split { !($0.isLetter || $0.isNumber) }
    }

    /// The FTS5 query for `terms`, or nil when none has a word. A word is a prefix term (a word
    /// of several tokens, `e-mail`, their phrase, the last a prefix, as the query judges it); a
    /// phrase is its tokens side by side (the last a prefix too: the index never finds fewer
    /// than the query); a title term is looked for in the `title` column. With `titles` false
    /// (an index with no title: the articles'), title terms are left out.
    package static func ftsQuery(_ terms: [SearchTerm], titles: Bool = true) -> String? {
        var left = maxWords
        var parts: [String] = []
        for term in terms where titles || !term.inTitle {
            let tokens = term.words.flatMap { words(of: $0) }.prefix(left)
            guard !tokens.isEmpty else { continue }
            left -= tokens.count
            let quoted = tokens.map { $0.replacingOccurrences(of: "\"", with: "\"\"") }.joined(separator: " ")
            let phrase = "\"\(quoted)\"*"
            parts.append(term.inTitle ? "title : " + phrase : phrase)
            if left == 0 { break }
        }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }

    /// What the index holds for an entry's summary: its plain text (summaries are HTML).
    package static func plainSummary(of entry: Entry) -> String? {
        entry.summary.map { HTMLText.plainText(fromHTML: $0) }
    }

    /// `text` folded as the index folds it: case and diacritics ignored.
    package static func folded(_ text: some StringProtocol) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    /// Whether every word of `query` starts some word of `entry`'s title or plain summary
    /// (the in-memory store's search, matching what the FTS5 query finds).
    package static func matches(_ entry: Entry, queryWords: [String]) -> Bool {
        let text = [entry.title, plainSummary(of: entry)].compactMap { $0 }.joined(separator: " ")
        let words = self.words(of: text).map { folded($0) }
        return queryWords.allSatisfy { query in words.contains { $0.hasPrefix(query) } }
    }
}
