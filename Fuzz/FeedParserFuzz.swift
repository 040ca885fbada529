// libFuzzer target: any bytes as a feed document. It must return a feed or a typed error;
// a trap, an overflow or an address error is a finding (scripts/fuzz.sh feedparser SECONDS).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFeedParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? FeedParser.parse(bytes, charsetHint: nil, limits: ParserLimits(maxBytes: 1 << 20, maxDepth: 256, maxEntries: 1_000))
    return 0
}
