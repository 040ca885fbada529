import Foundation
import KioskTesting
import Testing
@testable import KioskCore

@Suite struct HTMLTextTests {
    /// The first item's `<description>` of Fixtures/reuters_business.xml, after XML decoding:
    /// a one-sentence summary, FeedBurner's feedflare block and a 1×1 tracking image.
    static let reutersDescription = #"""
        French supermarket retailer Casino , in the process of divesting assets to cut debts, has agreed to sell six of its 'Geant' hypermarket stores to domestic rival Leclerc for 100.5 million euros (114 million).<div class="feedflare">
        <a href="http://feeds.reuters.com/~ff/reuters/businessNews?a=Sf7FpNqCK68:9guFRYQLReU:yIl2AUoC8zA"><img src="http://feeds.feedburner.com/~ff/reuters/businessNews?d=yIl2AUoC8zA" border="0"></img></a> \#
        <a href="http://feeds.reuters.com/~ff/reuters/businessNews?a=Sf7FpNqCK68:9guFRYQLReU:F7zBnMyn0Lo"><img src="http://feeds.feedburner.com/~ff/reuters/businessNews?i=Sf7FpNqCK68:9guFRYQLReU:F7zBnMyn0Lo" border="0"></img></a> \#
        <a href="http://feeds.reuters.com/~ff/reuters/businessNews?a=Sf7FpNqCK68:9guFRYQLReU:V_sGLiPBpWU"><img src="http://feeds.feedburner.com/~ff/reuters/businessNews?i=Sf7FpNqCK68:9guFRYQLReU:V_sGLiPBpWU" border="0"></img></a>
        </div><img src="http://feeds.feedburner.com/~r/reuters/businessNews/~4/Sf7FpNqCK68" height="1" width="1" alt=""/>
        """#

    @Test func reutersSummaryBecomesJustItsSentence() {
        #expect(HTMLText.plainText(fromHTML: Self.reutersDescription)
            == "French supermarket retailer Casino , in the process of divesting assets to cut debts, has agreed to "
            + "sell six of its 'Geant' hypermarket stores to domestic rival Leclerc for 100.5 million euros (114 million).")
    }

    @Test func reutersStringIsTheFixturesFirstItemDescription() throws {
        let url = try Fixture.url("reuters_business.xml")
        let xml = try String(contentsOf: url, encoding: .utf8)
        let item = try #require(xml.range(of: "<item>"))
        let open = try #require(xml.range(of: "<description>", range: item.upperBound..<xml.endIndex))
        let close = try #require(xml.range(of: "</description>", range: open.upperBound..<xml.endIndex))
        // The fixture escapes with XML's predefined entities, which HTML's decoder also reads.
        #expect(HTMLEntities.decode(String(xml[open.upperBound..<close.lowerBound])) == Self.reutersDescription)
    }

    @Test func stripsTagsAndDecodesReferences() {
        #expect(HTMLText.plainText(fromHTML: "<p>Tom &amp; <b>Jerry</b> &#8211; <a href='x'>&quot;live&quot;</a></p>")
            == "Tom & Jerry – \"live\"")
    }

    @Test func blockElementsBecomeASpace() {
        let html = "<p>One</p><p>Two</p>Three<br>Four<ul><li>Five</li><li>Six</li></ul><h2>Seven</h2><div>Eight</div>"
        #expect(HTMLText.plainText(fromHTML: html) == "One Two Three Four Five Six Seven Eight")
    }

    @Test func inlineElementsDoNotSeparateWords() {
        #expect(HTMLText.plainText(fromHTML: "Hel<b>lo</b> w<span>or</span><em>ld</em>") == "Hello world")
    }

    @Test func whitespaceIsCollapsedAndTrimmed() {
        #expect(HTMLText.plainText(fromHTML: " \n <p>  a \n\t b&nbsp;&nbsp;c\u{A0}d </p>\r\n ") == "a b c d")
    }

    @Test func scriptStyleHeadTitleTemplateAndNoscriptAreDropped() {
        let html = """
            <html><head><title>Page title</title><style>p { color: red }</style><meta charset="utf-8"></head>
            <body><script>var a = "<p>not text</p>";</script><p>Text</p><noscript>Enable JavaScript</noscript>
            <template><p>hidden</p></template></body></html>
            """
        #expect(HTMLText.plainText(fromHTML: html) == "Text")
    }

    @Test func unterminatedHeadEndsWhereTheBodyStarts() {
        #expect(HTMLText.plainText(fromHTML: "<head><title>T</title><p>Body text") == "Body text")
        #expect(HTMLText.plainText(fromHTML: "<head><link rel=x>Loose text") == "Loose text")
    }

    @Test func feedFlareBlockIsDroppedEvenWithText() {
        let html = #"Story.<div class="feedflare"><a href="http://x">Email this</a> <a href="http://y">Share</a></div> Rest"#
        #expect(HTMLText.plainText(fromHTML: html) == "Story. Rest")
    }

    @Test func textWithoutMarkupTakesTheFastPath() {
        let text = "Already plain, nothing to change."
        #expect(HTMLText.plainText(fromHTML: text) == text)
        #expect(HTMLText.plainText(fromHTML: "  no  markup\n\there ") == "no markup here")
        #expect(HTMLText.plainText(fromHTML: "") == "")
    }

    @Test func lessThanThatStartsNoTagIsText() {
        #expect(HTMLText.plainText(fromHTML: "a < b and c<3, x<=y") == "a < b and c<3, x<=y")
    }

    @Test func escapedMarkupIsDecodedOnceAndStaysText() {
        #expect(HTMLText.plainText(fromHTML: "&lt;b&gt;bold&lt;/b&gt;") == "<b>bold</b>")
    }

    @Test func commentsDoctypesAndProcessingInstructionsAreDropped() {
        #expect(HTMLText.plainText(fromHTML: "<!DOCTYPE html><?xml version='1.0'?>a<!-- hidden -->b<!---->c") == "abc")
    }

    @Test func cdataSectionsAreKeptAsText() {
        #expect(HTMLText.plainText(fromHTML: "<p><![CDATA[Tom & <Jerry>]]></p>") == "Tom & <Jerry>")
    }

    @Test func nulBytesAreDropped() {
        #expect(HTMLText.plainText(fromHTML: "<p>a\u{0}b</p>") == "ab")
    }

    @Test func malformedMarkupNeverTraps() {
        let inputs = [
            "<", "</", "<a href=", "<a href=\"unterminated", "text <", "<!--", "<!-- unterminated", "<!", "<?",
            "</>", "<a b='c", "<script>never closed", "<p>a</p></p></div>", "&", "<\u{0}>", "<a\u{0}b>x", "<![CDATA[",
            "<title>", "<svg><p>", "<head>", "<plaintext><b>x",
        ]
        for input in inputs {
            _ = HTMLText.plainText(fromHTML: input)
        }
        #expect(HTMLText.plainText(fromHTML: "x <a href=") == "x")
        #expect(HTMLText.plainText(fromHTML: "text <") == "text <")
        #expect(HTMLText.plainText(fromHTML: "</") == "</")
        #expect(HTMLText.plainText(fromHTML: "a<!-- unterminated") == "a")
        #expect(HTMLText.plainText(fromHTML: "<plaintext><b>x") == "<b>x")
    }

    @Test func deeplyNestedMarkupFinishesQuickly() {
        let html = String(repeating: "<div><span>", count: 10_000) + "deep" + String(repeating: "</span></div>", count: 10_000)
        let start = ContinuousClock.now
        #expect(HTMLText.plainText(fromHTML: html) == "deep")
        #expect(ContinuousClock.now - start < .seconds(5))
    }

    // MARK: - Titles

    @Test func aTitleKeepsTheWordsAfterForeignOrUnclosedTags() {
        #expect(HTMLText.plainText(fromTitle: "Hello <svg onload=x> world") == "Hello world")
        #expect(HTMLText.plainText(fromTitle: "Hello <svg onload=x><g>big</g></svg> world") == "Hello big world")
        #expect(HTMLText.plainText(fromTitle: "Solve <math><mi>x</mi></math> fast") == "Solve x fast")
        #expect(HTMLText.plainText(fromTitle: "a <iframe src=x> b <noscript>c <textarea>d <title>e <xmp>f") == "a b c d e f")
        // In a document all of these hide the rest.
        #expect(HTMLText.plainText(fromHTML: "Hello <svg onload=x> world") == "Hello")
    }

    @Test func aTitleDropsTheCodeOfAClosedScriptOrStyleOnly() {
        #expect(HTMLText.plainText(fromTitle: "Before <script>alert(\"x\")</script> after") == "Before after")
        #expect(HTMLText.plainText(fromTitle: "Before<style>b { color: red }</style>after") == "Before after")
        #expect(HTMLText.plainText(fromTitle: "<script>a<script>b</script>c</script>d") == "c d")
        // Unclosed, it is no code block but a stray tag: the words stay.
        #expect(HTMLText.plainText(fromTitle: "Use <script> in pages") == "Use in pages")
    }

    @Test func aTitleKeepsALessThanThatStartsNoCompleteTag() {
        #expect(HTMLText.plainText(fromTitle: "a < b") == "a < b")
        #expect(HTMLText.plainText(fromTitle: "Why x<y and <b") == "Why x<y and <b")
        #expect(HTMLText.plainText(fromTitle: "Bold <b>text</b> and <b") == "Bold text and <b")
        #expect(HTMLText.plainText(fromTitle: "if </b") == "if </b")
        #expect(HTMLText.plainText(fromTitle: "a <!-- b") == "a <!-- b")
        #expect(HTMLText.plainText(fromTitle: "a <!-- note --> b <!x> c") == "a b c")
        // A document drops markup cut off by its end, as browsers do.
        #expect(HTMLText.plainText(fromHTML: "Why x<y and <b") == "Why x")
    }

    @Test func aTitleDecodesReferencesOnce() {
        #expect(HTMLText.plainText(fromTitle: "Tom &amp; Jerry &#8211; &quot;live&quot;&nbsp;&copy;") == "Tom & Jerry – \"live\" ©")
        #expect(HTMLText.plainText(fromTitle: "&lt;b&gt;not bold&lt;/b&gt; &amp;lt;") == "<b>not bold</b> &lt;")
        #expect(HTMLText.plainText(fromTitle: "  One<br>two <p>three</p>  ") == "One two three")
        #expect(HTMLText.plainText(fromTitle: "Plain  title ") == "Plain title")
        #expect(HTMLText.plainText(fromTitle: "<svg onload=x>") == "")
    }

    @Test func hostileTitlesFinishQuicklyAndNeverTrap() {
        let inputs = [
            String(repeating: "<script>", count: 50_000), String(repeating: "<script>x</script>", count: 50_000),
            String(repeating: "<a ", count: 50_000), String(repeating: "<!--", count: 50_000),
            String(repeating: "x<", count: 100_000), String(repeating: "&", count: 200_000),
        ]
        for input in inputs {
            let start = ContinuousClock.now
            _ = HTMLText.plainText(fromTitle: input)
            #expect(ContinuousClock.now - start < .seconds(5))
        }
        for input in ["<", "</", "<a href=", "<!", "<?", "</>", "<![CDATA[", "<\u{0}>", "&", "<script"] {
            _ = HTMLText.plainText(fromTitle: input)
        }
    }
}
