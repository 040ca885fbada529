import Testing
@testable import KioskCore

@Suite struct HTMLEntitiesTests {
    @Test func tableHoldsEveryHTML5Name() {
        #expect(HTMLEntities.table.count == 2_231)
    }

    @Test func characterNamedFindsNamesAsWrittenBetweenAmpersandAndSemicolon() {
        #expect(HTMLEntities.character(named: "amp") == "&")
        #expect(HTMLEntities.character(named: "hellip") == "…")
        #expect(HTMLEntities.character(named: "eacute") == "é")
        #expect(HTMLEntities.character(named: "Eacute") == "É")
        #expect(HTMLEntities.character(named: "CounterClockwiseContourIntegral") == "\u{2233}")
        // Some names stand for two code points.
        #expect(HTMLEntities.character(named: "NotEqualTilde") == "\u{2242}\u{0338}")
    }

    @Test func characterNamedAcceptsATrailingSemicolon() {
        #expect(HTMLEntities.character(named: "hellip;") == "…")
        #expect(HTMLEntities.character(named: "copy;") == "©")
    }

    @Test func characterNamedReturnsNilForUnknownNames() {
        #expect(HTMLEntities.character(named: "bogus") == nil)
        #expect(HTMLEntities.character(named: "") == nil)
        #expect(HTMLEntities.character(named: ";") == nil)
        #expect(HTMLEntities.character(named: "Amp") == nil)
        #expect(HTMLEntities.character(named: "amp;;") == nil)
    }

    @Test func decodeReplacesNamedReferences() {
        #expect(HTMLEntities.decode("Tom &amp; Jerry &lt;3 &hellip; &eacute;t&eacute; &NotEqualTilde;")
            == "Tom & Jerry <3 … été \u{2242}\u{0338}")
    }

    @Test func decodeReplacesDecimalAndHexadecimalReferences() {
        #expect(HTMLEntities.decode("&#65;&#x42;&#X43;&#x1F600;&#039;") == "ABC😀'")
    }

    @Test func decodeAcceptsNumericReferencesWithoutSemicolon() {
        #expect(HTMLEntities.decode("&#65B &#x43g") == "AB Cg")
    }

    @Test func decodeMapsC1ReferencesThroughWindows1252() {
        #expect(HTMLEntities.decode("&#150;&#147;x&#148;&#128;&#x99;&#133;") == "–“x”€™…")
        // 0x81 has no Windows-1252 character: the control stays.
        #expect(HTMLEntities.decode("&#129;") == "\u{81}")
    }

    @Test func decodeReplacesImpossibleCodePointsWithReplacementCharacter() {
        #expect(HTMLEntities.decode("&#0;&#xD800;&#xDFFF;&#x110000;&#99999999999999999999;")
            == String(repeating: "\u{FFFD}", count: 5))
    }

    @Test func decodeLeavesUnknownNamesAsWritten() {
        #expect(HTMLEntities.decode("&bogus; &; & &#; &#x; &#xyz; a&b") == "&bogus; &; & &#; &#x; &#xyz; a&b")
    }

    @Test func decodeAcceptsLegacyNamesWithoutSemicolon() {
        #expect(HTMLEntities.decode("&amp &lt;&gt &copy2024 AT&ampT &nbsp;") == "& <> ©2024 AT&T \u{A0}")
    }

    @Test func decodeTakesTheLongestLegacyPrefix() {
        #expect(HTMLEntities.decode("&notit; &notin; &not") == "¬it; ∉ ¬")
    }

    @Test func decodeRequiresSemicolonForNonLegacyNames() {
        #expect(HTMLEntities.decode("&hellip &mdash and &mdash;") == "&hellip &mdash and —")
    }

    @Test func decodeIsASinglePass() {
        #expect(HTMLEntities.decode("&amp;lt;b&amp;gt; &amp;#106;") == "&lt;b&gt; &#106;")
    }

    @Test func decodeReturnsTextWithoutAmpersandUnchanged() {
        let text = "Plain text, café, 日本語, 🎉 — nothing to decode."
        #expect(HTMLEntities.decode(text) == text)
        #expect(HTMLEntities.decode("") == "")
    }

    @Test func decodeKeepsMultibyteTextAroundReferences() {
        #expect(HTMLEntities.decode("日本&amp;語 🎉&#x1F389;") == "日本&語 🎉🎉")
    }

    @Test func decodeHandlesReferencesCutOffAtTheEnd() {
        for text in ["&", "a &", "&#", "&#x", "&a", "&amp", "&#6"] {
            let expected = ["&amp": "&", "&#6": "\u{6}"][text] ?? text
            #expect(HTMLEntities.decode(text) == expected)
        }
    }

    @Test func decodeKeepsNULBytes() {
        #expect(HTMLEntities.decode("a\u{0}&amp;b") == "a\u{0}&b")
    }

    @Test func decodeOfLongDigitRunsIsReplacementCharacter() {
        let text = "&#" + String(repeating: "9", count: 10_000) + ";x"
        #expect(HTMLEntities.decode(text) == "\u{FFFD}x")
    }

    @Test func decodeOfManyAmpersandsFinishesQuickly() {
        let text = String(repeating: "&&amp;&#x26;&zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz", count: 20_000)
        let start = ContinuousClock.now
        let decoded = HTMLEntities.decode(text)
        #expect(ContinuousClock.now - start < .seconds(5))
        #expect(decoded.hasPrefix("&&&&zzz"))
    }
}
