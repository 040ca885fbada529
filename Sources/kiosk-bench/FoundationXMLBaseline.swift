import Foundation
#if canImport(FoundationXML)
// On Linux XMLParser lives in its own module (a libxml2 wrapper); on Apple platforms it is in Foundation.
import FoundationXML
#endif

/// The bare FoundationXML SAX pass Kiosk's XML parser is measured against.
///
/// It does the least a feed reader must: collect each element's text (characters and CDATA),
/// reset on every start tag and stash the text's length on every end tag. No model is built, so
/// it is a floor for what an `XMLParser`-based feed parser could cost.
///
/// The class is the parser's delegate. An instance lives for one synchronous `run(_:)` on one
/// task and is never shared, so it needs no `Sendable` conformance.
final class FoundationXMLBaseline: NSObject, XMLParserDelegate {
    /// What one pass saw, for sanity checks.
    struct Summary: Sendable {
        /// Elements started.
        var elements = 0
        /// `item` and `entry` elements (RSS items, Atom entries), compared with Kiosk's entry count.
        var entries = 0
        /// UTF-8 bytes of element text collected.
        var textBytes = 0
    }

    /// Why a pass failed: `XMLParser` reports errors as an `NSError` plus a position.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private var summary = Summary()
    private var text = ""

    /// Parses `data` once and returns what it saw.
    /// - Throws: `Failure` when `XMLParser` gives up (on Linux it does so for documents above about
    ///   10 MB, where libxml2's size limits apply).
    static func run(_ data: Data) throws(Failure) -> Summary {
        let delegate = FoundationXMLBaseline()
        let parser = XMLParser(data: data)
        // `delegate` is weak on the parser; the local above keeps it alive for the pass.
        parser.delegate = delegate
        parser.shouldProcessNamespaces = false
        parser.shouldResolveExternalEntities = false
        guard parser.parse() else {
            let reason: String
            if let error = parser.parserError as NSError? {
                // On Linux the NSError carries no message, only libxml2's error number.
                reason = "\(error.domain) \(error.code)"
            } else {
                reason = "parse() returned false"
            }
            throw Failure(description: "\(reason) at \(parser.lineNumber):\(parser.columnNumber)")
        }
        return delegate.summary
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
    ) {
        summary.elements += 1
        if elementName == "item" || elementName == "entry" { summary.entries += 1 }
        text.removeAll(keepingCapacity: true)
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text += string
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        text += String(decoding: CDATABlock, as: UTF8.self)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        summary.textBytes += text.utf8.count
        text.removeAll(keepingCapacity: true)
    }
}
