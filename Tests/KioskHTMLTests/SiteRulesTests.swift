import Foundation
@testable import KioskHTML
import Testing

@testable import KioskCore

/// Per-site rules: a difficult site fixed with data (selectors to keep and drop), not code.
@Suite struct SiteRulesTests {
    /// A page whose heuristics pick the long comment thread over the short story.
    static let page = """
        <html><head><title>Short story</title></head><body>
        <div class="story-text"><p>The council met on Tuesday, and the vote was close.</p>
        <div class="share-tools">Share this on Facebook and elsewhere, please, everyone.</div>
        <p>Nine voted for the plan, eight against, one abstained.</p></div>
        <div id="thread">
        \((1...12).map { "<div class=\"note\"><p>Reader note \($0): I have lived here for years, and I think the council, once again, has failed the people who live by the river, the shops, the schools and the families who rely on them.</p></div>" }.joined(separator: "\n"))
        </div></body></html>
        """

    @Test func withoutARuleTheHeuristicsChooseAndTheRuleOverridesThem() throws {
        let bytes = Array(Self.page.utf8)
        let guessed = try ArticleExtractor.extract(bytes, url: "https://news.example.com/a")
        #expect(guessed.text.contains("Reader note"))

        let rule = SiteRule(keep: [try ArticleSelector("div.story-text")], drop: [try ArticleSelector(".share-tools")])
        let ruled = try ArticleExtractor.extract(bytes, url: "https://news.example.com/a", rule: rule)
        #expect(ruled.text.contains("the vote was close"))
        #expect(ruled.text.contains("Nine voted for the plan"))
        #expect(!ruled.text.contains("Reader note"))
        #expect(!ruled.text.contains("Share this"))
        #expect(!ruled.html.contains("Share this"))
        #expect(ruled.title == "Short story")
    }

    @Test func aDropAloneLeavesTheHeuristicsToChooseFromWhatRemains() throws {
        let rule = SiteRule(drop: [try ArticleSelector("#thread"), try ArticleSelector("div .share-tools")])
        let article = try ArticleExtractor.extract(Array(Self.page.utf8), url: "https://example.com/a", rule: rule)
        #expect(article.text.contains("Nine voted for the plan"))
        #expect(!article.text.contains("Reader note"))
        #expect(!article.text.contains("Share this"))
    }

    @Test func aKeepThatMatchesNothingFallsBackToTheHeuristics() throws {
        let rule = SiteRule(keep: [try ArticleSelector("article.missing")])
        let article = try ArticleExtractor.extract(Array(Self.page.utf8), url: "https://example.com/a", rule: rule)
        #expect(article.wordCount > 0)
    }

    @Test func keptElementsComeInPageOrderAndNestedMatchesOnce() throws {
        let html = """
            <html><body><main><div class="part"><p>One. Alpha beta gamma.</p><div class="part"><p>Two, inside one.</p></div></div>
            <aside><p>Not this.</p></aside><div class="part"><p>Three. Delta epsilon.</p></div></main></body></html>
            """
        let rule = SiteRule(keep: [try ArticleSelector("main .part, [data-none]")])
        let article = try ArticleExtractor.extract(Array(html.utf8), rule: rule)
        #expect(article.text == "One. Alpha beta gamma.\n\nTwo, inside one.\n\nThree. Delta epsilon.")
    }

    @Test(arguments: [
        "article", ".story", "#main", "div.a.b", "[itemprop=articleBody]", "[data-x]", "main article .body p",
        "div[class='x y']", "*", "h1, h2", "a_b-c",
    ])
    func supportedSelectorsAreRead(_ text: String) throws {
        #expect(try ArticleSelector(text).description == text)
    }

    @Test(arguments: [
        ("", "it is empty"), ("div > p", "“>” is not supported"), ("a:hover", "“:” is not supported"),
        ("[href^=x]", "only [name] and [name=value]"), ("[x", "not closed"), (".", "not followed by a name"),
        ("a,,b", "a part between commas is empty"), ("p + p", "“+” is not supported"),
    ])
    func otherSelectorsAreRefusedWithTheReason(_ text: String, _ reason: String) {
        #expect {
            try ArticleSelector(text)
        } throws: { error in
            String(describing: error).contains(reason)
        }
    }

    @Test func selectorsMatchNamesClassesIdsAttributesAndAncestors() throws {
        let html = #"<div id="a" class="x  y"><section data-k="v"><p class="z">t</p></section></div>"#
        let document = ArticleDocument(html: html, maxDepth: 100)
        let paragraph = try #require(document.first("p"))
        for yes in ["p", ".z", "p.z", "div p", "#a p", ".x.y .z", "[data-k] p", "[data-k=v] .z", "div section p", "*"] {
            #expect(try ArticleSelector(yes).matches(paragraph, in: document), "\(yes)")
        }
        for no in ["div", ".x", "p.y", "section div p", "[data-k=w] p", "#b p", "span, h1"] {
            #expect(try !ArticleSelector(no).matches(paragraph, in: document), "\(no)")
        }
    }

    @Test func rulesAreReadFromJSONAndFoundByHost() throws {
        let json = """
            {"example.com": {"keep": ["article .body"], "drop": [".share"]},
             "news.example.com": {"drop": ["#newsletter"]},
             "WWW.Other.org": {"keep": ["main"]}}
            """
        let rules = try SiteRules(json: Array(json.utf8))
        func rule(_ url: String) throws -> SiteRule? { rules.rule(for: try #require(URL(string: url))) }
        #expect(try rule("https://example.com/a")?.keep.map(\.description) == ["article .body"])
        #expect(try rule("https://www.example.com/a")?.keep.map(\.description) == ["article .body"])
        #expect(try rule("https://blog.example.com/a")?.keep.map(\.description) == ["article .body"])
        // The most specific host wins.
        #expect(try rule("https://news.example.com/a")?.drop.map(\.description) == ["#newsletter"])
        #expect(try rule("https://other.org/")?.keep.map(\.description) == ["main"])
        #expect(try rule("https://example.org/") == nil)
        #expect(try rule("https://com/") == nil)
        // An address is matched whole.
        let addresses = SiteRules(["127.0.0.1": SiteRule(), "0.1": SiteRule(drop: [try ArticleSelector("p")])])
        #expect(addresses.rule(for: try #require(URL(string: "http://127.0.0.1:8080/a")))?.drop.isEmpty == true)
        #expect(addresses.rule(for: try #require(URL(string: "http://10.0.0.1/a"))) == nil)
    }

    @Test(arguments: [
        ("[1, 2]", "not an object of host names"),
        (#"{"example.com": {"keep": "main"}}"#, "not an object of host names"),
        (#"{"example.com": {"keep": ["div > p"]}}"#, "for example.com, the selector “div > p” cannot be used"),
        (#"{"https://example.com/": {"keep": ["main"]}}"#, "is not a host name"),
    ])
    func badRulesSayWhatIsWrong(_ json: String, _ reason: String) {
        #expect {
            try SiteRules(json: Array(json.utf8))
        } throws: { error in
            String(describing: error).contains(reason)
        }
    }
}
