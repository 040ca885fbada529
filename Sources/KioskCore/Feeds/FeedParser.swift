import Foundation

// The front door: hand it bytes, get a Feed. It sniffs the format from the content and hands
// off to the XML (RSS/RDF/Atom) or JSON Feed parser; callers never need to know the format.
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
        throw .notAFeed("parser not written yet")
    }
}
