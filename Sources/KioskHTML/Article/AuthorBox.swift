import Foundation

/// A box about the article's author (their name, photo and biography), known by the heading it
/// opens with ("Über den Autor", "About the author", "Autor:innen"...). Themes give it names the
/// grabber already knows (`author-box`, `author-bio`); this finds it by its words when they do
/// not. A biography scores as well as a short article, so it goes before anything is scored.
enum AuthorBox {
    /// Headings, lowercased, as a whole heading reads (without a trailing colon).
    static let headings: Set<String> = [
        "author", "authors", "about the author", "about the authors", "the author", "written by",
        "autor", "autorin", "autoren", "autorinnen", "autor:innen", "autor*innen", "über den autor", "über die autorin",
        "über die autoren", "zum autor", "zur autorin", "zu den autoren",
        "l'auteur", "l’auteur", "à propos de l'auteur", "à propos de l’auteur", "sobre el autor", "sobre la autora",
        "el autor", "sobre o autor", "l'autore", "l’autore", "o autorze", "autor tekstu", "over de auteur",
    ]

    /// The most text a box about an author holds (characters, white space counted once).
    static let longest = 1_000

    static let initials = FirstBytes(Array(headings))

    /// Whether an element's first text is such a heading.
    static func opensWithHeading(_ first: String) -> Bool {
        guard first.utf8.count <= 48, initials.mayStart(first) else { return false }
        let trimmed = first.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: " :\u{A0}\n\t\r"))
        return headings.contains(trimmed)
    }
}
