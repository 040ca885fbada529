// libFuzzer target: any bytes as an OPML file (what a user imports): a document or a typed error.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOPML(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = try? OPML.parse(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
