import Foundation

/// Edits the text of simple elements in captured XML by string search; enough for the flat,
/// well-formed items of the bundled feeds, and it leaves every other byte as captured. Escaping
/// and decoding are KioskCore's `XMLText`.
enum CapturedXML {
    /// Replaces the text of the first `<name>` or `<name attributes>` element; unchanged when absent.
    static func replacingText(of name: String, in xml: String, with transform: (Substring) -> String) -> String {
        guard let content = textRange(of: name, in: xml) else { return xml }
        var edited = xml
        edited.replaceSubrange(content, with: transform(xml[content]))
        return edited
    }

    /// The text of the first `<name>` element as XML holds it (references not decoded), or nil.
    static func text(of name: String, in xml: String) -> Substring? {
        textRange(of: name, in: xml).map { xml[$0] }
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
