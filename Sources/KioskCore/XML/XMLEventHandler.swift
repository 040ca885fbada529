/// An attribute of a start tag, as byte ranges into the scanned input.
struct XMLAttribute {
    var name: Range<Int>
    var value: Range<Int>
    /// The value contains `&`, so it needs entity decoding.
    var hasReference: Bool
}

/// Receives what ``XMLScanner`` finds, as byte ranges into the input, so that only the text a
/// receiver keeps is ever decoded or copied.
protocol XMLEventHandler {
    mutating func startElement(
        name: Range<Int>, attributes: [XMLAttribute], isEmpty: Bool,
        in bytes: UnsafeBufferPointer<UInt8>) throws(FeedError)
    mutating func endElement(name: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>)
    mutating func text(_ range: Range<Int>, hasReference: Bool, in bytes: UnsafeBufferPointer<UInt8>)
    mutating func cdata(_ range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>)
}
