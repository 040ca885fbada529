import Foundation
@testable import KioskHTML
import Testing

@testable import KioskCore

/// What surrounds a short post and looks more like an article than the post does.
@Suite struct BoilerplateTests {
    static let post =
        "Auch auf dem KnowledgeCamp 2019, das vom Team in Berlin ausgerichtet wurde, haben wir Gäste gebeten, vom Camp zu erzählen und über ihre Eindrücke zu sprechen."

    @Test func aShortPostIsNotItsAuthorsBox() throws {
        let page = """
            <!doctype html><html lang="de"><head><title>KOA039 Live vom KnowledgeCamp 2019</title></head><body>
            <article class="post type-post hentry">
            <header class="entry-header"><h1 class="entry-title">KOA039 Live vom KnowledgeCamp 2019</h1>
            <div class="entry-meta">Veröffentlicht am 17. Dezember 2019 <span class="by-author">von Simon</span></div></header>
            <div class="entry-content"><p>\(Self.post)</p></div>
            <footer class="entry-meta">Dieser Eintrag wurde veröffentlicht in Podcast.
            <div id="author-info"><div id="author-description"><h2>Über Simon</h2>
            <p>Scholarch der Akademie. Von der Ausbildung Ingenieur, mit Schwerpunkt Nachrichtentechnik. Ich brenne für lernende Organisationen, Wissensmanagement, New Work und lebenslanges Lernen. Mitglied in mehreren Gemeinschaften, Gesellschaften, Vereinen und Clubs, und so weiter, und so fort, und noch mehr.</p>
            <a href="/author/simon">Zeige alle Beiträge von Simon →</a></div></div></footer>
            </article></body></html>
            """
        let article = try ArticleExtractor.extract(Array(page.utf8), url: "https://podcast.example/koa039")
        #expect(article.text.contains(Self.post))
        #expect(!article.text.contains("Scholarch der Akademie"))
    }
}

/// Leads to other articles, in the page's language, are not the article.
@Suite struct RelatedReadingTests {
    @Test func aRelatedPostsHeadingGoesWithItsListAndAReadAlsoLineGoes() throws {
        let paragraphs = ArticleExtractorTests.paragraphs.map { "<p>\($0)</p>" }
        let article = """
            \(paragraphs[0...2].joined())
            <p>Lea también: <a href="/otra">Impiden ingreso a reportero y camarógrafo</a></p>
            \(paragraphs[3...].joined())
            <h3>Mehr zum Thema</h3>
            <ul><li><a href="/a">Die besten Weihnachtsmärkte im Land</a></li><li><a href="/b">Hochwasser: Was jetzt zu tun ist</a></li></ul>
            """
        let found = try ArticleExtractor.extract(ArticleExtractorTests.page(article: article), url: "https://courier.example/2024/floods")
        for paragraph in ArticleExtractorTests.paragraphs { #expect(found.text.contains(paragraph)) }
        for lead in ["Lea también", "Impiden ingreso", "Mehr zum Thema", "Weihnachtsmärkte"] {
            #expect(!found.text.contains(lead), "\(lead) leads elsewhere")
        }
    }

    @Test func wordsNotLeadsStay() {
        #expect(RelatedReading.isHeading("Related posts"))
        #expect(RelatedReading.isHeading("Das könnte Sie auch interessieren:"))
        #expect(RelatedReading.isHeading("À lire aussi"))
        #expect(!RelatedReading.isHeading("See also"))
        #expect(!RelatedReading.isHeading("Related work in the field"))
        #expect(RelatedReading.isReadAlsoLine("Read more: Looted colonial art"))
        #expect(!RelatedReading.isReadAlsoLine("Residents said: the water rose fast"))
    }
}

/// An image's credit is shown under it, but it is nobody's text to read or search.
@Suite struct CreditTests {
    @Test func aCreditLeavesTheTextAndStaysInTheHTML() throws {
        let paragraphs = ArticleExtractorTests.paragraphs.map { "<p>\($0)</p>" }
        let article = """
            \(paragraphs[0...1].joined())
            <figure><img src="/river.jpg" alt=""><figcaption><p>The river at dawn, from the old bridge.</p>
            <p>Foto: dpa/Jane Doe</p></figcaption></figure>
            \(paragraphs[2...].joined())
            <figure><img src="/wall.jpg" alt=""><figcaption>The new wall.<span class="copyright-note">Bundesregierung/Steffen Kugler</span></figcaption></figure>
            """
        let found = try ArticleExtractor.extract(ArticleExtractorTests.page(article: article), url: "https://courier.example/2024/floods")
        for paragraph in ArticleExtractorTests.paragraphs { #expect(found.text.contains(paragraph)) }
        #expect(found.text.contains("The river at dawn, from the old bridge."))
        #expect(found.text.contains("The new wall."))
        #expect(!found.text.contains("Jane Doe"))
        #expect(!found.text.contains("Steffen Kugler"))
        #expect(found.html.contains("Foto: dpa/Jane Doe"))
    }

    @Test func onlyCreditLinesAreCredits() {
        #expect(CreditLine.matches("Foto: GdP/Hagen Immel"))
        #expect(CreditLine.matches("© iStock.com"))
        #expect(CreditLine.matches("(Quelle: Fleischmann/Unsplash/DJV)"))
        #expect(!CreditLine.matches("Photography is what she loved most, she said."))
        #expect(!CreditLine.matches(String(repeating: "Foto: a long sentence that goes on ", count: 5)))
    }
}

/// The new judgements stay linear and modest on pages made to defeat them.
@Suite struct BoilerplateBoundsTests {
    @Test func fiftyThousandRelatedHeadingsAreRemovedInOnePass() throws {
        let paragraphs = ArticleExtractorTests.paragraphs.map { "<p>\($0)</p>" }.joined()
        let leads = String(repeating: "<h3>Related posts</h3><ul><li><a href=\"/a\">Another story here</a></li></ul>", count: 50_000)
        // Past the tree's default budget (so a page like it is refused before any pass): allowed
        // here, to time the pass itself.
        let article = try ArticleExtractor.extract(
            ArticleExtractorTests.page(article: paragraphs + "<div>" + leads + "</div>"), url: "https://courier.example/a",
            limits: ArticleLimits(maxTreeBytes: .max))
        #expect(article.text.contains(ArticleExtractorTests.paragraphs[0]))
        #expect(!article.text.contains("Another story here"))
    }
}
