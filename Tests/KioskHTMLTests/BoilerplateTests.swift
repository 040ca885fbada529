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

/// Comments named in the page's language are comments too.
@Suite struct CommentSectionTests {
    @Test func commentsNamedInGermanOrFrenchAreNotTheArticle() throws {
        let paragraphs = ArticleExtractorTests.paragraphs.map { "<p>\($0)</p>" }
        let article = """
            \(paragraphs.joined())
            <section class="kommentare" id="kommentare"><h2>0 Kommentare</h2><p>Keine Kommentare (Kommentare erscheinen erst nach unserer Freigabe)</p></section>
            <div id="zone-commentaires"><h3>Laisser un commentaire</h3><p>Vous devez être connecté pour publier un commentaire.</p></div>
            """
        let found = try ArticleExtractor.extract(ArticleExtractorTests.page(article: article), url: "https://courier.example/2024/floods")
        for paragraph in ArticleExtractorTests.paragraphs { #expect(found.text.contains(paragraph)) }
        for line in ["Keine Kommentare", "0 Kommentare", "connecté"] { #expect(!found.text.contains(line), "\(line) is a comment box's") }
    }
}

/// A box to fill in (a newsletter's sign-up, a comment form) and a post's filing line are the
/// site's, not the article's.
@Suite struct SignUpBoxTests {
    @Test func aSignUpBoxAndAFilingLineLeaveTheText() throws {
        let paragraphs = ArticleExtractorTests.paragraphs.map { "<p>\($0)</p>" }
        let article = """
            \(paragraphs.joined())
            <div class="blog-subscribe"><p><strong>Email Newsletter</strong></p><form action="/subscribe" method="post">
            <p>Missing out on the latest developments? Enter your email below to receive future announcements.</p>
            <p><input type="email" name="email"><input type="submit" value="Sign me up"></p></form></div>
            <div class="entry-utility">This entry was posted in <a href="/category/news">News</a>. Bookmark the <a href="/p">permalink</a>.</div>
            """
        let found = try ArticleExtractor.extract(ArticleExtractorTests.page(article: article), url: "https://courier.example/2024/floods")
        for paragraph in ArticleExtractorTests.paragraphs { #expect(found.text.contains(paragraph)) }
        for line in ["Email Newsletter", "Missing out", "This entry was posted"] { #expect(!found.text.contains(line), "\(line) is the site's") }
    }

    @Test func aPageWrappedInOneFormKeepsItsArticle() throws {
        // ASP.NET wraps the whole page in a form with fields to type in.
        let paragraphs = ArticleExtractorTests.paragraphs.map { "<p>\($0)</p>" }.joined()
        let page = """
            <!doctype html><html><head><title>Floods in the lower town</title></head><body>
            <form id="aspnetForm" method="post"><input type="hidden" name="__VIEWSTATE" value="x">
            <div class="search"><input type="text" name="q"></div>
            <div id="main"><article><h1>Floods in the lower town</h1>\(paragraphs)</article></div></form></body></html>
            """
        let found = try ArticleExtractor.extract(Array(page.utf8), url: "https://courier.example/2024/floods")
        for paragraph in ArticleExtractorTests.paragraphs { #expect(found.text.contains(paragraph)) }
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
        #expect(!RelatedReading.isHeading("Further reading"))
        #expect(RelatedReading.isHeading("Zum Weiterlesen:"))
        #expect(RelatedReading.isHeading("Other People Are Reading"))
        #expect(RelatedReading.isHeading("Mehr zum Thema auf UEPO.de"))
        #expect(RelatedReading.isHeading("Pour aller plus loin"))
        #expect(!RelatedReading.isHeading("Mehr zum Thema auf einer Konferenz in Berlin, die im Mai stattfand"))
        #expect(!RelatedReading.isHeading("Más de 300 personas murieron"))
        #expect(!RelatedReading.isHeading("Plus de 200 manifestants arrêtés"))
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

    @Test func aCaptionKeepsItsWordsAndLosesTheCreditItEndsWith() throws {
        let paragraphs = ArticleExtractorTests.paragraphs.map { "<p>\($0)</p>" }
        let article = """
            \(paragraphs[0...1].joined())
            <div class="img-inline"><a href="/big.jpg"><img src="/ski.jpg"></a></div>
            <p class="imagedescription">Marco Odermatt, Ski-Star aus der Schweiz. © AFP / Marco Bertorello</p>
            <p><span><a href="/h.jpg"><img src="/h.jpg" alt=""></a></span>
            <span class="rte-caption">Das Hermelin ist im Winter gut getarnt. (mlharing / iStock.com)</span></p>
            \(paragraphs[2...].joined())
            <figure><img src="/coal.png" alt=""><figcaption>Coal generation since 2009 | Photo: Clayton Aldern, Grist</figcaption></figure>
            <p>The plant closed in 2019 (Source: the operator).</p>
            """
        let found = try ArticleExtractor.extract(ArticleExtractorTests.page(article: article), url: "https://courier.example/2024/snow")
        for paragraph in ArticleExtractorTests.paragraphs { #expect(found.text.contains(paragraph)) }
        #expect(found.text.contains("Marco Odermatt, Ski-Star aus der Schweiz."))
        #expect(found.text.contains("Das Hermelin ist im Winter gut getarnt."))
        #expect(found.text.contains("Coal generation since 2009"))
        for credit in ["Bertorello", "iStock", "Clayton Aldern"] { #expect(!found.text.contains(credit), "\(credit) is a credit") }
        // Not a caption: the article's own words stay.
        #expect(found.text.contains("The plant closed in 2019 (Source: the operator)."))
        #expect(found.html.contains("© AFP / Marco Bertorello"))
    }

    @Test func aCreditIsTheEndOfACaptionOnly() {
        #expect(CaptionCredit.withoutCredit("Roman Prymula, photo: Archives du Gouvernement tchèque") == "Roman Prymula")
        #expect(CaptionCredit.withoutCredit("Lee Elder war gesegnet. | © Augusta National/Getty Images") == "Lee Elder war gesegnet.")
        #expect(CaptionCredit.withoutCredit("Das FWR reagiert. (Quelle: Fleischmann/Unsplash/DJV)") == "Das FWR reagiert.")
        #expect(CaptionCredit.withoutCredit("Foto: Jane Doe") == "")
        #expect(CaptionCredit.withoutCredit("The old mill (left) and the new one") == nil)
        #expect(CaptionCredit.withoutCredit("Der Turm von Westen (siehe Foto)") == nil)
        #expect(ContactBlock.reachesSomeone("Telefon +49 40 490711"))
        #expect(!ContactBlock.reachesSomeone("Mit dem Smartphone ins Hotel."))
        #expect(CaptionCredit.withoutCredit("Ein Foto: wie es in der Zeitung stand, das Haus am See, lange bevor es abbrannte, als noch alle dort wohnten und feierten") == nil)
    }

    @Test func onlyCreditLinesAreCredits() {
        #expect(CreditLine.matches("Foto: GdP/Hagen Immel"))
        #expect(CreditLine.matches("© iStock.com"))
        #expect(CreditLine.matches("(Quelle: Fleischmann/Unsplash/DJV)"))
        #expect(CreditLine.matches("(© FEI/Christophe Taniere)"))
        #expect(CreditLine.matches("Photograph by Ed Marshall"))
        // Left as a caption: Readability's answers keep it (keep-images).
        #expect(!CreditLine.matches("Photo by Joan Bardeletti"))
        #expect(!CreditLine.matches("Photography is what she loved most, she said."))
        #expect(!CreditLine.matches(String(repeating: "Foto: a long sentence that goes on ", count: 5)))
    }
}

/// Parts of the page around the text that are found by their words: a box about the author, a
/// row of teasers under a "Related" heading, an advertisement's label, a way back, a date line.
@Suite struct PageFurnitureTests {
    static let paragraphs = ArticleExtractorTests.paragraphs.map { "<p>\($0)</p>" }

    @Test func aBoxAboutTheAuthorIsNotTheArticleItOutscores() throws {
        // The article is shorter than the biography, which would score as an article.
        let page = """
            <!doctype html><html lang="de"><head><title>Anzahl zugelassener Parteien</title></head><body>
            <article><header><h1>Anzahl zugelassener Parteien</h1></header>
            <section class="content"><p><em>Weil es zu viele sind und viele auch nur in wenigen Bundesländern mit einer Landesliste antreten, haben wir uns auf die größten beschränkt.</em></p></section>
            <div class="pb-xl"><h2>Autor:innen</h2><div class="columns"><a href="/autoren/te">Tim Ehlers</a>
            <div class="content"><p>Geboren 1983, ist seit 2015 Redakteur bei KATAPULT und vor allem als Layouter, Grafiker und Lektor tätig. Er hat Germanistik, Kunstgeschichte und Deutsch als Fremdsprache an der Universität Greifswald studiert.</p>
            <p>Sein wissenschaftliches Hauptinteresse liegt im Bereich der Sprachwissenschaft.</p></div></div></div>
            </article></body></html>
            """
        let article = try ArticleExtractor.extract(Array(page.utf8), url: "https://magazin.example/parteien")
        #expect(article.text.contains("haben wir uns auf die größten beschränkt."))
        #expect(!article.text.contains("Geboren 1983"))
    }

    @Test func anAuthorsHeadingTakesTheBoxAfterIt() throws {
        // The heading set apart from the box it announces, as a theme's plugin draws it.
        let article = """
            \(Self.paragraphs.joined())
            <div class="share"><a href="/f">Facebook</a> <a href="/t">Twitter</a></div>
            <div class="col-md-12" style="font-weight:bold">Über den Autor</div>
            <div class="saboxplugin-wrap" itemprop="author"><div><img src="/jl.jpg" alt="Jossi Loibl"></div>
            <div><a href="/author/jl" rel="author">Jossi Loibl</a></div><div><p>Jossi Loibl (Jahrgang 1962) schreibt seit mehr als 25 Jahren über die Themen Wein und Gastronomie, als freier Autor für namhafte Magazine.</p></div></div>
            """
        let found = try ArticleExtractor.extract(ArticleExtractorTests.page(article: article), url: "https://courier.example/2024/floods")
        for paragraph in ArticleExtractorTests.paragraphs { #expect(found.text.contains(paragraph)) }
        #expect(!found.text.contains("Über den Autor"))
        #expect(!found.text.contains("Jahrgang 1962"))
    }

    @Test func aPressReleasesContactBlockGoesAndAContactSectionOfWordsStays() throws {
        let article = """
            \(Self.paragraphs.joined())
            <p><strong>Kontakt:</strong></p>
            <p>Dr. Hendryk Bockelmann<br>Deutsches Klimarechenzentrum<br>E-Mail: bockelmann@dkrz.example</p>
            <h2>Ansprechpartnerin zum Thema:</h2><div><b>Antonia Thiele</b></div><p>Telefon +49 (0)40 / 49 07 11 05</p>
            """
        let found = try ArticleExtractor.extract(ArticleExtractorTests.page(article: article), url: "https://courier.example/2024/floods")
        for paragraph in ArticleExtractorTests.paragraphs { #expect(found.text.contains(paragraph)) }
        for line in ["Kontakt", "Bockelmann", "Ansprechpartnerin", "Antonia Thiele", "49 07 11 05"] {
            #expect(!found.text.contains(line), "\(line) is whom to call")
        }
        // A section called "Contact" that says something, with no one to call, is the article's.
        let words = "<h2>Contact</h2><p>\(ArticleExtractorTests.paragraphs[0].prefix(70))</p>"
        let kept = try ArticleExtractor.extract(
            ArticleExtractorTests.page(article: Self.paragraphs.joined() + words), url: "https://courier.example/2024/floods")
        #expect(kept.text.contains("Contact"))
    }

    @Test func anAppealAtTheEndGoesAndTheSameWordsEarlierStay() throws {
        let early = "<p>Residents were asked to follow the police on Twitter for updates, and to subscribe to our alerts by text.</p>"
        let article = """
            \(early)\(Self.paragraphs.joined())
            <p><strong>Follow The Courier on Twitter and Instagram @ValleyCourier and on Facebook.</strong></p>
            <p>If you enjoyed reading this post – would you consider supporting our work? Just click here. Thanks!</p>
            """
        let found = try ArticleExtractor.extract(ArticleExtractorTests.page(article: article), url: "https://courier.example/2024/floods")
        for paragraph in ArticleExtractorTests.paragraphs { #expect(found.text.contains(paragraph)) }
        #expect(found.text.contains("Residents were asked to follow the police on Twitter"))
        #expect(!found.text.contains("@ValleyCourier"))
        #expect(!found.text.contains("supporting our work"))
        #expect(ReaderAppeal.isAppeal("Zapraszamy też do subskrypcji tygodnika"))
        #expect(!ReaderAppeal.isAppeal("Follow the river to the old mill."))
        #expect(!ReaderAppeal.isAppeal("Meta will follow Twitter's lead, analysts said."))
        #expect(!ReaderAppeal.isAppeal("Sweden is expected to become a member this year."))
    }

    @Test func aRelatedHeadingTakesItsRowOfTeasersAndABoxOfLinksGoesWhole() throws {
        // Teasers whose links hold only an image (their headlines are plain text), and a box
        // that opens with its own heading.
        let teasers = ["Respekt vor dem Klassiker", "Erinnerung an den Sohn des Gründers", "Ford GT erzielte 1,15 Millionen"]
            .map { "<div class=\"teaser\"><article><div><h3>\($0)</h3></div><a href=\"/x\"><img src=\"/t.jpg\" alt=\"\"></a></article></div>" }
        let article = """
            \(Self.paragraphs.joined())
            <h2>Weitere Beiträge zum Thema</h2><div class="row">\(teasers.joined())</div>
            <ul class="links"><li><a href="/more">Mehr zum Thema</a><ul><li><a href="/a">Covid-19 oder Grippe?</a></li>
            <li><a href="/b">Corona &amp; Asthma</a></li><li><a href="/c">Coronavirus: Wie lange ansteckend? Ein Überblick über die Fristen</a></li>
            <li><a href="/d">Coronavirus: Häusliche Quarantäne, was gilt und was nicht, und wer sie anordnet</a></li></ul></li></ul>
            """
        let found = try ArticleExtractor.extract(ArticleExtractorTests.page(article: article), url: "https://courier.example/a")
        for paragraph in ArticleExtractorTests.paragraphs { #expect(found.text.contains(paragraph)) }
        for lead in ["Weitere Beiträge", "Respekt vor dem Klassiker", "Ford GT", "Mehr zum Thema", "Covid-19 oder Grippe?"] {
            #expect(!found.text.contains(lead), "\(lead) leads elsewhere")
        }
    }

    @Test func labelsOfAdvertisementsAndWaysBackGoWithTheAdvertisement() throws {
        let article = """
            \(Self.paragraphs[0...1].joined())
            <figure><a href="https://shop.example/"><img src="/ad.jpg" alt="Reklama"></a><figcaption>Reklama</figcaption></figure>
            <center>- Anzeige -</center>
            \(Self.paragraphs[2...].joined())
            <p><a href="/news">zurück zur Listenansicht</a></p>
            """
        let found = try ArticleExtractor.extract(ArticleExtractorTests.page(article: article), url: "https://courier.example/a")
        for paragraph in ArticleExtractorTests.paragraphs { #expect(found.text.contains(paragraph)) }
        for label in ["Reklama", "Anzeige", "zurück"] { #expect(!found.text.contains(label), "\(label)") }
        #expect(!found.html.contains("shop.example"), "the advertisement goes with its label")
        #expect(FurnitureLine.matches("Advertisement:"))
        #expect(!FurnitureLine.matches("Advertising revenue fell by a third last year."))
        #expect(FurnitureLine.matches("Loading..."))
        #expect(FurnitureLine.matches("Lade weitere Inhalte ..."))
        #expect(MachineryLine.matches("Warning: Creating default object from empty value in /www/htdocs/wp-includes/classes.php on line 407"))
        #expect(MachineryLine.matches("Permalien https://p.dw.com/p/RPYx"))
        #expect(MachineryLine.matches("News date : 04/21/2022 Category : Press Releases"))
        #expect(MachineryLine.matches("Aufrufe: 1120 | Hinzugefügt von: Posh | Tags: Denken, Bilder | Rating: 0.0/0"))
        #expect(!MachineryLine.matches("Warning: the river may rise again tonight, the office said."))
        #expect(!MachineryLine.matches("Tags: the game children play in the yard"))
        // A title's words split at "_" as well: the headline repeating "…新台阶_科技_腾讯网" goes.
        #expect(TextSimilarity("DeepMind新电脑已可利用记忆自学 人工智能迈上新台阶_科技_腾讯网").similarity(to: "DeepMind新电脑已可利用记忆自学 人工智能迈上新台阶") > 0.75)
        #expect(FurnitureLine.matches("正在加载"))
        #expect(!FurnitureLine.matches("Loading the ships took three days."))
    }

    static let dated = "<title>Floods in the lower town</title><meta property=\"article:published_time\" content=\"2020-10-07T08:00:00Z\">"

    @Test func aLineThatOnlyDatesTheArticleGoesAndADateInASentenceStays() throws {
        let article = """
            <p class="date"><time datetime="2020-10-07">7. oktober 2020</time></p>
            \(Self.paragraphs[0...2].joined())
            <p>On <time>16 March 2021</time> the council met again.</p>
            \(Self.paragraphs[3...].joined())
            <div>Von: Götz Warnke</div>
            """
        let found = try ArticleExtractor.extract(
            ArticleExtractorTests.page(head: Self.dated, article: article), url: "https://courier.example/a")
        for paragraph in ArticleExtractorTests.paragraphs { #expect(found.text.contains(paragraph)) }
        #expect(!found.text.contains("7. oktober 2020"))
        #expect(!found.text.contains("Götz Warnke"))
        #expect(found.byline == "Götz Warnke", "the line's name, where the metadata names nobody")
        #expect(found.text.contains("On 16 March 2021 the council met again."))
        // Without a date in the metadata, the line is the only date the reader has: it stays.
        let undated = try ArticleExtractor.extract(ArticleExtractorTests.page(article: article), url: "https://courier.example/a")
        #expect(undated.text.contains("7. oktober 2020"))
        #expect(!undated.text.contains("Götz Warnke"))
        for line in ["16 marca 2021", "3:59 PM", "23.10.2018", "opublikowano: 2021-04-29 17:13", "Aktualisiert am 3. März 2022 um 21:17 Uhr"] {
            #expect(DateLine.matches(line), "\(line)")
        }
        for line in [
            "1", "1990", "Chapter 12", "May we all meet again in 2030.", "Von: der Redaktion, die das Wort hat.", "2:1",
            "3:0 (1:0)", "1 250 000", "Di: 10–18 Uhr",
        ] {
            #expect(!DateLine.matches(line), "\(line)")
        }
    }

    @Test func datesThatAreTheArticlesStructureStay() throws {
        // A timeline's dates, and a table's, are the article's own.
        let timeline = ["May 2020", "June 2020", "July 2020", "August 2020"].enumerated()
            .map { "<p><b>\($0.element)</b></p>\(Self.paragraphs[$0.offset])" }.joined()
        let table = "<table><tr><td><p>3. März 2021</p></td><td>Opening of the new wall, by the mayor and the council</td></tr></table>"
        let found = try ArticleExtractor.extract(
            ArticleExtractorTests.page(head: Self.dated, article: timeline + Self.paragraphs[4] + table),
            url: "https://courier.example/a")
        for month in ["May 2020", "June 2020", "July 2020", "August 2020", "3. März 2021"] {
            #expect(found.text.contains(month), "\(month)")
        }
    }

    @Test func wordsOfFurnitureInAHeadingOrAListAreTheArticles() throws {
        let article = """
            \(Self.paragraphs[0...1].joined())<h3>Advertising</h3>\(Self.paragraphs[2])
            <ul><li>Advertising</li><li>Subscriptions</li><li>Events</li></ul><h3>Back</h3>\(Self.paragraphs[3...].joined())
            """
        let found = try ArticleExtractor.extract(ArticleExtractorTests.page(article: article), url: "https://courier.example/a")
        #expect(found.text.contains("Advertising\n\n"))
        #expect(found.text.components(separatedBy: "Advertising").count == 3)
        #expect(found.text.contains("Back"))
    }

    @Test func aPostsOwnAuthorLineIsNoAuthorsBox() throws {
        let brief = ArticleExtractorTests.paragraphs.joined(separator: " ")
        let page = """
            <!doctype html><html lang="de"><head><title>Hochwasser</title></head><body>
            <div class="sidebar"><p>Newsletter: Jeden Morgen die wichtigsten Nachrichten aus der Region, kostenlos, mit einem Klick.</p></div>
            <div class="post"><div class="meta"><strong>Autor:</strong> Max Muster</div><p>\(brief)</p></div>
            </body></html>
            """
        let found = try ArticleExtractor.extract(Array(page.utf8), url: "https://courier.example/a")
        #expect(found.text.contains(ArticleExtractorTests.paragraphs[0]))
    }

    @Test func theStandfirstAboveTheBodyIsTheArticlesFirstParagraph() throws {
        let standfirst = "The lower town flooded overnight; the new wall held but for one stretch by the old mill."
        let page = """
            <!doctype html><html lang="en"><head><title>Floods in the lower town</title></head><body>
            <nav><a href="/">Home</a></nav>
            <article><header class="entry__header"><h1>Floods in the lower town</h1>
            <p class="entry__subtitle">\(standfirst)</p></header>
            <div class="entry__body">\(Self.paragraphs.joined())</div></article>
            <aside><p class="lead">A standfirst of another story, in a teaser box far from this article.</p></aside>
            </body></html>
            """
        let found = try ArticleExtractor.extract(Array(page.utf8), url: "https://courier.example/a")
        #expect(found.text.hasPrefix(standfirst + "\n\n"))
        #expect(found.html.contains(standfirst))
        for paragraph in ArticleExtractorTests.paragraphs { #expect(found.text.contains(paragraph)) }
        #expect(!found.text.contains("teaser box"))
    }

    @Test func anotherStorysTeaserIsNoStandfirst() throws {
        // A teaser's summary inside a link, above the article, and a box a site rule drops.
        let page = """
            <!doctype html><html lang="en"><head><title>Floods in the lower town</title></head><body>
            <div class="top"><a href="/other"><p class="teaser-lead">A teaser's summary of another story, over forty characters long.</p></a></div>
            <div class="promo"><p class="lead">A promoted story's standfirst, which a site rule for this host drops.</p></div>
            <article><h1>Floods in the lower town</h1><div class="body">\(Self.paragraphs.joined())</div></article>
            </body></html>
            """
        let rule = SiteRule(drop: [try ArticleSelector(".promo")])
        let found = try ArticleExtractor.extract(Array(page.utf8), url: "https://courier.example/a", rule: rule)
        #expect(found.text.hasPrefix(ArticleExtractorTests.paragraphs[0]))
    }

    @Test func aLeadImageIsNoStandfirst() throws {
        let page = """
            <!doctype html><html lang="en"><head><title>Floods in the lower town</title></head><body>
            <article><h1>Floods in the lower town</h1>
            <div class="lead-asset"><figure><img src="/river.jpg" alt=""><figcaption>The river at dawn, seen from the old bridge on Tuesday morning.</figcaption></figure></div>
            <div class="body">\(Self.paragraphs.joined())</div></article></body></html>
            """
        let found = try ArticleExtractor.extract(Array(page.utf8), url: "https://courier.example/a")
        #expect(found.text.hasPrefix(ArticleExtractorTests.paragraphs[0]))
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

    @Test(arguments: ["<p>Kontakt:</p>", "<p>Über den Autor</p>", "<h4>Pressekontakt</h4>"])
    func fiftyThousandSiblingHeadingsAreEachLookedAtBriefly(heading: String) throws {
        // Each heading looks at the few elements after it, never through all its siblings
        // (quadratic: 2.5 billion steps). The bound is generous: linear takes a few seconds
        // in a debug build.
        let paragraphs = ArticleExtractorTests.paragraphs.map { "<p>\($0)</p>" }.joined()
        let headings = String(repeating: heading, count: 50_000)
        let start = ContinuousClock.now
        let article = try ArticleExtractor.extract(
            ArticleExtractorTests.page(article: paragraphs + "<div>" + headings + "</div>"), url: "https://courier.example/a",
            limits: ArticleLimits(maxTreeBytes: .max))
        #expect(article.text.contains(ArticleExtractorTests.paragraphs[0]))
        #expect(ContinuousClock.now - start < .seconds(90))
    }

    @Test func manyStandfirstsDeepInStyledBoxesAreLookedAtFew() throws {
        // 20,000 "lead" paragraphs, each a link, 120 styled boxes deep: a few are judged, not
        // each by a walk up through every box's style.
        let style = String(repeating: "color: red; ", count: 80)
        let open = String(repeating: "<div style=\"\(style)\">", count: 120)
        let leads = String(repeating: "<p class=\"lead\"><a href=\"#\">A lead of another story, linked, long enough.</a></p>", count: 20_000)
        let paragraphs = ArticleExtractorTests.paragraphs.map { "<p>\($0)</p>" }.joined()
        let article = try ArticleExtractor.extract(
            ArticleExtractorTests.page(article: open + leads + String(repeating: "</div>", count: 120) + paragraphs),
            url: "https://courier.example/a", limits: ArticleLimits(maxTreeBytes: .max))
        #expect(article.text.contains(ArticleExtractorTests.paragraphs[0]))
    }

    @Test func nestedStandfirstBoxesOfEmptyElementsAreEachLookedAtBriefly() throws {
        // 200 nested "lead" boxes around 100,000 empty spans: each box is judged by a walk
        // bounded to a few nodes, not by all that it holds.
        let empties = String(repeating: "<span></span>", count: 100_000)
        let boxes = String(repeating: "<div class=\"lead\">", count: 200) + empties + "A standfirst of a few words only."
            + String(repeating: "</div>", count: 200)
        let paragraphs = ArticleExtractorTests.paragraphs.map { "<p>\($0)</p>" }.joined()
        let article = try ArticleExtractor.extract(
            ArticleExtractorTests.page(article: boxes + paragraphs), url: "https://courier.example/a")
        #expect(article.text.contains(ArticleExtractorTests.paragraphs[0]))
    }
}
