import Foundation

// The front door: hand it bytes, get a Feed. It sniffs the format from the content (never a
// file name) and hands off to the XML (RSS, RDF, Atom) or the JSON Feed parser.
public enum FeedParser {
    /// Parses any supported syndication format.
    /// - Parameters:
    ///   - data: the document as fetched.
    ///   - charsetHint: the `charset` of the HTTP `Content-Type`, if known.
    ///   - limits: caps on size, depth and entries.
    public static func parse(_ data: Data, charsetHint: String? = nil, limits: ParserLimits = .default) throws(FeedError) -> Feed {
        try parse([UInt8](data), charsetHint: charsetHint, limits: limits)
    }

    /// Parses any supported syndication format from raw bytes.
    public static func parse(_ bytes: [UInt8], charsetHint: String? = nil, limits: ParserLimits = .default) throws(FeedError) -> Feed {
        guard bytes.count <= limits.maxBytes else { throw .tooLarge(limit: limits.maxBytes) }
        let text = TextDecoding.utf8Bytes(bytes, charsetHint: charsetHint)
        guard let first = firstSignificantByte(text) else { throw .empty }
        if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
            return try JSONFeedParser.parse(text, limits: limits)
        }
        guard first == .lt else { throw .notAFeed("neither XML nor JSON") }
        return try text.withUnsafeBufferPointer { (buffer) throws(FeedError) -> Feed in
            var builder = XMLFeedBuilder(limits: limits)
            var scanner = XMLScanner(buffer)
            try scanner.scan(into: &builder)
            return try builder.result()
        }
    }

    /// The first byte that is not white space (a BOM was already removed by decoding).
    private static func firstSignificantByte(_ bytes: [UInt8]) -> UInt8? {
        bytes.first { !XMLScanner.isSpace($0) && $0 != 0 }
    }
}
