import Foundation
import KioskCore

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

    /// What sets the heading apart as a block of its own.
    static let headingBlocks = ArticleTagSet([.h2, .h3, .h4, .h5, .h6, .div, .p, .header, .dt])

    /// Whether `index` (with `length` characters of text, in a parent with `parentLength`) is
    /// such a box: a short part of something larger (never all of its parent), opening with the
    /// heading as a block of its own ("<h2>Autor:innen</h2>", not "<strong>Autor:</strong> Max
    /// Muster", a post's own line).
    static func isBox(_ index: Int, in document: ArticleDocument, length: Int, parentLength: Int) -> Bool {
        guard length > 0, length <= longest, parentLength > length,
            let textNode = document.firstTextNode(under: index), case let first = document.nodes[textNode].text,
            first.utf8.count <= 48, initials.mayStart(first), isHeading(first)
        else { return false }
        // The largest element around the heading's text that holds nothing else.
        var heading: Int?
        var current = document.nodes[textNode].parent
        while current != index, current > ArticleDocument.root, isHeading(document.normalizedText(of: current)) {
            heading = current
            current = document.nodes[current].parent
        }
        return heading.map { headingBlocks.contains(document.nodes[$0].tag) } ?? false
    }

    /// The box after `index` when `index` is only such a heading, set apart from the box it
    /// announces ("<div>Über den Autor</div><div class=…>photo, name, biography</div>"): the
    /// heading's next element, when it is short enough to be a box about an author.
    /// `next`: the element after `index` among its siblings, found by the caller's walk.
    static func boxAfterHeading(_ index: Int, next: Int?, in document: ArticleDocument, length: Int, stats: ArticleStats) -> Int? {
        guard let next, length >= 5, length <= 48, headingBlocks.contains(document.nodes[index].tag),
            let first = document.firstText(under: index), initials.mayStart(first),
            isHeading(document.normalizedText(of: index))
        else { return nil }
        let boxLength = Int(stats[next].text)
        return boxLength > 0 && boxLength <= longest ? next : nil
    }

    static func isHeading(_ text: String) -> Bool {
        headings.contains(text.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: " :\u{A0}\n\t\r")))
    }
}
