// libFuzzer target: any bytes as a feed date (RFC 822 and ISO 8601 variants): a date or nil.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDates(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = DateParser.parse(utf8: UnsafeBufferPointer(start: data, count: size))
    return 0
}
