import Foundation

/// A press release's contact block after its text: a heading ("Kontakt:", "Pressekontakt",
/// "Media contact", "Ansprechpartnerin zum Thema") and the names, telephone numbers and
/// addresses under it. Whom to call is not the article; the heading is known by its words, the
/// block by carrying an address or a number to call.
enum ContactBlock {
    /// Headings, lowercased, as a whole heading reads (without a trailing colon).
    static let headings: Set<String> = [
        "kontakt", "pressekontakt", "medienkontakt", "ansprechpartner", "ansprechpartnerin", "ansprechpartner*innen",
        "ansprechpartner zum thema", "ansprechpartnerin zum thema", "kontakt für medien", "contact", "contacts",
        "press contact", "media contact", "media contacts", "press contacts", "contact presse", "contact média",
        "contacto", "contacto de prensa", "contatti", "contatto stampa", "kontakt dla mediów", "perscontact",
    ]

    static let initials = FirstBytes(Array(headings))

    /// Longest heading, in characters of raw text.
    static let longestHeading = 40
    /// Longest part of the block after it.
    static let longestPart = 400

    static func isHeading(_ text: String) -> Bool {
        headings.contains(text.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: " :\u{A0}\n\t\r")))
    }

    /// The parts after heading `index` among its siblings that carry a way to reach someone,
    /// up to the first that does not; empty when none does (the heading is then left alone).
    static func block(after index: Int, in document: ArticleDocument, stats: ArticleStats) -> [Int] {
        let siblings = document.elementChildren(of: document.nodes[index].parent)
        guard let position = siblings.firstIndex(of: index) else { return [] }
        var parts: [Int] = []
        // Parts not yet known to be the block's: empty ones, and a name on a line of its own
        // before the number under it.
        var pending: [Int] = []
        for sibling in siblings[(position + 1)...].prefix(8) {
            let length = Int(stats[sibling].text)
            guard length <= longestPart else { break }
            if length > 0, reachesSomeone(document.normalizedText(of: sibling)) {
                parts += pending + [sibling]
                pending.removeAll()
            } else if length <= longestName {
                pending.append(sibling)
            } else {
                break
            }
        }
        return parts
    }

    /// Longest line before a number or address that may still be the block's (a name).
    static let longestName = 80

    /// Whether a text gives an e-mail address or a number to call.
    static func reachesSomeone(_ text: String) -> Bool {
        let lower = text.lowercased()
        if lower.contains("@") { return true }
        return ["tel.", "tel:", "telefon", "phone", "téléphone", "teléfono", "fax", "e-mail:", "email:"].contains { lower.contains($0) }
    }
}
