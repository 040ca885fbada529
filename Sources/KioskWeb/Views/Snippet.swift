import KioskCore

/// A short plain-text preview of feed HTML, for list rows.
enum Snippet {
    static func of(_ html: String?, limit: Int = 180) -> String? {
        guard let html, !html.isEmpty else { return nil }
        let text = HTMLText.plainText(fromHTML: html)
            .split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        guard !text.isEmpty else { return nil }
        guard text.count > limit else { return text }
        let cut = text.prefix(limit)
        let end = cut.lastIndex(of: " ") ?? cut.endIndex
        return String(cut[..<end]) + "…"
    }
}
