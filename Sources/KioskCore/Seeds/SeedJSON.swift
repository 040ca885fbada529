import Foundation

/// A JSON value as the seed parsers read it: a plain tree they pattern-match field by field, so a
/// null, missing or wrongly typed field costs only that field, never the whole document.
enum SeedJSON: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([SeedJSON])
    case object([String: SeedJSON])

    /// Reads a seed response: decodes the text liberally (invalid UTF-8 falls back to Latin-1 via
    /// ``TextDecoding``), tolerates trailing commas, and says in words why anything else fails.
    static func parse(_ data: Data) throws(SeedError) -> SeedJSON {
        // Same rules as TextDecoding.string(_:), kept as bytes: the JSON reader wants bytes anyway.
        let bytes = TextDecoding.utf8Bytes([UInt8](data))
        guard let first = bytes.first(where: { !isJSONWhiteSpace($0) }) else {
            throw .notJSON("the response is empty")
        }
        // Proxies, captive portals and dead hosts answer with HTML; say so rather than "malformed".
        if first == UInt8(ascii: "<") { throw .notJSON("it is an HTML or XML page") }
        let object: Any
        do {
            // JSONSerialization caps nesting itself (512 levels), so hostile input cannot recurse deep.
            object = try JSONSerialization.jsonObject(
                with: Data(removingTrailingCommas(bytes)), options: [.fragmentsAllowed])
        } catch {
            throw .notJSON("it is malformed or cut short")
        }
        return SeedJSON(foundation: object)
    }

    private static func isJSONWhiteSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Converts JSONSerialization's output; anything it could not have produced reads as null.
    init(foundation value: Any) {
        // Most frequent kinds first: each failed dynamic cast costs.
        switch value {
        case let string as String:
            self = .string(string)
        case let object as [String: Any]:
            self = .object(object.mapValues(SeedJSON.init(foundation:)))
        case let array as [Any]:
            self = .array(array.map(SeedJSON.init(foundation:)))
        case let number as NSNumber:
            // JSON true/false come back as NSNumber too, flagged by the C type `c` (char).
            if number.objCType.pointee == CChar(UInt8(ascii: "c")) {
                self = .bool(number.boolValue)
            } else {
                self = .number(number.doubleValue)
            }
        default:
            self = .null
        }
    }

    /// Drops every comma that, outside strings, is followed (after white space) by `]` or `}`.
    /// Valid JSON never has one there, so valid input comes back unchanged. (Foundation on Linux
    /// accepts trailing commas, Darwin's does not; this makes both read the same.)
    static func removingTrailingCommas(_ bytes: [UInt8]) -> [UInt8] {
        let dropped = bytes.withUnsafeBufferPointer(trailingCommaOffsets)
        guard !dropped.isEmpty else { return bytes }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count - dropped.count)
        var kept = 0
        for offset in dropped {
            out.append(contentsOf: bytes[kept..<offset])
            kept = offset + 1
        }
        out.append(contentsOf: bytes[kept...])
        return out
    }

    /// Offsets of the trailing commas, in order.
    private static func trailingCommaOffsets(_ bytes: UnsafeBufferPointer<UInt8>) -> [Int] {
        var offsets: [Int] = []
        var inString = false
        var escaped = false
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            if inString {
                if escaped {
                    escaped = false
                } else if byte == 0x5C {  // backslash
                    escaped = true
                } else if byte == 0x22 {  // quote
                    inString = false
                }
            } else if byte == 0x22 {
                inString = true
            } else if byte == 0x2C {  // comma
                var j = i + 1
                while j < bytes.count, isJSONWhiteSpace(bytes[j]) { j += 1 }
                if j < bytes.count, bytes[j] == 0x5D || bytes[j] == 0x7D { offsets.append(i) }
                // The white space just skipped holds no quote or comma: resume after it.
                i = j
                continue
            }
            i += 1
        }
        return offsets
    }

    // MARK: - Lenient accessors

    /// The member named `key` when this is an object.
    subscript(key: String) -> SeedJSON? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    var object: [String: SeedJSON]? {
        if case .object(let members) = self { return members }
        return nil
    }

    var array: [SeedJSON]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The string unchanged, when this is a string.
    var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The string trimmed of surrounding white space; nil when not a string or blank, because the
    /// seed sources use `""` and `" "` for "no value".
    var text: String? {
        guard case .string(let value) = self else { return nil }
        let scalars = value.unicodeScalars
        guard let first = scalars.first, let last = scalars.last else { return nil }
        // Most values need no trimming; Foundation's trimming is costly on Linux, so skip it then.
        if !first.properties.isWhitespace, !last.properties.isWhitespace { return value }
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// The string unchanged unless blank (content keeps its own line breaks and spacing).
    var nonBlankString: String? {
        guard case .string(let value) = self, value.unicodeScalars.contains(where: { !$0.properties.isWhitespace })
        else { return nil }
        return value
    }

    /// An identifier given as a string or as a whole number (`"123"` and `123` both read `"123"`).
    var identifier: String? {
        if let text { return text }
        if case .number(let value) = self, let whole = Int64(exactly: value) { return String(whole) }
        return nil
    }

    var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// A whole number given as a number or as a string of digits.
    var int: Int? {
        switch self {
        case .number(let value): Int(exactly: value)
        case .string(let value): Int(value.trimmingCharacters(in: .whitespaces))
        default: nil
        }
    }
}
