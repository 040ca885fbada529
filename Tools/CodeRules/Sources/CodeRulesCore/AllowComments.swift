import SwiftSyntax

/// A `// code-rules:allow <rule-name> <reason>` comment found in a file.
struct AllowComment {
    /// What the comment says, once parsed.
    enum Content {
        /// Silences `rule` on this line, for the reason given.
        case allow(Rule, reason: String)
        /// Starts with the marker but cannot be honoured; the string says why.
        case invalid(String)
    }

    static let marker = "code-rules:allow"

    let line: Int
    let column: Int
    let content: Content

    /// Parses the text of a `//` comment, or returns nil when it is not an allow comment.
    ///
    /// Any comment whose first word starts with `code-rules:` is taken as meant for the
    /// checker, so a typo such as `code-rules:alow` is reported rather than ignored.
    static func parse(_ text: String) -> Content? {
        guard text.hasPrefix("//") else { return nil }
        let words = text.dropFirst(2).split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard let first = words.first, first.hasPrefix("code-rules:") else { return nil }
        guard first == marker else {
            return .invalid("unknown directive `\(first)`; write `// \(marker) <rule-name> <reason>`")
        }
        let names = Rule.allCases.filter(\.isSuppressible).map(\.rawValue).joined(separator: ", ")
        guard words.count >= 2 else {
            return .invalid("allow comment names no rule; write `// \(marker) <rule-name> <reason>` (rules: \(names))")
        }
        let ruleName = String(words[1])
        guard let rule = Rule(rawValue: ruleName), rule.isSuppressible else {
            return .invalid("`\(ruleName)` is not a rule that can be allowed (rules: \(names))")
        }
        guard words.count >= 3 else {
            return .invalid("allow comment for `\(ruleName)` gives no reason; say why the rule does not apply here")
        }
        return .allow(rule, reason: words[2...].joined(separator: " "))
    }

    /// Every allow comment in `tree`, in source order.
    static func collect(in tree: some SyntaxProtocol, converter: SourceLocationConverter) -> [AllowComment] {
        var found: [AllowComment] = []
        for token in tree.tokens(viewMode: .sourceAccurate) {
            // Trivia pieces carry no position of their own, so walk each run from its start.
            scan(token.leadingTrivia, from: token.position, converter: converter, into: &found)
            scan(token.trailingTrivia, from: token.endPositionBeforeTrailingTrivia, converter: converter, into: &found)
        }
        return found
    }

    private static func scan(
        _ trivia: Trivia,
        from start: AbsolutePosition,
        converter: SourceLocationConverter,
        into found: inout [AllowComment]
    ) {
        var position = start
        for piece in trivia {
            if case .lineComment(let text) = piece, let content = parse(text) {
                let location = converter.location(for: position)
                found.append(AllowComment(line: location.line, column: location.column, content: content))
            }
            position += piece.sourceLength
        }
    }
}
