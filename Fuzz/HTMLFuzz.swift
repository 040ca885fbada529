// libFuzzer target: any bytes as feed HTML, through the allow-list sanitizer (with an image
// proxy, as pages use it) and both plain-text readers (titles and summaries). Without the proxy
// (which rewrites every image address, its own included), the sanitizer's output is sanitized
// again: it must come back unchanged (what it lets through, it lets through).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTML(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = HTMLSanitizer(baseURL: "https://example.com/a/", imageProxy: { "/img?u=" + $0 }).sanitize(text)
    let sanitizer = HTMLSanitizer(baseURL: "https://example.com/a/")
    let once = sanitizer.sanitize(text)
    let twice = sanitizer.sanitize(once)
    if once != twice { fatalError("sanitizing its own output changed it:\n\(once)\n---\n\(twice)") }
    _ = HTMLText.plainText(fromHTML: text)
    _ = HTMLText.plainText(fromTitle: text)
    return 0
}
