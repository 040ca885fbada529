// A pull reader of JSON, over the bytes in place: the caller walks the document value by value,
// reads the members it wants and skips the rest without building anything. Foundation's
// `JSONSerialization` builds the whole tree first (an object per `{}`: 15.9 MiB of `{}` took
// 1 GB); here memory is what the caller keeps, plus the document itself.
//
// Lenient where feeds and APIs are sloppy (a trailing comma before `]` or `}`, a lone surrogate
// in `\u` escapes, which reads as U+FFFD), strict where a guess would be wrong (everything else is
// `malformed`, with the byte offset). Nesting is capped (`maxDepth`); skipping never recurses, so
// only the levels a caller reads itself cost stack.

/// Why JSON could not be read.
enum JSONReaderError: Error, Equatable {
    /// Not JSON at byte `offset`: `why` says what was expected.
    case malformed(String, offset: Int)
    /// Arrays and objects nest deeper than the limit.
    case tooDeep(limit: Int)
}

/// What the next value is, from its first byte.
enum JSONKind: Equatable {
    case object, array, string, number, bool, null
}

struct JSONReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    /// Where reading stands, in bytes from the start.
    private(set) var offset = 0
    private var depth = 0
    let maxDepth: Int

    init(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    // MARK: - Looking ahead

    /// The kind of the next value (white space skipped).
    mutating func nextKind() throws(JSONReaderError) -> JSONKind {
        skipSpace()
        guard offset < bytes.count else { throw malformed("a value, not the end of the document") }
        switch bytes[offset] {
        case .openBrace: return .object
        case .openBracket: return .array
        case .quote: return .string
        case .minus, UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        default: throw malformed("a value")
        }
    }

    /// Succeeds when only white space is left.
    mutating func finish() throws(JSONReaderError) {
        skipSpace()
        guard offset == bytes.count else { throw malformed("the end of the document") }
    }

    // MARK: - Containers

    /// Reads an object: `member` gets each name in turn and must read or skip its value.
    mutating func readObject(_ member: (inout JSONReader, String) throws(JSONReaderError) -> Void) throws(JSONReaderError) {
        try readContainer(.openBrace, "an object") { (reader) throws(JSONReaderError) in
            try member(&reader, try reader.readMemberName())
        }
    }

    /// Reads an array: `element` is called for each element and must read or skip it.
    mutating func readArray(_ element: (inout JSONReader) throws(JSONReaderError) -> Void) throws(JSONReaderError) {
        try readContainer(.openBracket, "an array", element)
    }

    /// An object or array opened by `opener`: `slot` reads each member or element in turn. A
    /// trailing comma before the closer is let pass.
    private mutating func readContainer(
        _ opener: UInt8, _ what: String, _ slot: (inout JSONReader) throws(JSONReaderError) -> Void
    ) throws(JSONReaderError) {
        skipSpace()
        guard offset < bytes.count, bytes[offset] == opener else { throw malformed(what) }
        let closer = Self.closer(of: opener)
        offset += 1
        try enter()
        while true {
            skipSpace()
            guard offset < bytes.count else { throw malformed(opener == .openBrace ? "a member or '}'" : "an element or ']'") }
            if bytes[offset] == closer {  // empty, or after a trailing comma
                offset += 1
                depth -= 1
                return
            }
            try slot(&self)
            skipSpace()
            guard offset < bytes.count else { throw malformed("',' or '\(Character(Unicode.Scalar(closer)))'") }
            switch bytes[offset] {
            case .comma: offset += 1
            case closer:
                offset += 1
                depth -= 1
                return
            default: throw malformed("',' or '\(Character(Unicode.Scalar(closer)))'")
            }
        }
    }

    /// A member's name and the ':' after it.
    private mutating func readMemberName() throws(JSONReaderError) -> String {
        guard bytes[offset] == .quote else { throw malformed("a member name") }
        let name = try readString()
        try expectColon()
        return name
    }

    private mutating func expectColon() throws(JSONReaderError) {
        skipSpace()
        guard offset < bytes.count, bytes[offset] == .colon else { throw malformed("':'") }
        offset += 1
    }

    private static func closer(of opener: UInt8) -> UInt8 {
        opener == .openBrace ? .closeBrace : .closeBracket
    }

    private mutating func enter() throws(JSONReaderError) {
        depth += 1
        guard depth <= maxDepth else { throw .tooDeep(limit: maxDepth) }
    }

    // MARK: - Scalars

    /// Reads a string value, escapes resolved. Invalid UTF-8 reads as U+FFFD.
    mutating func readString() throws(JSONReaderError) -> String {
        skipSpace()
        guard offset < bytes.count, bytes[offset] == .quote else { throw malformed("a string") }
        offset += 1
        let start = offset
        // Most strings have no escape: one scan, one copy.
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == .quote {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
                offset += 1
                return text
            }
            if byte == .backslash { break }
            offset += 1
        }
        var out: [UInt8] = []
        out.reserveCapacity(offset - start + 16)
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<offset]))
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == .quote {
                offset += 1
                return String(decoding: out, as: UTF8.self)
            }
            offset += 1
            guard byte == .backslash else {
                out.append(byte)
                continue
            }
            guard offset < bytes.count else { break }
            let escape = bytes[offset]
            offset += 1
            switch escape {
            case .quote, .backslash, .slash: out.append(escape)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                let scalar = try readUnicodeEscape()
                UTF8.encode(scalar) { out.append($0) }
            default:
                offset -= 1
                throw malformed("a known escape after '\\'")
            }
        }
        throw malformed("the end of the string")
    }

    /// After `\u`: four hex digits, and a low surrogate's after a high one.
    private mutating func readUnicodeEscape() throws(JSONReaderError) -> Unicode.Scalar {
        let first = try readHex4()
        switch first {
        case 0xD800...0xDBFF:
            // A pair: `\uD83D\uDE00`. Without its second half, the first is U+FFFD.
            guard offset + 1 < bytes.count, bytes[offset] == .backslash, bytes[offset + 1] == UInt8(ascii: "u") else {
                return Unicode.Scalar.replacement
            }
            let mark = offset
            offset += 2
            let second = try readHex4()
            guard (0xDC00...0xDFFF).contains(second) else {
                offset = mark  // read the second escape on its own
                return Unicode.Scalar.replacement
            }
            let value = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            return Unicode.Scalar(value) ?? Unicode.Scalar.replacement
        case 0xDC00...0xDFFF:
            return Unicode.Scalar.replacement
        default:
            return Unicode.Scalar(first) ?? Unicode.Scalar.replacement
        }
    }

    private mutating func readHex4() throws(JSONReaderError) -> UInt32 {
        guard offset + 4 <= bytes.count else { throw malformed("four hex digits") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let digit: UInt32
            switch bytes[offset] {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(bytes[offset] - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(bytes[offset] - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(bytes[offset] - UInt8(ascii: "A") + 10)
            default: throw malformed("four hex digits")
            }
            value = value << 4 | digit
            offset += 1
        }
        return value
    }

    /// A number as written, and its value.
    struct Number: Equatable {
        /// The literal text (`-12`, `3.5e2`).
        var text: String
        /// Whether it is written as a whole number (no fraction, no exponent).
        var isWhole: Bool
        var value: Double
    }

    /// Reads a number, to JSON's grammar; one too large for a Double is malformed.
    mutating func readNumber() throws(JSONReaderError) -> Number {
        skipSpace()
        let start = offset
        let isWhole = try scanNumber()
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            offset = start
            throw malformed("a number a Double can hold")
        }
        return Number(text: text, isWhole: isWhole, value: value)
    }

    /// Past a number; whether it is written whole.
    private mutating func scanNumber() throws(JSONReaderError) -> Bool {
        if offset < bytes.count, bytes[offset] == .minus { offset += 1 }
        guard digits() > 0 else { throw malformed("a digit") }
        var isWhole = true
        if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
            offset += 1
            isWhole = false
            guard digits() > 0 else { throw malformed("a digit after '.'") }
        }
        if offset < bytes.count, bytes[offset] | 0x20 == UInt8(ascii: "e") {
            offset += 1
            isWhole = false
            if offset < bytes.count, bytes[offset] == .minus || bytes[offset] == UInt8(ascii: "+") { offset += 1 }
            guard digits() > 0 else { throw malformed("a digit in the exponent") }
        }
        return isWhole
    }

    /// Skips digits; how many.
    private mutating func digits() -> Int {
        let start = offset
        while offset < bytes.count, bytes[offset] &- UInt8(ascii: "0") < 10 { offset += 1 }
        return offset - start
    }

    /// Reads `true` or `false`.
    mutating func readBool() throws(JSONReaderError) -> Bool {
        skipSpace()
        if matches("true") { return true }
        if matches("false") { return false }
        throw malformed("true or false")
    }

    /// Reads `null`.
    mutating func readNull() throws(JSONReaderError) {
        skipSpace()
        guard matches("null") else { throw malformed("null") }
    }

    private mutating func matches(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard offset + count <= bytes.count else { return false }
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: count)
        for index in 0..<count where bytes[offset + index] != expected[index] { return false }
        offset += count
        return true
    }

    // MARK: - Skipping

    /// Reads past the next value whatever it is, building nothing (but checking it is JSON).
    /// Iterative, with the closers it waits for in a list: however deep the value, the stack
    /// stays flat.
    mutating func skipValue() throws(JSONReaderError) {
        var closers: [UInt8] = []
        var expectingValue = true
        while true {
            if expectingValue {
                switch try nextKind() {
                case .string: try skipString()
                case .number: _ = try readNumber()  // rare in what is skipped; checked as when read
                case .bool: _ = try readBool()
                case .null: try readNull()
                case .object, .array:
                    closers.append(Self.closer(of: bytes[offset]))
                    offset += 1
                    try enter()
                    expectingValue = try openSlot(&closers)
                    continue
                }
                expectingValue = false
            }
            // After a value: the next slot of the innermost container, or its end.
            guard let closer = closers.last else { return }
            skipSpace()
            guard offset < bytes.count else { throw malformed("',' or a closing bracket") }
            if bytes[offset] == .comma {
                offset += 1
                expectingValue = try openSlot(&closers)
            } else if bytes[offset] == closer {
                offset += 1
                closers.removeLast()
                depth -= 1
            } else {
                throw malformed("',' or a closing bracket")
            }
        }
    }

    /// At the start of a container's slot: closes the container if it ends here (empty, or after
    /// a trailing comma) and says false; else reads an object member's name and ':' and says true.
    private mutating func openSlot(_ closers: inout [UInt8]) throws(JSONReaderError) -> Bool {
        skipSpace()
        guard offset < bytes.count, let closer = closers.last else { throw malformed("a value or a closing bracket") }
        if bytes[offset] == closer {
            offset += 1
            closers.removeLast()
            depth -= 1
            return false
        }
        if closer == .closeBrace {  // a member: its name, skipped, then ':'
            guard bytes[offset] == .quote else { throw malformed("a member name") }
            try skipString()
            try expectColon()
        }
        return true
    }

    /// Past a string without decoding it (its escapes checked as when read).
    private mutating func skipString() throws(JSONReaderError) {
        offset += 1  // the opening quote, seen by nextKind
        while offset < bytes.count {
            switch bytes[offset] {
            case .quote:
                offset += 1
                return
            case .backslash:
                offset += 1
                guard offset < bytes.count else { break }
                switch bytes[offset] {
                case .quote, .backslash, .slash, UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"),
                    UInt8(ascii: "t"):
                    offset += 1
                case UInt8(ascii: "u"):
                    offset += 1
                    _ = try readHex4()
                default:
                    throw malformed("a known escape after '\\'")
                }
            default: offset += 1
            }
        }
        throw malformed("the end of the string")
    }

    // MARK: - Support

    private mutating func skipSpace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x0A, 0x0D, 0x09: offset += 1
            default: return
            }
        }
    }

    private func malformed(_ expected: String) -> JSONReaderError {
        .malformed("expected \(expected)", offset: min(offset, bytes.count))
    }

    /// Line and column (1-based, columns in characters) of byte `offset` of `bytes`.
    static func position(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for byte in bytes.prefix(max(0, min(offset, bytes.count))) {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }
}

extension Unicode.Scalar {
    fileprivate static let replacement: Unicode.Scalar = "\u{FFFD}"
}

// `quote`, `slash` and `colon` are the XML scanner's (same bytes).
extension UInt8 {
    fileprivate static let openBrace = UInt8(ascii: "{")
    fileprivate static let closeBrace = UInt8(ascii: "}")
    fileprivate static let openBracket = UInt8(ascii: "[")
    fileprivate static let closeBracket = UInt8(ascii: "]")
    fileprivate static let backslash = UInt8(ascii: "\\")
    fileprivate static let comma = UInt8(ascii: ",")
    fileprivate static let minus = UInt8(ascii: "-")
}
