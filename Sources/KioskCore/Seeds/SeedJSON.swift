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

    /// Deepest nesting read: the seed documents are a few levels deep, and the tree is built
    /// recursively, so hostile nesting is refused long before it could cost the stack.
    static let maxDepth = 64

    /// Reads a seed response: decodes the text liberally (invalid UTF-8 falls back to Latin-1 via
    /// ``TextDecoding``), tolerates trailing commas, and says in words why anything else fails.
    /// Read with ``JSONReader``, straight into this tree (no Foundation objects in between).
    static func parse(_ data: Data) throws(SeedError) -> SeedJSON {
        let bytes = TextDecoding.utf8Bytes([UInt8](data))
        guard let first = bytes.first(where: { !isJSONWhiteSpace($0) }) else {
            throw .notJSON("the response is empty")
        }
        // Proxies, captive portals and dead hosts answer with HTML; say so rather than "malformed".
        if first == UInt8(ascii: "<") { throw .notJSON("it is an HTML or XML page") }
        do {
            return try bytes.withUnsafeBufferPointer { (buffer) throws(JSONReaderError) -> SeedJSON in
                var reader = JSONReader(buffer, maxDepth: maxDepth)
                let value = try read(&reader)
                try reader.finish()
                return value
            }
        } catch {
            throw .notJSON("it is malformed or cut short")
        }
    }

    private static func read(_ reader: inout JSONReader) throws(JSONReaderError) -> SeedJSON {
        switch try reader.nextKind() {
        case .object:
            var members: [String: SeedJSON] = [:]
            try reader.readObject { (reader, name) throws(JSONReaderError) in members[name] = try read(&reader) }
            return .object(members)
        case .array:
            var elements: [SeedJSON] = []
            try reader.readArray { (reader) throws(JSONReaderError) in elements.append(try read(&reader)) }
            return .array(elements)
        case .string: return .string(try reader.readString())
        case .number: return .number(try reader.readNumber().value)
        case .bool: return .bool(try reader.readBool())
        case .null:
            try reader.readNull()
            return .null
        }
    }

    private static func isJSONWhiteSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
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
