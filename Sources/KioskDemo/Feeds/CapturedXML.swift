import Foundation

/// Edits the text of simple elements in captured XML by string search; enough for the flat,
/// well-formed items of the bundled feeds, and it leaves every other byte as captured.
enum XMLText {
    /// Replaces the text of the first `<name>` or `<name attributes>` element; unchanged when absent.
    static func replacingText(of name: String, in xml: String, with transform: (Substring) -> String) -> String {
        guard let content = textRange(of: name, in: xml) else { return xml }
        var edited = xml
        edited.replaceSubrange(content, with: transform(xml[content]))
        return edited
    }

    /// `text` as XML character data, safe inside an element or a quoted attribute: the five
    /// special characters become references, and characters XML 1.0 cannot carry at all
    /// (controls other than tab, line feed and carriage return; U+FFFE, U+FFFF) are dropped.
    static func escaped(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&apos;"
            case "\t", "\n", "\r": escaped.unicodeScalars.append(scalar)
            default:
                if scalar.value >= 0x20, scalar.value != 0xFFFE, scalar.value != 0xFFFF {
                    escaped.unicodeScalars.append(scalar)
                }
            }
        }
        return escaped
    }

    /// The text of the first `<name>` element as XML holds it (references not decoded), or nil.
    static func text(of name: String, in xml: String) -> Substring? {
        textRange(of: name, in: xml).map { xml[$0] }
    }

    /// XML character data decoded: the five predefined references and numeric ones (anything
    /// else is left as written).
    static func unescaped(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var output = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            output += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            guard let semi = after.prefix(12).firstIndex(of: ";") else {
                output += "&"
                rest = after
                continue
            }
            let name = after[..<semi]
            if let decoded = reference(name) {
                output.unicodeScalars.append(decoded)
                rest = after[after.index(after: semi)...]
            } else {
                output += "&"
                rest = after
            }
        }
        return output + rest
    }

    private static func reference(_ name: Substring) -> Unicode.Scalar? {
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        default:
            guard name.first == "#" else { return nil }
            let digits = name.dropFirst()
            let value = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
            return value.flatMap(Unicode.Scalar.init)
        }
    }

    /// Whether `xml` holds a `<name>` element.
    static func contains(_ name: String, in xml: String) -> Bool {
        textRange(of: name, in: xml) != nil
    }

    private static func textRange(of name: String, in xml: String) -> Range<String.Index>? {
        var cursor = xml.startIndex
        while let open = xml.range(of: "<\(name)", range: cursor..<xml.endIndex) {
            cursor = open.upperBound
            // `<title` must not match `<titleImage>`: the name ends at `>`, a space or a tab.
            guard cursor < xml.endIndex, [">", " ", "\t", "\n"].contains(xml[cursor]) else { continue }
            guard let endOfTag = xml.range(of: ">", range: cursor..<xml.endIndex),
                let close = xml.range(of: "</\(name)>", range: endOfTag.upperBound..<xml.endIndex)
            else { return nil }
            return endOfTag.upperBound..<close.lowerBound
        }
        return nil
    }
}
