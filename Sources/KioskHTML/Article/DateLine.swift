import Foundation

/// A line that only dates the article ("7. oktober 2020", "16 marca 2021", "3:59 PM",
/// "Published: 2021-04-29 17:13") or only names its author ("Von: Götz Warnke"): the reader
/// view shows the date and the byline from the page's metadata, above the article. Recognized
/// by its words in the languages of the pages Kiosk reads.
enum DateLine {
    /// Longer than this (characters of raw text), no line is one.
    static let longest = 64

    /// Month and weekday names, whole and abbreviated, in the forms dates use.
    static let names: Set<String> = [
        // English
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november",
        "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
        // German
        "januar", "jänner", "februar", "märz", "mai", "juni", "juli", "oktober", "dezember", "okt", "dez",
        "montag", "dienstag", "mittwoch", "donnerstag", "freitag", "samstag", "sonntag",
        // French
        "janvier", "février", "mars", "avril", "juin", "juillet", "août", "septembre", "octobre", "novembre",
        "décembre", "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche",
        // Spanish, Portuguese, Italian
        "enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre",
        "noviembre", "diciembre", "janeiro", "fevereiro", "março", "maio", "junho", "julho", "setembro", "outubro",
        "novembro", "dezembro", "gennaio", "febbraio", "aprile", "maggio", "giugno", "luglio", "settembre",
        "ottobre", "dicembre", "lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo",
        // Polish (the genitive dates use), Dutch, Scandinavian
        "stycznia", "lutego", "marca", "kwietnia", "maja", "czerwca", "lipca", "sierpnia", "września",
        "października", "listopada", "grudnia", "januari", "februari", "maart", "mei", "augustus", "desember",
        "maj", "okt",
    ]

    /// Little words between a date's parts ("am 3. Februar 2022 um 21:17 Uhr", "le 4 mars").
    static let joiners: Set<String> = [
        "am", "um", "uhr", "pm", "a", "m", "p", "the", "of", "on", "at", "de", "del", "le", "à", "h", "den", "der",
        "i", "o", "godz", "kl", "klo", "st", "nd", "rd", "th", "er",
    ]

    /// Labels a date or an author's name follows, before their colon or as their first words.
    static let dateLabels = [
        "published", "posted", "updated", "last modified", "last updated", "veröffentlicht", "aktualisiert",
        "erstellt", "stand", "datum", "date", "publié le", "publié", "mis à jour", "publicado", "actualizado",
        "pubblicato", "aggiornato", "opublikowano", "aktualizacja", "data",
    ]
    static let authorLabels = ["von", "by", "autor", "autorin", "author", "text", "texte", "par", "por", "door"]

    static let initials = FirstBytes(Array(names) + dateLabels + authorLabels + (0...9).map(String.init))

    static func matches(_ text: String) -> Bool { kind(of: text) != nil }

    enum Kind {
        case date
        case author(String)
    }

    /// What `text` is, if it is such a line.
    static func kind(of text: String) -> Kind? {
        guard text.count <= longest else { return nil }
        let lower = text.lowercased()
        if isDate(lower) { return .date }
        // "Published: 2021-04-29", "Aktualisiert am 3. März", "Von: Götz Warnke"
        for label in dateLabels where lower.hasPrefix(label) {
            let rest = lower.dropFirst(label.count)
            if let first = rest.first, first.isLetter { continue }
            return isDate(String(rest)) ? .date : nil
        }
        for label in authorLabels where lower.hasPrefix(label + ":") {
            // A name: two to four words, none of them a sentence's.
            let words = lower.dropFirst(label.count + 1).split(whereSeparator: { $0 == " " || $0 == "\u{A0}" })
            guard (1...4).contains(words.count), !lower.hasSuffix(".") else { return nil }
            return .author(text.dropFirst(label.count + 1).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }

    /// Whether every word of `lower` is a number, a month or weekday, or a joiner, and it reads
    /// as a date or a time: a number with a month or weekday ("7. oktober 2020"), three numbers
    /// ("2021-04-29", "23.10.2018") or a time ("3:59 PM"). A number alone is no date (a
    /// footnote's, a table's).
    static func isDate(_ lower: String) -> Bool {
        var numbers = 0
        var words = 0
        var named = false
        for word in lower.split(whereSeparator: { !($0.isLetter || $0.isNumber) }) {
            words += 1
            if word.allSatisfy(\.isASCII), word.allSatisfy(\.isNumber) {
                guard word.count <= 4 else { return false }
                numbers += 1
            } else if names.contains(String(word)) {
                named = true
            } else if !joiners.contains(String(word)) {
                return false
            }
        }
        guard numbers > 0, words <= 10 else { return false }
        // Three numbers are a date only joined as dates are ("23.10.2018", "2021-04-29"), not
        // a number written in groups ("1 250 000").
        let joinedAsDate = lower.utf8.contains { $0 == 0x2E || $0 == 0x2F || $0 == 0x2D }
        return named || (numbers >= 3 && joinedAsDate) || hasTime(lower)
    }

    /// Whether an hour and two digits of minutes follow each other ("15:49", not a score's "2:1").
    private static func hasTime(_ lower: String) -> Bool {
        let bytes = Array(lower.utf8)
        guard bytes.count >= 4 else { return false }
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        for position in 1..<(bytes.count - 2) where bytes[position] == 0x3A {
            if isDigit(bytes[position - 1]), isDigit(bytes[position + 1]), isDigit(bytes[position + 2]),
                position + 3 == bytes.count || !isDigit(bytes[position + 3])
            {
                return true
            }
        }
        return false
    }
}

extension DateLine {
    /// Blocks that can hold such a line alone (a date inside a sentence's paragraph is the
    /// sentence's, and only a whole block is judged).
    static let lineTags = ArticleTagSet([.p, .div, .h5, .h6])

    /// More lines than this and they are the article's own structure (a timeline, a programme
    /// of events), not its dateline.
    static let mostLines = 3

    /// Takes the lines that only date the article or name its author out of the article's tree
    /// (the reader view shows both from the page's metadata), and gives the author's name when
    /// a line named them, for a page whose metadata does not. Dates go only when the page's
    /// metadata dates it (else the line is the only date the reader has); a table's cells and a
    /// list's items are never lines of their own.
    static func removeLines(under nodes: [Int], from document: inout ArticleDocument, keepDates: Bool) -> String? {
        var lines: [(index: Int, kind: Kind)] = []
        for node in nodes {
            for element in document.elements(under: node) where lineTags.contains(element.tag) {
                let index = Int(element.index)
                guard !document.nodes[index].removed, document.isSmall(index, characters: longest, nodes: 16),
                    let first = document.firstText(under: index), initials.mayStart(first),
                    let kind = kind(of: document.normalizedText(of: index))
                else { continue }
                if case .date = kind, keepDates { continue }
                if cellTags.contains(where: { document.hasAncestor(index, tagged: $0, depth: 4) }) { continue }
                lines.append((index, kind))
                if lines.count > mostLines { return nil }
            }
        }
        var author: String?
        for line in lines {
            document.remove(line.index)
            if author == nil, case .author(let name) = line.kind { author = name }
        }
        return author
    }

    static let cellTags: [ArticleTag] = [.td, .th, .li, .dd]
}
