// libFuzzer target: any bytes as a Google Reader API request's fields (query or form body): the
// fields, every item id form and every stream id a client may send.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGoogleReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let fields = FormFields(query: text, body: text)
    for (key, value) in fields.pairs {
        if let id = ItemID.parse(value), id <= 0 { fatalError("a non-positive item id from \(value)") }
        _ = ItemID.parse(key)
        if let stream = StreamID(value), StreamID(stream.text) != stream {
            fatalError("stream \(value) does not read back as itself: \(stream.text)")
        }
    }
    return 0
}
