import KioskCore
import KioskHTML
import Testing

@testable import KioskWeb

/// The typed HTML builder: everything from outside is escaped; only sanitized markup goes in as is.
@Suite struct HTMLBuilderTests {
    @Test func textIsEscaped() {
        let html = el("p") { #"<script>alert('x') & "y"</script>"# }.render()
        #expect(html == "<p>&lt;script&gt;alert(&#39;x&#39;) &amp; &quot;y&quot;&lt;/script&gt;</p>")
    }

    @Test func attributeValuesAreEscaped() {
        let html = el("a", .href(#"x" onmouseover='alert(1)' data-a="&"#), .title("<b>")) { "link" }.render()
        #expect(html == #"<a href="x&quot; onmouseover=&#39;alert(1)&#39; data-a=&quot;&amp;" title="&lt;b&gt;">link</a>"#)
    }

    @Test func anAttributeValueCannotCloseItsQuotes() {
        let hostile = #""><script>alert(1)</script>"#
        let html = void("img", .src("/x.png"), .alt(hostile)).render()
        #expect(!html.contains("<script"))
        #expect(html == #"<img src="/x.png" alt="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;">"#)
    }

    @Test func dataAndAriaAttributesAreEscapedToo() {
        let html = el("li", .data("key", "a\"b"), .aria("label", "<i>")).render()
        #expect(html == #"<li data-key="a&quot;b" aria-label="&lt;i&gt;"></li>"#)
    }

    @Test func booleanAttributesHaveNoValue() {
        #expect(el("p", .flag("hidden")).render() == "<p hidden></p>")
        #expect(el("p", .flag("hidden", true), .class("x")).render() == #"<p hidden class="x"></p>"#)
        #expect(el("p", .flag("hidden", false), .class("x")).render() == #"<p class="x"></p>"#)
        #expect(el("input", Attribute("disabled", nil)).render() == "<input disabled></input>")
    }

    @Test func nilAttributesAreLeftOut() {
        let maybe: Attribute? = nil
        #expect(el("a", maybe, .href("/")).render() == #"<a href="/"></a>"#)
    }

    @Test func voidElementsHaveNoEndTag() {
        #expect(void("img", .src("/a.png"), .alt("")).render() == #"<img src="/a.png" alt="">"#)
        #expect(void("meta", Attribute("charset", "utf-8")).render() == #"<meta charset="utf-8">"#)
    }

    @Test func builderSupportsConditionsLoopsAndNesting() {
        let items = ["a", "<b>"]
        let show = false
        let html = el("ul", .id("list")) {
            for item in items {
                el("li") { item }
            }
            if show {
                el("li") { "hidden" }
            } else {
                el("li", .class("last")) { "shown" }
            }
            nodes {
                el("li") { "1" }
                "text"
            }
        }.render()
        #expect(html == #"<ul id="list"><li>a</li><li>&lt;b&gt;</li><li class="last">shown</li><li>1</li>text</ul>"#)
    }

    @Test func arraysAndGroupsRenderEachNodeEscaped() {
        let list: [Node] = [.text("<1>"), .group([.text("&"), el("b") { "'" }])]
        #expect(list.render() == "&lt;1&gt;&amp;<b>&#39;</b>")
    }

    @Test func sanitizedMarkupIsTheOnlyRawInsert() {
        let markup = #"<p>Kept <b>bold</b></p><script>alert(1)</script><img src="x" onerror="alert(2)">"#
        let sanitized = Node.sanitized(SanitizedHTML(markup, sanitizer: HTMLSanitizer()))
        let raw = el("div") { sanitized }.render()
        #expect(raw.contains("<p>Kept <b>bold</b></p>"))
        #expect(!raw.contains("<script"))
        #expect(!raw.contains("onerror"))
        // The same markup as text is escaped whole.
        let text = el("div") { markup }.render()
        #expect(!text.contains("<p>"))
        #expect(text.hasPrefix("<div>&lt;p&gt;Kept"))
    }

    @Test func textThatLooksEscapedIsEscapedAgain() {
        #expect(Node.text("&lt;script&gt;").render() == "&amp;lt;script&amp;gt;")
    }

    @Test func nonASCIITextPassesUnchanged() {
        #expect(el("p") { "Zürich — 東京 🎉" }.render() == "<p>Zürich — 東京 🎉</p>")
    }

    @Test func aPageEscapesItsTitleAndHasNoInlineScript() {
        let page = Page(title: "</title><script>alert(1)</script>", kind: "test", content: [el("p") { "body" }])
        let html = page.render()
        #expect(html.hasPrefix("<!DOCTYPE html><html"))
        #expect(html.contains("<title>&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt; · Kiosk</title>"))
        let scripts = HTMLInspection.startTags("script", in: html)
        #expect(scripts == [#"<script type="module" src="/static/app.js">"#])
    }
}
