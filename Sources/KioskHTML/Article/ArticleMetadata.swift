import Foundation
import KioskCore

/// What a page says about its article outside the article: JSON-LD (schema.org), OpenGraph,
/// Twitter and Dublin Core `<meta>`, `<title>`, `<html lang>`. Read before the page is cut down.
struct ArticleMetadata {
    var title: String?
    var byline: String?
    var excerpt: String?
    var siteName: String?
    var published: Date?
    var image: String?
    var language: String?
    /// `<title>`, as written (whitespace collapsed).
    var documentTitle: String?

    init(_ document: ArticleDocument) {
        // One walk over the page for every element read here (a walk per question was 2%).
        let elements = Elements(document)
        let meta = Self.metaValues(document, elements)
        if let html = elements.first(.html), let lang = document.nodes[html].value(of: "lang"), !lang.isEmpty {
            language = lang
        }
        if let titleElement = elements.first(.title) {
            let text = ArticleDocument.collapse(document.ownText(of: titleElement))
            documentTitle = text.isEmpty ? nil : text
        }
        let cleanTitle = Self.cleanTitle(document, elements, documentTitle: documentTitle)
        let jsonLD = Self.jsonLD(document, elements, cleanTitle: cleanTitle)
        title =
            jsonLD.title
            ?? Self.first(
                meta,
                [
                    "dc:title", "dcterm:title", "og:title", "weibo:article:title", "weibo:webpage:title", "title",
                    "twitter:title", "parsely-title",
                ])
        byline =
            jsonLD.byline
            ?? Self.first(meta, ["dc:creator", "dcterm:creator", "author", "parsely-author"])
            ?? Self.first(meta, ["article:author"]).flatMap { $0.contains("://") ? nil : $0 }
        excerpt =
            jsonLD.excerpt
            ?? Self.first(
                meta,
                [
                    "dc:description", "dcterm:description", "og:description", "weibo:article:description",
                    "weibo:webpage:description", "description", "twitter:description",
                ])
        siteName = jsonLD.siteName ?? Self.first(meta, ["og:site_name"])
        published =
            (jsonLD.published ?? Self.first(meta, ["article:published_time", "parsely-pub-date", "datepublished", "dc:date", "date"]))
            .flatMap(DateParser.parse)
            ?? Self.timeElement(document, elements)
        image =
            jsonLD.image
            ?? Self.first(meta, ["og:image", "og:image:url", "og:image:secure_url", "twitter:image", "twitter:image:src"], decode: false)
        title = title ?? cleanTitle
    }

    /// The `<meta>` values by normalized name (lowercased, spaces out, `.` as `:`), as Readability
    /// reads them: a `property` may hold several names ("og:title twitter:title"), a `name` or
    /// `itemprop` one; a later tag of the same name wins.
    /// The elements the metadata is read from, in page order, found in one walk.
    struct Elements {
        static let read = ArticleTagSet([.meta, .script, .time, .h1, .h2, .html, .title])
        let all: [Int]
        let tags: [ArticleTag]

        init(_ document: ArticleDocument) {
            all = document.descendants(of: ArticleDocument.root, tagged: Self.read)
            tags = all.map { document.nodes[$0].tag }
        }

        func tagged(_ wanted: ArticleTagSet) -> [Int] {
            all.indices.filter { wanted.contains(tags[$0]) }.map { all[$0] }
        }

        func tagged(_ wanted: ArticleTag) -> [Int] {
            all.indices.filter { tags[$0] == wanted }.map { all[$0] }
        }

        func first(_ wanted: ArticleTag) -> Int? {
            tags.firstIndex(of: wanted).map { all[$0] }
        }
    }

    static func metaValues(_ document: ArticleDocument, _ elements: Elements) -> [String: String] {
        var meta: [String: String] = [:]
        for index in elements.tagged(.meta) {
            let node = document.nodes[index]
            guard let content = node.value(of: "content").map(ArticleDocument.collapse), !content.isEmpty else { continue }
            var named = false
            if let property = node.value(of: "property") {
                for name in property.lowercased().split(whereSeparator: \.isWhitespace) {
                    meta[String(name)] = content
                    named = true
                }
            }
            guard !named else { continue }
            for key in [node.value(of: "name"), node.value(of: "itemprop")].compactMap({ $0 }) {
                let name = String(key.lowercased().filter { !$0.isWhitespace }.map { $0 == "." ? ":" : $0 })
                if !name.isEmpty { meta[name] = content }
            }
        }
        return meta
    }

    /// The first `<time datetime>` marked as the publication date, else the first `<time>` in an
    /// article's header; nil when the page has none.
    static func timeElement(_ document: ArticleDocument, _ elements: Elements) -> Date? {
        let times = elements.tagged(.time)
        for index in times {
            let node = document.nodes[index]
            let itemprop = node.value(of: "itemprop")?.lowercased() ?? ""
            let className = node.value(of: "class")?.lowercased() ?? ""
            guard itemprop.contains("datepublished") || className.contains("publish") || node.value(of: "pubdate") != nil
            else { continue }
            if let value = node.value(of: "datetime"), let date = DateParser.parse(value) { return date }
        }
        return nil
    }

    /// The first of `keys` the page gives; its entities decoded once more (pages escape twice),
    /// unless it is a URL.
    private static func first(_ meta: [String: String], _ keys: [String], decode: Bool = true) -> String? {
        for key in keys {
            if let value = meta[key], !value.isEmpty { return decode ? HTMLText.plainText(fromTitle: value) : value }
        }
        return nil
    }

    // MARK: - JSON-LD

    struct JSONLD {
        var title: String?
        var byline: String?
        var excerpt: String?
        var siteName: String?
        var published: String?
        var image: String?
    }

    /// schema.org types that are an article.
    static let articleTypes: Set<String> = [
        "Article", "AdvertiserContentArticle", "NewsArticle", "AnalysisNewsArticle", "AskPublicNewsArticle",
        "BackgroundNewsArticle", "OpinionNewsArticle", "ReportageNewsArticle", "ReviewNewsArticle", "Report",
        "SatiricalArticle", "ScholarlyArticle", "MedicalScholarlyArticle", "SocialMediaPosting", "BlogPosting",
        "LiveBlogPosting", "DiscussionForumPosting", "TechArticle", "APIReference",
    ]

    /// The first article object of the page's `application/ld+json` scripts.
    static func jsonLD(_ document: ArticleDocument, _ elements: Elements, cleanTitle: String?) -> JSONLD {
        for index in elements.tagged(.script) {
            guard document.nodes[index].value(of: "type")?.lowercased() == "application/ld+json" else { continue }
            var text = document.ownText(of: index).trimmingCharacters(in: .whitespacesAndNewlines)
            // Some pages wrap it in a CDATA section.
            if text.hasPrefix("<![CDATA["), text.hasSuffix("]]>") { text = String(text.dropFirst(9).dropLast(3)) }
            guard text.utf8.count <= 1_048_576,
                let parsed = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]),
                let article = findArticle(parsed, depth: 0)
            else { continue }
            var result = JSONLD()
            let name = string(article["name"])
            let headline = string(article["headline"])
            // Readability's choice: the name, unless only the headline reads like the page's title.
            if let name, let headline, name != headline, let cleanTitle {
                let headlineMatches = similarity(headline, cleanTitle) > 0.75
                let nameMatches = similarity(name, cleanTitle) > 0.75
                result.title = headlineMatches && !nameMatches ? headline : name
            } else {
                result.title = name ?? headline
            }
            result.byline = author(article["author"])
            result.excerpt = string(article["description"])
            if let publisher = article["publisher"] as? [String: Any] { result.siteName = string(publisher["name"]) }
            result.published = string(article["datePublished"])
            result.image = imageURL(article["image"])
            return result
        }
        return JSONLD()
    }

    private static func findArticle(_ value: Any, depth: Int) -> [String: Any]? {
        guard depth < 8 else { return nil }
        if let array = value as? [Any] {
            for item in array {
                if let found = findArticle(item, depth: depth + 1) { return found }
            }
            return nil
        }
        guard let object = value as? [String: Any] else { return nil }
        let types: [String] =
            if let type = object["@type"] as? String { [type] } else { (object["@type"] as? [Any])?.compactMap { $0 as? String } ?? [] }
        if types.contains(where: articleTypes.contains) { return object }
        if let graph = object["@graph"] { return findArticle(graph, depth: depth + 1) }
        if let main = object["mainEntity"] { return findArticle(main, depth: depth + 1) }
        return nil
    }

    private static func string(_ value: Any?) -> String? {
        guard let text = value as? String else { return nil }
        let plain = HTMLText.plainText(fromTitle: text)
        return plain.isEmpty ? nil : plain
    }

    private static func author(_ value: Any?) -> String? {
        if let name = string(value) { return name }
        if let object = value as? [String: Any] { return string(object["name"]) }
        if let array = value as? [Any] {
            let names = array.compactMap { item -> String? in
                if let name = item as? String { return string(name) }
                return (item as? [String: Any]).flatMap { string($0["name"]) }
            }
            return names.isEmpty ? nil : names.joined(separator: ", ")
        }
        return nil
    }

    private static func imageURL(_ value: Any?) -> String? {
        if let url = value as? String, !url.isEmpty { return ArticleDocument.collapse(url) }
        if let object = value as? [String: Any] { return imageURL(object["url"]) ?? imageURL(object["contentUrl"]) }
        if let array = value as? [Any], let first = array.first { return imageURL(first) }
        return nil
    }

    /// How alike two texts read (Readability's `_textSimilarity`): 1 minus the share of `b`'s
    /// words (by length) that `a` does not have.
    static func similarity(_ a: String, _ b: String) -> Double {
        TextSimilarity(a).similarity(to: b)
    }

    // MARK: - The title

    /// The article's title from the document's `<title>`, without the site's name around it:
    /// Readability's rules (a separator and the shorter part dropped, a colon's prefix, a lone
    /// `h1` when the title is odd), so "Story – Site" gives "Story".
    static func cleanTitle(_ document: ArticleDocument, _ elements: Elements, documentTitle: String?) -> String? {
        let original = documentTitle ?? ""
        var title = original
        var hadHierarchicalSeparators = false
        if let range = lastSeparator(in: original, separators: separators) {
            hadHierarchicalSeparators = lastSeparator(in: original, separators: hierarchicalSeparators) != nil
            title = String(original[..<range.lowerBound])
            // Too short: the site's name came first, so the first part goes instead.
            if wordCount(title) < 3, let first = original.firstIndex(where: { separators.contains($0) }) {
                title = String(original[original.index(after: first)...])
            }
        } else if original.contains(": ") {
            let headings = elements.tagged(ArticleTagSet([.h1, .h2]))
            let trimmed = original.trimmingCharacters(in: .whitespaces)
            let matches = headings.contains { document.normalizedText(of: $0) == trimmed }
            if !matches, let colon = original.range(of: ":", options: .backwards), let first = original.range(of: ":") {
                title = String(original[colon.upperBound...])
                if wordCount(title) < 3 {
                    title = String(original[first.upperBound...])
                } else if wordCount(String(original[..<first.lowerBound])) > 5 {
                    // Many words before the colon: the title and the headings disagree; keep it whole.
                    title = original
                }
            }
        } else if original.count > 150 || original.count < 15 {
            let h1s = elements.tagged(.h1)
            if h1s.count == 1 { title = document.normalizedText(of: h1s[0]) }
        }
        title = ArticleDocument.collapse(title)
        // Four words or fewer left: the whole title, unless only a hierarchical prefix went.
        let words = wordCount(title)
        if words <= 4,
            !hadHierarchicalSeparators || words != wordCount(String(original.filter { !separators.contains($0) })) - 1
        {
            title = original
        }
        return title.isEmpty ? nil : title
    }

    static let separators: Set<Character> = ["|", "-", "\u{2013}", "\u{2014}", "\\", "/", ">", "\u{BB}"]
    static let hierarchicalSeparators: Set<Character> = ["\\", "/", ">", "\u{BB}"]

    /// Words as Readability counts them (a split on whitespace runs, so a leading or trailing
    /// space counts as an empty word).
    static func wordCount(_ text: String) -> Int {
        text.split(omittingEmptySubsequences: false, whereSeparator: \.isWhitespace).count
            - max(0, runsOfWhitespace(text))
    }

    /// How many whitespace characters follow another whitespace character (they make no word).
    private static func runsOfWhitespace(_ text: String) -> Int {
        var count = 0
        var previousWasSpace = false
        for character in text {
            let isSpace = character.isWhitespace
            if isSpace, previousWasSpace { count += 1 }
            previousWasSpace = isSpace
        }
        return count
    }

    /// The last ` X ` separator (spaces around it) in `text`.
    private static func lastSeparator(in text: String, separators: Set<Character>) -> Range<String.Index>? {
        var index = text.endIndex
        while index > text.startIndex {
            index = text.index(before: index)
            if separators.contains(text[index]), isSpaced(text, at: index) {
                return index..<text.index(after: index)
            }
        }
        return nil
    }

    private static func isSpaced(_ text: String, at index: String.Index) -> Bool {
        guard index > text.startIndex, text.index(after: index) < text.endIndex else { return false }
        return text[text.index(before: index)].isWhitespace && text[text.index(after: index)].isWhitespace
    }
}
