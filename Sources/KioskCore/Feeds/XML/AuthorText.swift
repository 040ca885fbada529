import Foundation

/// Reads the free-text author forms of RSS: `mail@x (Name)`, `Name <mail@x>`, `Name`, `mail@x`.
enum AuthorText {
    static func parse(_ raw: String) -> Author {
        let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if let open = text.firstIndex(of: "("), text.hasSuffix(")") {
            let outside = text[..<open].trimmingCharacters(in: .whitespaces)
            let inside = text[text.index(after: open)..<text.index(before: text.endIndex)]
                .trimmingCharacters(in: .whitespaces)
            if outside.contains("@") { return Author(name: inside.isEmpty ? nil : inside, email: outside) }
            if inside.contains("@") { return Author(name: outside.isEmpty ? nil : outside, email: inside) }
        }
        if let open = text.firstIndex(of: "<"), text.hasSuffix(">") {
            let name = text[..<open].trimmingCharacters(in: .whitespaces)
            var email = String(text[text.index(after: open)..<text.index(before: text.endIndex)])
            if email.lowercased().hasPrefix("mailto:") { email.removeFirst(7) }
            return Author(name: name.isEmpty ? nil : name, email: email)
        }
        if !text.contains(" "), text.contains("@") { return Author(email: text) }
        return Author(name: text)
    }
}
