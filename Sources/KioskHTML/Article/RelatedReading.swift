import Foundation
import KioskCore

/// What a page puts under or inside its article to lead the reader elsewhere: a heading over a
/// list of other articles ("Related posts", "Mehr zum Thema", "À lire aussi"...), and a line that
/// is a link with a "read also" label ("Read more: …", "Lea también: …"). Recognized by their
/// words in the languages of the pages Kiosk reads, never by a site's class names.
enum RelatedReading {
    /// Headings over other articles, lowercased, as a whole heading reads (without a trailing
    /// colon, question or exclamation mark). Not "See also": an encyclopedia's section of links
    /// is part of its article.
    static let headings: Set<String> = [
        // English
        "related", "related articles", "related posts", "related stories", "related content", "related news",
        "you might also like", "you may also like", "you might be interested in", "read more", "read also",
        "read next", "more on this", "more on this topic", "more stories", "recommended", "recommended for you",
        "latest articles", "latest posts", "latest news", "most read", "most popular", "popular posts", "also read", "more from this author", "missing out on the latest",
        "more information", "further information", "other people are reading", "people are also reading",
        // German
        "mehr zum thema", "mehr themen", "mehr dazu", "das könnte sie auch interessieren",
        "das könnte dich auch interessieren", "lesen sie auch", "lies auch", "auch interessant", "schon gelesen",
        "weitere artikel", "weitere beiträge", "neueste artikel", "neueste beiträge", "aktuelle beiträge",
        "empfohlene beiträge", "empfohlene artikel", "beiträge zum thema", "artikel zum thema", "ähnliche beiträge",
        "ähnliche artikel", "verwandte artikel", "verwandte beiträge", "weiterführende links", "meistgelesen",
        "meistgelesene artikel", "top-artikel", "weitere beiträge zum thema", "weitere artikel zum thema",
        "artikel und videos zum thema", "videos zum thema", "news zum thema", "interessante artikel",
        "das thema könnte dich auch interessieren", "das könnte ihnen auch gefallen", "das könnte dir auch gefallen",
        "weiterführender link", "weiterführende informationen", "zum weiterlesen", "weitere informationen",
        "mehr informationen", "weitere infos",
        // French
        "à lire aussi", "a lire aussi", "lire aussi", "à lire également", "sur le même sujet",
        "articles similaires", "articles liés", "articles récents", "dans la même rubrique", "vous aimerez aussi",
        "audios et vidéos sur le sujet", "à voir aussi", "a voir aussi", "sur le même thème", "pour aller plus loin",
        "plus d'informations", "en savoir plus",
        // Spanish, Portuguese, Italian
        "lea también", "lee también", "lea más", "te puede interesar", "también te puede interesar",
        "noticias relacionadas", "artículos relacionados", "leia também", "leia mais", "veja também",
        "artigos relacionados", "leggi anche", "articoli correlati", "potrebbe interessarti", "más información",
        "per saperne di più",
        // Polish, Dutch
        "czytaj także", "czytaj też", "zobacz też", "zobacz także", "polecamy", "podobne artykuły",
        "lees ook", "gerelateerde artikelen", "meer over dit onderwerp",
    ]

    /// Labels that open a "read also" line (before its colon).
    static let labels: Set<String> = [
        "read more", "read also", "also read", "see also", "related", "more", "lesen sie auch", "lesen sie mehr",
        "mehr dazu", "mehr zum thema", "auch interessant", "lire aussi", "à lire aussi", "a lire aussi", "voir aussi",
        "lea", "lea también", "lea más", "lee también", "leia também", "leia mais", "leggi anche", "czytaj także",
        "czytaj też", "czytaj również", "zobacz też", "zobacz także", "lees ook",
        // The posts before and after this one
        "previous post", "next post", "previous article", "next article", "vorheriger beitrag", "nächster beitrag",
        "vorgängerbeitrag", "nachfolgebeitrag", "vorheriger artikel", "nächster artikel", "article précédent",
        "article suivant", "artículo anterior", "artículo siguiente", "poprzedni artykuł", "następny artykuł",
    ]

    /// The first bytes of `headings` and `labels`, for a look at one byte before reading a line.
    static let headingInitials = FirstBytes(Array(headings))
    static let labelInitials = FirstBytes(Array(labels))

    /// Longer than this (in characters of raw text, white space included), no heading is one.
    static let longestHeading = 80

    /// Whether a text (an element's first text) has a colon early enough to open with a label.
    static func mayOpenWithLabel(_ text: String) -> Bool {
        text.utf8.prefix(48).contains(0x3A)
    }

    /// Whether a heading's text announces other articles.
    static func isHeading(_ text: String) -> Bool {
        guard text.count <= 60 else { return false }
        let heading = normalized(text)
        // "Mehr zum Thema auf UEPO.de": the site's name after.
        return headings.contains(heading) || siteHeadings.contains(where: { heading.hasPrefix($0) && heading.count <= $0.count + 24 })
    }

    /// Headings over other articles that may go on with the site's name.
    static let siteHeadings = ["mehr zum thema auf "]

    /// Whether a line's text opens with a "read also" label and a colon ("Read more: …").
    static func isReadAlsoLine(_ text: String) -> Bool {
        guard let colon = text.prefix(24).firstIndex(of: ":") else { return false }
        return labels.contains(normalized(String(text[..<colon])))
    }

    private static func normalized(_ text: String) -> String {
        text.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: " :?!.…»«\"'\u{A0}\u{2009}"))
    }
}

/// A line that only credits an image: "Foto: GdP/Hagen Immel", "Photo: Reuters", "© iStock.com",
/// "(Quelle: Fleischmann/Unsplash/DJV)", "Bild via …". (A bare "Jane Doe/Getty Images" is left: it
/// cannot be told from a line of text by its words alone.)
enum CreditLine {
    static let labels = [
        "foto:", "fotos:", "photo:", "photos:", "bild:", "bilder:", "bild via", "image:", "images:", "credit:",
        "credits:", "quelle:", "(quelle:", "source:", "titelbild:", "abbildung:", "grafik:", "illustration:",
        "©", "fot.", "zdjęcie:", "źródło:", "crédit:", "crédits:", "crédit photo", "photograph by",
        "image illustrative",
    ]

    /// The first bytes of `labels` (ASCII letters in both cases), for a look at one byte before
    /// reading a whole line.
    static let initials = FirstBytes(labels)

    /// Whether `text` (an element's first text) could open with a label.
    /// A credit may stand in brackets ("(© Jane Doe)").
    static func mayStart(_ text: String) -> Bool {
        initials.mayStart(text) || text.drop(while: { $0 == " " || $0 == "\n" || $0 == "\t" }).first.map(brackets.contains) == true
    }

    static func matches(_ text: String) -> Bool {
        let lower = text.lowercased()
        guard !lower.isEmpty, lower.count <= 120 else { return false }
        let unbracketed = lower.drop(while: { brackets.contains($0) || $0 == " " })
        return labels.contains(where: { lower.hasPrefix($0) || unbracketed.hasPrefix($0) })
    }

    private static let brackets: Set<Character> = ["(", "["]
}

/// The first UTF-8 bytes a set of lowercase phrases can start with (an ASCII letter also in
/// upper case): whether a text could start with one of them, from its first byte that is not
/// white space.
struct FirstBytes: Sendable {
    private var bytes = [Bool](repeating: false, count: 256)

    init(_ phrases: [String]) {
        for phrase in phrases {
            guard let first = phrase.utf8.first else { continue }
            bytes[Int(first)] = true
            if first >= 0x61 && first <= 0x7A { bytes[Int(first - 0x20)] = true }
        }
    }

    func mayStart(_ text: String) -> Bool {
        guard let first = text.utf8.first(where: { !ASCIIWhitespace.contains($0) }) else { return false }
        return bytes[Int(first)]
    }
}
