import Foundation
import KioskTesting
import Testing
@testable import KioskCore

@Suite struct OPMLWriterTests {
    private let date = Date(timeIntervalSince1970: 1_732_441_272)  // Sun, 24 Nov 2024 09:41:12 GMT

    private func roundTrip(_ subscriptions: [OPMLSubscription], title: String = "Kiosk") throws -> OPMLDocument {
        let xml = OPML.write(title: title, subscriptions: subscriptions, dateCreated: date)
        #expect(StrictXML.problems(in: xml) == [])
        return try OPML.parse(Array(xml.utf8))
    }

    // MARK: - Shape

    @Test func writesOPML2WithFoldersInFirstSeenOrder() {
        let xml = OPML.write(
            title: "Kiosk subscriptions",
            subscriptions: [
                subscription("https://top.example/feed", "Top", site: "https://top.example/"),
                subscription("https://swift.org/atom.xml", "Swift.org", site: "https://swift.org/", in: "Swift"),
                subscription("https://untitled.example/feed", nil),
                subscription("https://news.example/rss", "News", in: "News"),
            ],
            dateCreated: date)
        #expect(
            xml == """
                <?xml version="1.0" encoding="UTF-8"?>
                <opml version="2.0">
                  <head>
                    <title>Kiosk subscriptions</title>
                    <dateCreated>Sun, 24 Nov 2024 09:41:12 GMT</dateCreated>
                  </head>
                  <body>
                    <outline text="Top" title="Top" type="rss" xmlUrl="https://top.example/feed" htmlUrl="https://top.example/"/>
                    <outline text="Swift" title="Swift">
                      <outline text="Swift.org" title="Swift.org" type="rss" xmlUrl="https://swift.org/atom.xml" htmlUrl="https://swift.org/"/>
                    </outline>
                    <outline text="https://untitled.example/feed" type="rss" xmlUrl="https://untitled.example/feed"/>
                    <outline text="News" title="News">
                      <outline text="News" title="News" type="rss" xmlUrl="https://news.example/rss"/>
                    </outline>
                  </body>
                </opml>

                """)
    }

    @Test func anEmptyListIsAValidDocument() throws {
        let document = try roundTrip([], title: "Nothing yet")
        #expect(document == OPMLDocument(title: "Nothing yet"))
    }

    // MARK: - Round trips

    @Test func foldersAndTopLevelFeedsRoundTrip() throws {
        let subscriptions = [
            subscription("https://a.example/feed", "A", site: "https://a.example/"),
            subscription("https://b.example/feed", "B", in: "Tech"),
            subscription("https://c.example/feed", "C", site: "https://c.example/", in: "Tech"),
            subscription("https://d.example/feed", nil),
            subscription("https://e.example/feed", "E", in: "Tech / Swift"),
            subscription("https://f.example/feed", nil, site: "https://f.example/", in: "News"),
            subscription("https://g.example/feed", "G"),
        ]
        let document = try roundTrip(subscriptions)
        #expect(document.subscriptions == subscriptions)
        #expect(document.duplicates.isEmpty)
        #expect(document.title == "Kiosk")
    }

    @Test(arguments: [
        "Fish & Chips", "<b>bold</b>", "\"quoted\" and 'single'", "a &amp; b", "&lt;already escaped&gt;", "]]> <!-- -->",
        "\"/><outline xmlUrl=\"https://evil.example/\"/><outline text=\"", "two\nlines", "cr\r\nlf", "tab\there",
        "Café Müller — «ñ»", "日本語のフィード", "🚀📰 emoji", "Ελληνικά", "עברית", "x\u{2028}y", "&#10;", "&",
    ])
    func awkwardTextRoundTrips(text: String) throws {
        let subscriptions = [
            subscription("https://a.example/feed?x=1&y=<2>&z=\"3\"", text, site: "https://a.example/?q=\(text)", in: text),
            subscription("https://b.example/feed", text),
        ]
        let document = try roundTrip(subscriptions, title: text)
        #expect(document.subscriptions == subscriptions)
        #expect(document.title == text)
    }

    @Test func injectedMarkupStaysOneValue() throws {
        let evil = "\"/><outline text=\"Injected\" xmlUrl=\"https://evil.example/\"/><outline text=\""
        let xml = OPML.write(title: "</title></head><body>", subscriptions: [subscription("https://a.example/", evil, in: evil)], dateCreated: date)
        #expect(!xml.contains("<outline text=\"Injected\""))
        let document = try OPML.parse(Array(xml.utf8))
        #expect(document.subscriptions == [subscription("https://a.example/", evil, in: evil)])
        #expect(document.title == "</title></head><body>")
    }

    @Test func interleavedFoldersAreGroupedStably() throws {
        let subscriptions = [
            subscription("https://1.example/", "1", in: "X"),
            subscription("https://2.example/", "2"),
            subscription("https://3.example/", "3", in: "Y"),
            subscription("https://4.example/", "4", in: "X"),
            subscription("https://5.example/", "5"),
        ]
        let document = try roundTrip(subscriptions)
        // One outline per folder: X's feeds come together, where X was first seen.
        #expect(document.subscriptions.map(\.title) == ["1", "4", "2", "3", "5"])
        #expect(Set(document.subscriptions) == Set(subscriptions))
    }

    @Test func controlCharactersAreLeftOutAndLineBreaksKept() throws {
        let title = "a\u{0}b\u{1}c\u{8}d\u{B}e\u{C}f\u{1B}g\u{1F}h\u{7F}i\u{85}j\u{9F}k\u{FFFE}l\u{FFFF}m\nn\to"
        let xml = OPML.write(title: title, subscriptions: [subscription("https://a.example/", title)], dateCreated: date)
        #expect(StrictXML.problems(in: xml) == [])
        #expect(xml.contains("text=\"abcdefghijklm&#10;n&#9;o\""))
        let document = try OPML.parse(Array(xml.utf8))
        #expect(document.subscriptions.first?.title == "abcdefghijklm\nn\to")
        #expect(document.title == "abcdefghijklm\nn\to")
    }

    @Test func feedsWithoutAnAddressAreNotWritten() throws {
        let document = try roundTrip([subscription("", "Empty"), subscription("  ", "Blank"), subscription("https://a.example/", "A")])
        #expect(document.subscriptions == [subscription("https://a.example/", "A")])
    }

    @Test func blankTitlesSitesAndFoldersAreLeftOut() {
        let xml = OPML.write(
            title: "t", subscriptions: [subscription("https://a.example/", " ", site: "", in: "  ")], dateCreated: date)
        #expect(xml.contains("    <outline text=\"https://a.example/\" type=\"rss\" xmlUrl=\"https://a.example/\"/>\n"))
        #expect(!xml.contains("htmlUrl"))
    }

    @Test(arguments: OPMLFixture.all)
    func everyFixtureRoundTripsThroughTheWriter(name: String) throws {
        let original = try OPMLFixture.parse(name)
        // The writer groups folders; the reader's order is the document's. Compare grouped.
        let grouped = OPMLWriter.items(original.subscriptions).flatMap { item -> [OPMLSubscription] in
            switch item {
            case .feed(let feed): [feed]
            case .folder(_, let feeds): feeds
            }
        }
        let document = try roundTrip(original.subscriptions, title: original.title ?? "")
        #expect(document.subscriptions == grouped)
        #expect(document.title == original.title)
    }

    // MARK: - Dates

    @Test(arguments: [
        (0.0, "Thu, 01 Jan 1970 00:00:00 GMT"),
        (-0.5, "Wed, 31 Dec 1969 23:59:59 GMT"),
        (951_782_400, "Tue, 29 Feb 2000 00:00:00 GMT"),
        (1_732_441_272.999, "Sun, 24 Nov 2024 09:41:12 GMT"),
        (4_102_444_799, "Thu, 31 Dec 2099 23:59:59 GMT"),
        (-1e300, "Mon, 01 Jan 0001 00:00:00 GMT"),
        (1e300, "Fri, 31 Dec 9999 23:59:59 GMT"),
        (.infinity, "Fri, 31 Dec 9999 23:59:59 GMT"),
        (.nan, "Thu, 01 Jan 1970 00:00:00 GMT"),
    ])
    func dateCreatedIsRFC822InUTC(seconds: Double, expected: String) {
        #expect(InternetDate.rfc822(Date(timeIntervalSince1970: seconds)) == expected)
    }

    @Test func dateCreatedReadsBackAsTheSameSecond() throws {
        let written = InternetDate.rfc822(date)
        #expect(DateParser.parse(written) == date)
        let xml = OPML.write(title: "t", subscriptions: [], dateCreated: .distantFuture)
        #expect(StrictXML.problems(in: xml) == [])
    }
}

/// A strict check of the XML the writer produces: what a libxml2-based reader would refuse.
/// Kiosk's own reader forgives nearly everything, so round trips alone could not catch these.
enum StrictXML {
    static func problems(in xml: String) -> [String] {
        let scalars = Array(xml.unicodeScalars)
        var problems: [String] = []
        var open: [String] = []
        var roots = 0
        var i = 0

        func isNameScalar(_ c: Unicode.Scalar) -> Bool {
            c.properties.isAlphabetic || ("0"..."9").contains(c) || c == ":" || c == "_" || c == "-" || c == "."
        }
        func starts(_ literal: String, at index: Int) -> Bool {
            let needle = Array(literal.unicodeScalars)
            return index + needle.count <= scalars.count && Array(scalars[index..<(index + needle.count)]) == needle
        }
        func isXMLChar(_ value: UInt32) -> Bool {
            value == 0x9 || value == 0xA || value == 0xD || (0x20...0xD7FF).contains(value) || (0xE000...0xFFFD).contains(value)
                || (0x10000...0x10FFFF).contains(value)
        }
        /// Checks the reference at `index` (an `&`) and returns the index after it.
        func reference(at index: Int) -> Int {
            guard let end = scalars[index...].firstIndex(of: ";"), end - index < 12 else {
                problems.append("bare & at \(index)")
                return index + 1
            }
            let body = String(String.UnicodeScalarView(scalars[(index + 1)..<end]))
            if ["amp", "lt", "gt", "quot", "apos"].contains(body) { return end + 1 }
            let number: UInt32? =
                body.hasPrefix("#x") ? UInt32(body.dropFirst(2), radix: 16) : body.hasPrefix("#") ? UInt32(body.dropFirst(), radix: 10) : nil
            if let number, isXMLChar(number) { return end + 1 }
            problems.append("bad reference &\(body); at \(index)")
            return end + 1
        }
        func name(from start: Int) -> (String, Int) {
            var j = start
            while j < scalars.count, isNameScalar(scalars[j]) { j += 1 }
            return (String(String.UnicodeScalarView(scalars[start..<j])), j)
        }

        for (index, scalar) in scalars.enumerated() where !isXMLChar(scalar.value) {
            problems.append("character U+\(String(scalar.value, radix: 16)) at \(index) is not allowed in XML")
        }
        while i < scalars.count {
            let c = scalars[i]
            if c == "&" {
                i = reference(at: i)
            } else if c == ">" {
                problems.append("unescaped > in text at \(i)")
                i += 1
            } else if c != "<" {
                if open.isEmpty, !c.properties.isWhitespace { problems.append("text outside the root at \(i)") }
                i += 1
            } else if starts("<?xml ", at: i), i == 0 {
                guard let end = (i..<scalars.count).first(where: { starts("?>", at: $0) }) else { return problems + ["open declaration"] }
                i = end + 2
            } else if starts("</", at: i) {
                let (endName, after) = name(from: i + 2)
                if open.last != endName { problems.append("</\(endName)> at \(i) closes <\(open.last ?? "nothing")>") }
                open.removeLast(open.isEmpty ? 0 : 1)
                guard after < scalars.count, scalars[after] == ">" else { return problems + ["bad end tag at \(i)"] }
                i = after + 1
            } else {
                let (startName, afterName) = name(from: i + 1)
                guard !startName.isEmpty else { return problems + ["< in text at \(i)"] }
                if open.isEmpty { roots += 1 }
                var j = afterName
                var attributes: Set<String> = []
                while true {
                    while j < scalars.count, scalars[j] == " " { j += 1 }
                    guard j < scalars.count else { return problems + ["unterminated tag at \(i)"] }
                    if scalars[j] == ">" { open.append(startName); j += 1; break }
                    if starts("/>", at: j) { j += 2; break }
                    let (attributeName, afterAttribute) = name(from: j)
                    guard !attributeName.isEmpty, starts("=\"", at: afterAttribute) else {
                        return problems + ["bad attribute at \(j)"]
                    }
                    if !attributes.insert(attributeName).inserted { problems.append("repeated attribute \(attributeName) at \(j)") }
                    j = afterAttribute + 2
                    while j < scalars.count, scalars[j] != "\"" {
                        switch scalars[j] {
                        case "<":
                            problems.append("< in an attribute value at \(j)")
                            j += 1
                        case "&":
                            j = reference(at: j)
                        case "\n", "\r", "\t":
                            problems.append("a literal line break or tab in an attribute value reads back as a space, at \(j)")
                            j += 1
                        default:
                            j += 1
                        }
                    }
                    j += 1
                }
                i = j
            }
        }
        if !open.isEmpty { problems.append("unclosed elements: \(open)") }
        if roots != 1 { problems.append("\(roots) root elements") }
        return problems
    }
}
