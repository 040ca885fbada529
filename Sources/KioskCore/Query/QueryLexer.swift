/// A piece of query text: an operator, a parenthesis, or a complete term.
struct QueryToken: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case open
        case close
        case or
        case minus
        /// A word, phrase, regular expression or field term, already read.
        case term(Query)
    }

    var kind: Kind
    /// 1-based position, in characters, of the token's first character.
    var position: Int
}

/// Cuts query text into tokens.
///
/// Terms are read whole here, field value included, because how a value reads depends on its
/// field: `date:/2026-11-20` is a range, `intitle:/x/` a regular expression.
struct QueryLexer: Sendable {
    private let characters: [Character]
    private var index = 0

    init(_ text: String) {
        characters = Array(text)
    }

    /// The next token, or nil at the end.
    mutating func next() throws(QueryError) -> QueryToken? {
        while index < characters.count, characters[index].isWhitespace { index += 1 }
        guard index < characters.count else { return nil }
        let start = index
        let position = start + 1
        switch characters[start] {
        case "(":
            index += 1
            return QueryToken(kind: .open, position: position)
        case ")":
            index += 1
            return QueryToken(kind: .close, position: position)
        case "-":
            index += 1
            // A group may follow (`-(a OR b)`); white space, `)` or the end may not.
            guard index < characters.count, !characters[index].isWhitespace, characters[index] != ")" else {
                throw QueryError(position: position, reason: .danglingMinus)
            }
            return QueryToken(kind: .minus, position: position)
        case "\"":
            return QueryToken(kind: .term(.term(field: nil, .phrase(try phraseWords()))), position: position)
        case "/":
            return QueryToken(kind: .term(.term(field: nil, .regex(try regex()))), position: position)
        default:
            if let term = try fieldTerm() { return QueryToken(kind: .term(term), position: position) }
            let word = run()
            if word == "OR" { return QueryToken(kind: .or, position: position) }
            return QueryToken(kind: .term(.term(field: nil, .word(word))), position: position)
        }
    }

    /// Whether `character` ends a word: white space and parentheses do.
    private func endsWord(_ character: Character) -> Bool {
        character.isWhitespace || character == "(" || character == ")"
    }

    /// Everything up to the next white space or parenthesis. Quotes and slashes inside are
    /// literal: only at the start of a term do they open a phrase or a regular expression.
    private mutating func run() -> String {
        let start = index
        while index < characters.count, !endsWord(characters[index]) { index += 1 }
        return String(characters[start..<index])
    }

    /// The text between the quote at `index` and the next quote.
    private mutating func quoted() throws(QueryError) -> String {
        let open = index
        guard let close = characters[(open + 1)...].firstIndex(of: "\"") else {
            throw QueryError(position: open + 1, reason: .unclosedQuote)
        }
        index = close + 1
        return String(characters[(open + 1)..<close])
    }

    /// The words of the phrase whose quote is at `index`.
    private mutating func phraseWords() throws(QueryError) -> [String] {
        let position = index + 1
        let words = Self.words(of: try quoted())
        guard !words.isEmpty else { throw QueryError(position: position, reason: .emptyPhrase) }
        return words
    }

    /// `text` cut into words, keeping their case and accents (the evaluator folds them).
    static func words(of text: String) -> [String] {
        text.unicodeScalars.split(whereSeparator: { !QueryTextFolder.isWordScalar($0) }).map { String($0) }
    }

    /// The regular expression whose opening slash is at `index`. A backslash escapes the next
    /// character, so `\/` puts a slash in the pattern (ICU reads `\/` as a plain slash too).
    private mutating func regex() throws(QueryError) -> QueryRegex {
        let open = index
        var cursor = open + 1
        while cursor < characters.count, characters[cursor] != "/" {
            cursor += characters[cursor] == "\\" ? 2 : 1
        }
        guard cursor < characters.count else { throw QueryError(position: open + 1, reason: .unclosedRegex) }
        index = cursor + 1
        // `/usr/bin` is not a pattern `usr` followed by `bin`: make the writer say which they mean.
        if index < characters.count, !endsWord(characters[index]) {
            throw QueryError(position: open + 1, reason: .textAfterRegex)
        }
        return try QueryRegex(String(characters[(open + 1)..<cursor]), position: open + 1)
    }

    /// A `field:value` term at `index`, or nil (index unmoved) when the text there is not one.
    private mutating func fieldTerm() throws(QueryError) -> Query? {
        let start = index
        var colon = start
        while colon < characters.count, characters[colon].isASCII, characters[colon].isLetter { colon += 1 }
        guard colon > start, colon < characters.count, characters[colon] == ":" else { return nil }
        let typed = String(characters[start..<colon])
        let name = typed.lowercased()
        let position = start + 1
        switch name {
        case "is":
            index = colon + 1
            guard let state = QueryState(rawValue: run().lowercased()) else {
                throw QueryError(position: position, reason: .invalidState)
            }
            return .state(state)
        case "date":
            index = colon + 1
            return .date(try QueryDateRange(parsing: run(), position: position))
        default:
            guard let field = QueryField(rawValue: name) else {
                if let suggestion = QueryFieldSuggestion.suggestion(for: name) {
                    throw QueryError(position: position, reason: .unknownField(name: typed, suggestion: suggestion))
                }
                return nil
            }
            index = colon + 1
            return .term(field: field, try fieldPattern(field, position: position))
        }
    }

    /// The value of a text field, starting at `index`.
    private mutating func fieldPattern(_ field: QueryField, position: Int) throws(QueryError) -> QueryPattern {
        guard index < characters.count, !endsWord(characters[index]) else {
            throw QueryError(position: position, reason: .missingValue(field: field.name))
        }
        switch characters[index] {
        case "\"" where field == .url:
            // URLs are not word text: a quoted URL part is matched as it is written.
            let quotePosition = index + 1
            let text = try quoted()
            guard !text.isEmpty else { throw QueryError(position: quotePosition, reason: .emptyPhrase) }
            return .word(text)
        case "\"":
            return .phrase(try phraseWords())
        case "/":
            return .regex(try regex())
        default:
            return .word(run())
        }
    }
}
