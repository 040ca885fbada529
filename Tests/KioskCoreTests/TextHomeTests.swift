import Foundation
import KioskCore
import Testing

/// The small facts every writer shares (KioskCore/Text and Dates): one escaping per language, one
/// date writer per format, one JSON string writer, checked against known values.
@Suite struct TextHomeTests {
    let saturday = Date(timeIntervalSince1970: 1_547_887_643)  // 2019-01-19 08:47:23 UTC

    @Test func rfc822NamesItsZoneAsAsked() {
        #expect(InternetDate.rfc822(saturday) == "Sat, 19 Jan 2019 08:47:23 GMT")
        #expect(InternetDate.rfc822(saturday, zone: .offset(minutes: 0)) == "Sat, 19 Jan 2019 08:47:23 +0000")
        #expect(InternetDate.rfc822(saturday, zone: .offset(minutes: -300)) == "Sat, 19 Jan 2019 03:47:23 -0500")
        #expect(InternetDate.rfc822(saturday, zone: .offset(minutes: 330)) == "Sat, 19 Jan 2019 14:17:23 +0530")
        #expect(InternetDate.rfc822(Date(timeIntervalSince1970: 951_782_400)) == "Tue, 29 Feb 2000 00:00:00 GMT")
        // The local day moves with the offset.
        #expect(InternetDate.rfc822(Date(timeIntervalSince1970: 951_782_400), zone: .offset(minutes: -60))
            == "Mon, 28 Feb 2000 23:00:00 -0100")
    }

    @Test func rfc3339WritesOffsetsAndMilliseconds() {
        #expect(InternetDate.rfc3339(saturday) == "2019-01-19T08:47:23Z")
        #expect(InternetDate.rfc3339(saturday, offsetMinutes: 120) == "2019-01-19T10:47:23+02:00")
        #expect(InternetDate.rfc3339(saturday, offsetMinutes: -570) == "2019-01-18T23:17:23-09:30")
        #expect(InternetDate.rfc3339(saturday, milliseconds: 250) == "2019-01-19T08:47:23.250Z")
        #expect(InternetDate.rfc3339(saturday, milliseconds: 7) == "2019-01-19T08:47:23.007Z")
        #expect(InternetDate.rfc3339(Date(timeIntervalSince1970: -1e300)) == "0001-01-01T00:00:00Z")
    }

    @Test(arguments: [0.0, 951_782_400, 1_547_887_643, -946_080_000, 4_102_444_799] as [Double])
    func everyWrittenDateReadsBackAsTheSameSecond(seconds: Double) {
        let date = Date(timeIntervalSince1970: seconds)
        for offset in [0, -300, 330, 840] {
            #expect(DateParser.parse(InternetDate.rfc822(date, zone: .offset(minutes: offset))) == date)
            #expect(DateParser.parse(InternetDate.rfc3339(date, offsetMinutes: offset)) == date)
        }
        #expect(DateParser.parse(InternetDate.rfc822(date)) == date)
    }

    @Test func htmlEscapingIsOneTableForStringsAndBytes() {
        let text = #"<a href="x">Tom & Jerry's</a> café"#
        let escaped = "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt; café"
        #expect(HTMLEscaping.escape(text) == escaped)
        var bytes: [UInt8] = Array("[".utf8)
        HTMLEscaping.appendEscaped(text, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "[" + escaped)
        #expect(HTMLEscaping.escape("plain") == "plain")
        // XML's quieter forms, for the feed parser's XHTML: the bytes it always wrote.
        for (quotes, expected) in [(HTMLEscaping.Quotes.none, #"a &amp; "b" 'c' &lt;"#), (.double, #"a &amp; &quot;b&quot; 'c' &lt;"#)] {
            var out: [UInt8] = []
            Array(#"a & "b" 'c' <"#.utf8).withUnsafeBufferPointer { HTMLEscaping.appendEscaped($0, to: &out, quotes: quotes) }
            #expect(String(decoding: out, as: UTF8.self) == expected)
        }
    }

    @Test func xmlTextRoundTripsThroughTheParsersDecoding() {
        let text = "Caf\u{E9} <b> & \"quoted\"\tline\nnext"
        #expect(XMLText.unescaped(XMLText.escaped(text)) == text)
        #expect(XMLText.unescaped("&amp;lt; &#233; &#xE9; &eacute; &unknown; &") == "&lt; é é é &unknown; &")
        #expect(XMLText.escaped("a\u{1}b\u{85}c") == "abc")
    }

    @Test func jsonTextEscapesAndKeepsKeyOrder() throws {
        #expect(JSONText.string("a\"b\\c\n\u{1}é/") == #""a\"b\\c\n\u0001é/""#)
        #expect(JSONText.string(nil) == "null")
        let object = JSONText.object(["z": "1", "a": JSONText.string("x")])
        #expect(object == #"{"z":1,"a":"x"}"#)
        let parsed = try JSONSerialization.jsonObject(with: Data(object.utf8)) as? [String: Any]
        #expect(parsed?["a"] as? String == "x")
    }
}
