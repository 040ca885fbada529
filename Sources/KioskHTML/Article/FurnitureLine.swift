import Foundation

/// A line that is only a label of the page's furniture, with no text of the article: an
/// advertisement's label ("Anzeige", "- Advertisement -", "Reklama") or a way back to the list
/// the article came from ("zurück zur Übersicht"). Recognized by its whole text, in the
/// languages of the pages Kiosk reads.
enum FurnitureLine {
    /// Whole lines, lowercased, without the dashes, colons and brackets around them.
    static let lines: Set<String> = [
        // Advertising
        "anzeige", "werbung", "advertisement", "advertisements", "advertising", "sponsored", "sponsored content",
        "publicité", "publicidad", "pubblicità", "reklama", "reklame", "advertentie", "annonce", "ad", "ads",
        // The way back
        "zurück", "zurück zur übersicht", "zurück zur listenansicht", "zurück zur liste", "zurück zur startseite",
        "back", "back to top", "back to list", "back to overview", "nach oben", "retour", "retour à la liste",
        "volver", "torna indietro", "powrót", "wróć",
    ]

    /// Longer than this (characters of raw text), no line is one.
    static let longest = 40

    static let initials = FirstBytes(Array(lines))

    /// Whether a text (an element's first text) could be such a line, past the dashes and
    /// brackets a label is set between ("- Anzeige -").
    static func mayStart(_ text: String) -> Bool {
        let start = text.unicodeScalars.drop(while: { ignored.contains($0) })
        return initials.mayStart(String(String.UnicodeScalarView(start.prefix(4))))
    }

    private static let ignored = CharacterSet(charactersIn: " -–—:|·•()[]\u{A0}\n\t\r")

    static func matches(_ text: String) -> Bool {
        guard text.count <= longest else { return false }
        let trimmed = text.lowercased().trimmingCharacters(in: ignored)
        return lines.contains(trimmed)
    }
}
