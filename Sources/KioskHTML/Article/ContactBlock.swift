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

    /// The parts after the heading (at `position` among `siblings`, its parent's children) that
    /// carry a way to reach someone, up to the first that does not; empty when none does (the
    /// heading is then left alone). At most eight elements are read.
    static func block(after position: Int, in siblings: [Int], of document: ArticleDocument, stats: ArticleStats) -> [Int] {
        guard position < siblings.count else { return [] }
        let following = siblings[(position + 1)...].lazy.filter { !document.nodes[$0].removed && !document.nodes[$0].isText }
        var parts: [Int] = []
        // Parts not yet known to be the block's: empty ones, and a name on a line of its own
        // before the number under it.
        var pending: [Int] = []
        for sibling in following.prefix(8) {
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

    /// Whether a text gives an e-mail address or a number to call (the words whole: not the
    /// "phone" of "smartphone" or the "tel." of "Hotel.").
    static func reachesSomeone(_ text: String) -> Bool {
        let lower = LoweredText(text)
        if lower.bytes.contains(0x40) { return true }
        return reachWords.contains { word in
            var end = lower.bytes.count
            while let found = lower.lastOffset(of: word, before: end) {
                if found == 0 || !isLetter(lower.bytes[found - 1]) { return true }
                end = found
            }
            return false
        }
    }

    static let reachWords = LoweredText.phrases(["tel.", "tel:", "telefon", "phone", "téléphone", "teléfono", "fax", "e-mail:", "email:"])

    /// An ASCII letter, or a byte of a character beyond ASCII (a letter, most likely).
    private static func isLetter(_ byte: UInt8) -> Bool {
        let lower = byte | 0x20
        return (lower >= 0x61 && lower <= 0x7A) || byte >= 0x80
    }
}
