import Foundation

/// A line that is only a label of the page's furniture, with no text of the article: an
/// advertisement's label ("Anzeige", "- Advertisement -", "Reklama") or a way back to the list
/// the article came from ("zurück zur Übersicht"). Recognized by its whole text, in the
/// languages of the pages Kiosk reads, and only as a line of its own (`tags`): a heading or a
/// list item saying "Advertisement" is the article's.
enum FurnitureLine {
    /// Whole lines, lowercased, without the dashes, colons and brackets around them.
    static let lines: Set<String> = [
        // Advertising
        "anzeige", "werbung", "advertisement", "advertisements", "advertising", "sponsored content", "publicité",
        "publicidad", "pubblicità", "reklama", "reklame", "advertentie",
        // The way back (not a bare "back" or "retour", which a recipe or a list of films can say)
        "zurück", "zurück zur übersicht", "zurück zur listenansicht", "zurück zur liste", "zurück zur startseite",
        "back to top", "back to list", "back to overview", "nach oben", "retour à la liste", "volver al inicio",
        "torna indietro", "powrót do listy",
        // A placeholder for what a script would load
        "loading", "loading...", "loading…", "wird geladen", "lädt", "chargement", "chargement...", "cargando",
        "cargando...", "正在加载", "加载中", "読み込み中",
        // A button for more of the list
        "load more", "show more", "lade weitere inhalte", "weitere inhalte laden", "mehr laden", "mehr anzeigen",
        "voir plus", "cargar más", "carica altri",
    ]

    /// What holds such a line.
    static let tags = ArticleTagSet([.p, .div, .center, .small, .figcaption])

    /// Longer than this (characters of raw text), no line is one.
    static let longest = 40

    static let initials = FirstBytes(Array(lines))

    /// Whether a text (an element's first text) could be such a line, past the dashes and
    /// brackets a label is set between ("- Anzeige -").
    static func mayStart(_ text: String) -> Bool {
        let start = text.unicodeScalars.drop(while: { ignored.contains($0) })
        return initials.mayStart(String(String.UnicodeScalarView(start.prefix(4))))
    }

    private static let ignored = CharacterSet(charactersIn: " -–—:|·•()[].…\u{A0}\n\t\r")

    static func matches(_ text: String) -> Bool {
        guard text.count <= longest else { return false }
        let trimmed = text.lowercased().trimmingCharacters(in: ignored)
        return lines.contains(trimmed)
    }
}

/// A line of the page's machinery rather than its text: a PHP diagnostic printed into the page
/// ("Warning: … in /www/…/classes.php on line 407"), a permalink with its label ("Permalien
/// https://p.dw.com/p/RPYx"), a line of a post's statistics and filing ("Aufrufe: 1120 |
/// Hinzugefügt von: Posh | Tags: … | Rating: 0.0/0", "News date : 04/21/2022 Category : Press
/// Releases").
enum MachineryLine {
    static let longest = 400
    /// Shorter than this, a line is none ("Tags: a | Views: 1").
    static let shortest = 14

    /// What holds such a line (a list's item too: "<li><strong>Permalien</strong> https://…</li>").
    static let tags = ArticleTagSet([.p, .div, .center, .small, .li])

    static func matches(_ text: String) -> Bool {
        // Every such line has a colon ("Warning:", "https://", "Tags:"): most lines are ruled
        // out by counting them, before any word is read.
        let colons = text.utf8.reduce(0) { $0 + ($1 == 0x3A ? 1 : 0) }
        guard colons > 0, text.utf8.count <= longest * 4, text.count <= longest else { return false }
        let lower = text.lowercased()
        if diagnostics.contains(where: { lower.hasPrefix($0) }), lower.contains(" on line "), lower.contains(".php") { return true }
        if permalinks.contains(where: { lower.hasPrefix($0) }), lower.count <= 80, lower.contains("://") { return true }
        guard colons >= 2, lower.count <= 160 else { return false }
        // Two labels of a post's statistics or filing, each before its colon.
        let labelled = labels.filter { label in
            lower.range(of: label + ":") != nil || lower.range(of: label + " :") != nil
        }
        return labelled.count >= 2
    }

    static let initials = FirstBytes(diagnostics + permalinks + labels)

    static let diagnostics = ["warning:", "notice:", "deprecated:", "fatal error:", "parse error:", "strict standards:"]
    static let permalinks = ["permalink", "permalien", "permalien:", "permalink:", "enlace permanente", "link permanente"]
    static let labels = [
        "aufrufe", "views", "hits", "hinzugefügt von", "added by", "posted by", "tags", "schlagwörter", "rating",
        "bewertung", "category", "categories", "kategorie", "kategorien", "news date", "catégorie", "categoría",
    ]
}
