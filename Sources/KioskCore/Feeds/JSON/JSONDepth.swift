/// Measures how deeply a JSON document nests, in one pass and without parsing it.
enum JSONDepth {
    /// The deepest nesting of arrays and objects, counting stops once `limit` is exceeded.
    static func maximum(_ bytes: [UInt8], limit: Int) -> Int {
        var depth = 0
        var deepest = 0
        var inString = false
        var escaped = false
        for c in bytes {
            if inString {
                if escaped { escaped = false } else if c == 0x5C { escaped = true } else if c == 0x22 { inString = false }
                continue
            }
            switch c {
            case 0x22: inString = true
            case 0x5B, 0x7B:
                depth += 1
                if depth > deepest {
                    deepest = depth
                    if deepest > limit { return deepest }
                }
            case 0x5D, 0x7D: depth -= 1
            default: break
            }
        }
        return deepest
    }
}
