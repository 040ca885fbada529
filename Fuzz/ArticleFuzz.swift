// libFuzzer target: any bytes as a web page, through the article extractor (tree building,
// metadata, scoring, cleaning, the sanitizer), with small limits so the depth and size bounds
// are exercised too. It must end in an article or a typed error; an article's HTML, being the
// sanitizer's output, must come back unchanged when sanitized again.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzArticle(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
    for limits in [ArticleLimits(), ArticleLimits(maxBytes: 32_768, maxDepth: 8)] {
        do {
            let article = try ArticleExtractor.extract(bytes, url: "https://example.com/a/page.html", limits: limits)
            let again = HTMLSanitizer(baseURL: "https://example.com/a/page.html").sanitize(article.html)
            if again != article.html { fatalError("the article's HTML changed when sanitized again:\n\(article.html)\n---\n\(again)") }
            if article.text.isEmpty { fatalError("an article without text") }
        } catch {
            if error.description.isEmpty { fatalError("an error without a reason") }
        }
    }
    return 0
}
