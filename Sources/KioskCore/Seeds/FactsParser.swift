import Foundation

/// Reads the "About Canada" facts feed (`{"title", "rows": [{"title", "description", "imageHref"}]}`).
public enum FactsParser {
    /// Parses the facts feed. The real file is not valid UTF-8 (one Latin-1 `É`), so the bytes are
    /// decoded with the Latin-1 fallback before the JSON is read. Text is trimmed, empty strings
    /// count as missing, and rows with nothing left are skipped.
    /// - Throws: ``SeedError/notJSON(_:)`` or ``SeedError/unexpectedShape(_:)`` when there is no `rows` list.
    public static func parse(_ data: Data) throws(SeedError) -> FactSheet {
        let root = try SeedJSON.parse(data)
        guard let rows = root["rows"]?.array else {
            throw .unexpectedShape("expected a facts feed, an object with a \"rows\" list")
        }
        let facts = rows.compactMap { row -> Fact? in
            let fact = Fact(title: row["title"]?.text, description: row["description"]?.text, imageURL: row["imageHref"]?.text)
            return fact == Fact() ? nil : fact
        }
        return FactSheet(title: root["title"]?.text, rows: facts)
    }
}
