import KioskCore
/// A CSS selector of the small kind site rules need: compound selectors (`div`, `.story`,
/// `#main`, `[data-role]`, `[itemprop=articleBody]`, `article.post.full`) joined by descendant
/// combinators (spaces), several of them separated by commas. Anything else (child or sibling
/// combinators, pseudo-classes, attribute operators other than `=`) is refused when the rule is
/// read, with the reason, rather than matching something unexpected.
public struct ArticleSelector: Sendable, Hashable, CustomStringConvertible {
    /// One element's conditions: a name (or any), ids, classes, attributes.
    struct Compound: Sendable, Hashable {
        var name: String?
        var id: String?
        var classes: [String] = []
        var attributes: [Attribute] = []
    }

    /// `[name]` (value nil: present at all) or `[name=value]`.
    struct Attribute: Sendable, Hashable {
        var name: String
        var value: String?
    }

    /// Alternatives (the comma-separated parts); each a chain, outermost ancestor first.
    let alternatives: [[Compound]]
    public let description: String

    /// Reads `text`; throws with the reason when it is not a selector of the supported kind.
    public init(_ text: String) throws(ArticleSelectorError) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw ArticleSelectorError(selector: text, reason: "it is empty") }
        guard trimmed.count <= 500 else { throw ArticleSelectorError(selector: String(text.prefix(40)), reason: "it is too long") }
        var alternatives: [[Compound]] = []
        for words in Self.split(trimmed) {
            guard !words.isEmpty else { throw ArticleSelectorError(selector: text, reason: "a part between commas is empty") }
            var chain: [Compound] = []
            for word in words {
                chain.append(try Self.compound(word, in: text))
            }
            alternatives.append(chain)
        }
        self.alternatives = alternatives
        description = trimmed
    }

    public static func == (lhs: ArticleSelector, rhs: ArticleSelector) -> Bool { lhs.description == rhs.description }
    public func hash(into hasher: inout Hasher) { hasher.combine(description) }

    /// The parts between commas, each as its words (split at whitespace), commas and spaces
    /// inside `[...]` kept with their attribute.
    private static func split(_ text: String) -> [[String]] {
        var parts: [[String]] = [[]]
        var word = ""
        var inBrackets = false
        func endWord() {
            if !word.isEmpty { parts[parts.count - 1].append(word) }
            word = ""
        }
        for character in text {
            if inBrackets {
                word.append(character)
                if character == "]" { inBrackets = false }
            } else if character == "[" {
                word.append(character)
                inBrackets = true
            } else if character == "," {
                endWord()
                parts.append([])
            } else if character.isWhitespace {
                endWord()
            } else {
                word.append(character)
            }
        }
        endWord()
        return parts
    }

    private static func compound(_ word: String, in selector: String) throws(ArticleSelectorError) -> Compound {
        func fail(_ reason: String) -> ArticleSelectorError { ArticleSelectorError(selector: selector, reason: reason) }
        var compound = Compound()
        var rest = Substring(word)
        let name = rest.prefix { isNameCharacter($0) || $0 == "*" }
        if !name.isEmpty {
            guard name == "*" || !name.contains("*") else { throw fail("“\(name)” is not an element name") }
            if name != "*" { compound.name = name.lowercased() }
            rest = rest.dropFirst(name.count)
        }
        while let first = rest.first {
            switch first {
            case ".", "#":
                let value = rest.dropFirst().prefix(while: isNameCharacter)
                guard !value.isEmpty else { throw fail("“\(first)” is not followed by a name") }
                if first == "." {
                    compound.classes.append(String(value))
                } else {
                    compound.id = String(value)
                }
                rest = rest.dropFirst(1 + value.count)
            case "[":
                guard let close = rest.firstIndex(of: "]") else { throw fail("a “[” is not closed") }
                let inside = rest[rest.index(after: rest.startIndex)..<close]
                if let equals = inside.firstIndex(of: "=") {
                    let attribute = inside[..<equals]
                    var value = inside[inside.index(after: equals)...]
                    guard !attribute.isEmpty, attribute.allSatisfy(isNameCharacter) else {
                        throw fail("only [name] and [name=value] are supported")
                    }
                    if let quote = value.first, quote == "\"" || quote == "'" {
                        guard value.count >= 2, value.last == quote else { throw fail("a quoted value is not closed") }
                        value = value.dropFirst().dropLast()
                    }
                    compound.attributes.append(Attribute(name: attribute.lowercased(), value: String(value)))
                } else {
                    guard !inside.isEmpty, inside.allSatisfy(isNameCharacter) else { throw fail("“[\(inside)]” is not an attribute") }
                    compound.attributes.append(Attribute(name: inside.lowercased(), value: nil))
                }
                rest = rest[rest.index(after: close)...]
            default:
                throw fail("“\(first)” is not supported (only names, .class, #id, [attribute] and spaces between)")
            }
        }
        guard compound.name != nil || compound.id != nil || !compound.classes.isEmpty || !compound.attributes.isEmpty
            || name == "*"
        else { throw fail("“\(word)” selects nothing") }
        return compound
    }

    private static func isNameCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || character == "-" || character == "_")
    }

    /// Whether the element `index` of `document` matches.
    func matches(_ index: Int, in document: ArticleDocument) -> Bool {
        alternatives.contains { chain in matches(chain, index, document) }
    }

    private func matches(_ chain: [Compound], _ index: Int, _ document: ArticleDocument) -> Bool {
        guard let last = chain.last, Self.matches(last, document.nodes[index]) else { return false }
        // Descendant combinators: the rest of the chain, right to left, among the ancestors
        // (greedy nearest-first is exact for descendant-only chains).
        var remaining = chain.dropLast()
        var current = document.nodes[index].parent
        while let wanted = remaining.last, current > ArticleDocument.root {
            if Self.matches(wanted, document.nodes[current]) { remaining = remaining.dropLast() }
            current = document.nodes[current].parent
        }
        return remaining.isEmpty
    }

    private static func matches(_ compound: Compound, _ node: ArticleDocument.Node) -> Bool {
        guard !node.isText, node.name != "#document" else { return false }
        if let name = compound.name, node.name != name { return false }
        if let id = compound.id, node.value(of: "id") != id { return false }
        if !compound.classes.isEmpty {
            let classes = (node.value(of: "class") ?? "").split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
            for wanted in compound.classes where !classes.contains(where: { $0 == wanted }) { return false }
        }
        for attribute in compound.attributes {
            guard let value = node.value(of: attribute.name) else { return false }
            if let wanted = attribute.value, value != wanted { return false }
        }
        return true
    }
}

/// A site rule's selector that cannot be used, and why.
public struct ArticleSelectorError: Error, Sendable, Equatable, CustomStringConvertible {
    public var selector: String
    public var reason: String
    public var description: String { "the selector “\(selector)” cannot be used: \(reason)" }
}
