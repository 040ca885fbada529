import Foundation
@testable import KioskHTML
import Testing

@testable import KioskCore

/// The page's own article (`<article>`, `itemprop="articleBody"`, `<main>`) is a second opinion
/// beside the grabber's scoring: a block that merely looks like an article more than the article
/// does (many short lines with commas, a sign-up form) does not win over it.
@Suite struct DeclaredArticleTests {
    static let letter = [
        "Our cultural institutions are facing a moment of trial. Powerful protests for racial and social justice are leading to overdue demands for police reform, along with wider calls for greater equality and inclusion across our society.",
        "The free exchange of information and ideas, the lifeblood of a liberal society, is daily becoming more constricted. While we have come to expect this on the radical right, censoriousness is also spreading more widely in our culture.",
        "This stifling atmosphere will ultimately harm the most vital causes of our time. The restriction of debate, whether by a repressive government or an intolerant society, invariably hurts those who lack power.",
    ]

    @Test func aLetterIsNotItsListOfSignatories() throws {
        let names = (1...120).map { "<tr><td>Signatory Number\($0), University of Somewhere</td></tr>" }.joined()
        let page = """
            <!doctype html><html><head><title>A Letter on Justice</title></head><body>
            <nav><a href="/">Home</a> <a href="/archive">Archive</a></nav>
            <article><div class="wysiwyg-content">
            <p><strong>July 7, 2020</strong></p>
            \(Self.letter.map { "<p><span>\($0)</span></p>" }.joined())
            <table><tbody>\(names)</tbody></table>
            <p>Institutions are listed for identification purposes only.</p>
            </div></article>
            <footer><a href="/privacy">Privacy Policy</a> <a href="/care">Customer Care</a></footer>
            </body></html>
            """
        let article = try ArticleExtractor.extract(Array(page.utf8), url: "https://magazine.example/a-letter")
        for paragraph in Self.letter { #expect(article.text.contains(paragraph)) }
        #expect(!article.text.contains("Privacy Policy"))
    }

    @Test func aSignUpFormBesideTheArticleIsNotTheArticle() throws {
        let fields = (1...12).map { "<p><label>Field number \($0), required, as the law says (obligatoire)</label></p>" }.joined()
        let page = """
            <!doctype html><html><head><title>Privatisations</title></head><body>
            <div class="subscribe"><form>\(fields)<p>Receive the letter, the calls to act, at most two or three messages a month, and local news, events, meetings.</p></form></div>
            <article><h1>Privatisations</h1><div class="chapo"><p>\(Self.letter[0])</p></div>
            <div class="texte"><p>\(Self.letter[1])</p></div></article>
            </body></html>
            """
        let article = try ArticleExtractor.extract(Array(page.utf8), url: "https://association.example/privatisations")
        #expect(article.text.contains(Self.letter[0]))
        #expect(article.text.contains(Self.letter[1]))
        #expect(!article.text.contains("Field number"))
    }

    @Test func thePagesOwnArticleIsFoundOnlyWhenItHoldsAnArticle() {
        func declared(_ body: String) -> String? {
            let document = ArticleDocument(utf8: Array("<html><body>\(body)</body></html>".utf8), maxDepth: 512)
            return DeclaredArticle.find(in: document).map { document.normalizedText(of: $0) }
        }
        let long = String(repeating: "A sentence of the article. ", count: 12)
        #expect(declared("<article>\(long)</article><article>Teaser</article>")?.hasPrefix("A sentence") == true)
        #expect(declared("<main><div itemprop=\"articleBody\">\(long)</div><p>Share</p></main>") == declared("<div itemprop=\"articleBody\">\(long)</div>"))
        // Teaser cards alike: none is the article.
        #expect(declared(String(repeating: "<article>\(long)</article>", count: 3)) == nil)
        #expect(declared("<article>Short teaser</article>") == nil)
        // Tucked away: an aside's, a hidden block's, a template's article is nobody's article.
        #expect(declared("<aside><article>\(long)</article></aside>") == nil)
        #expect(declared("<div hidden><article>\(long)</article></div>") == nil)
        #expect(declared("<div style=\"display: none\"><main>\(long)</main></div>") == nil)
        #expect(declared("<aside><article>\(long)</article></aside><article>\(long) Mine.</article>")?.hasSuffix("Mine.") == true)
        // An article's body is never a teaser: a theme wrapping the content column in an aside
        // still has its article (rnz.de's news pages).
        #expect(declared("<main><aside><article><div itemprop=\"articleBody\">\(long)</div></article></aside></main>")?.hasPrefix("A sentence") == true)
        #expect(declared("<footer><div itemprop=\"articleBody\">\(long)</div></footer>") == nil)
    }
}
