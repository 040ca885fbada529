/// Whether `needle` occurs in `haystack`, byte for byte: for ASCII words looked for in text
/// already in UTF-8 (a class list, a style), without Foundation's `contains` or a split into
/// `Character`s, each of which was a measurable part of the reader view's time.
package func containsBytes(_ haystack: some Collection<UInt8>, _ needle: [UInt8]) -> Bool {
    let haystack = Array(haystack)
    guard let first = needle.first, needle.count <= haystack.count else { return needle.isEmpty }
    var start = 0
    let last = haystack.count - needle.count
    while start <= last {
        if haystack[start] == first {
            var matched = 1
            while matched < needle.count, haystack[start + matched] == needle[matched] { matched += 1 }
            if matched == needle.count { return true }
        }
        start += 1
    }
    return false
}
